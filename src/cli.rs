//! Stage 4: the command line. Exit codes: 0 ok, 1 invalid game file, 2 bad usage or
//! illegal move.

use crate::choice::ChoiceArgs;
use clap::{Parser, Subcommand, ValueEnum};
use regula::LoadError;
use regula::diag::{self, Diagnostic, Severity};
use regula::engine::{Engine, Position};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "regula",
    version,
    about = "Describe board games as text; list, count and play their moves."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    Human,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Check game files and report every problem found.
    #[command(
        after_help = "Example:\n  regula check games/*.game\n  regula check --format json games/tablut.game"
    )]
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Treat warnings as errors (exit 1).
        #[arg(long)]
        deny_warnings: bool,
        /// Without `--variant` or `--set`, the file and each of its variants are checked.
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Describe a game: name, sources, players, board, pieces, variants and parameters.
    #[command(
        after_help = "Example:\n  regula info games/shakti.game\n  regula info games/shakti.game --variant inventor --format json"
    )]
    Info {
        game: PathBuf,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// List the legal moves, one per line in byte order, or the result of a finished game.
    #[command(after_help = "Example:\n  regula moves games/tablut.game --after \"e3-h3 e2-e3\"")]
    Moves {
        game: PathBuf,
        /// Moves to play from the start, separated by spaces.
        #[arg(long, default_value = "")]
        after: String,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Count the move sequences of a given length (perft).
    #[command(
        after_help = "Example:\n  regula perft games/tablut.game 3\n  regula perft games/tablut.game 2 --divide --after e3-h3"
    )]
    Perft {
        game: PathBuf,
        depth: u32,
        #[arg(long, default_value = "")]
        after: String,
        /// Print the count below each root move, then the total.
        #[arg(long)]
        divide: bool,
        /// Threads to count on (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Play uniformly random games and report outcomes and speed.
    #[command(after_help = "Example:\n  regula playout games/tablut.game --count 2000 --seed 1")]
    Playout {
        game: PathBuf,
        #[arg(long, default_value_t = 1000)]
        count: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop a game after this many plies (it then counts as unfinished).
        #[arg(long, default_value_t = 100_000)]
        max_plies: u64,
        /// Threads to play on (default: every core). The statistics of a seed do not
        /// depend on it.
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Print the board, the player to move (or the result), hands and scores.
    #[command(after_help = "Example:\n  regula show games/shakti.game --after \"b2-b4\"")]
    Show {
        game: PathBuf,
        #[arg(long, default_value = "")]
        after: String,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Print the checked intermediate representation as RON.
    #[command(after_help = "Example:\n  regula ir games/tablut.game")]
    Ir {
        game: PathBuf,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Measure random-playout speed of games against a fixed calibration loop run alongside.
    #[command(after_help = "Example:\n  regula bench games/*.game --seconds 2")]
    Bench {
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// Time to spend on each game, in seconds (above 0, at most 3600).
        #[arg(long, default_value_t = 2.0, value_parser = bench_seconds)]
        seconds: f64,
        /// Threads to play on (default: every core); the calibration loop runs on one.
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Explain a diagnostic code, with a wrong and a corrected example.
    #[command(after_help = "Example:\n  regula explain E0102")]
    Explain { code: String },
    /// Serve the Language Server Protocol on standard input and output, for editors.
    #[command(
        after_help = "Diagnostics as you type, hover, go to definition, references, completion,\noutline, rename and formatting. Editors start it themselves (docs/EDITORS.md).\n\nExample:\n  regula lsp"
    )]
    Lsp,
    /// Lay game files out in the canonical format, in place (`-`: standard input to output).
    #[command(
        after_help = "A file with a syntax error is left as it is (its errors are printed; exit 1).\n\nExample:\n  regula fmt games/*.game\n  regula fmt --check games/*.game\n  regula fmt - < my.game"
    )]
    Fmt {
        #[arg(required = true)]
        files: Vec<String>,
        /// Change nothing: list the files that would change, and exit 1 if there are any.
        #[arg(long)]
        check: bool,
    },
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        Command::Check {
            files,
            format,
            deny_warnings,
            choice,
        } => check(&files, format, deny_warnings, &choice),
        Command::Info {
            game,
            format,
            choice,
        } => crate::choice::info(&game, &choice.choice(), format),
        Command::Moves {
            game,
            after,
            choice,
        } => with_position(&game, &choice, &after, |engine, pos| {
            let mut buf = Vec::new();
            let mut out = String::new();
            match engine.status(pos, &mut buf) {
                Some(o) => out = format!("result: {}\n", engine.outcome_text(o)),
                None => {
                    let mut names: Vec<String> = buf.iter().map(|m| engine.notation(m)).collect();
                    names.sort();
                    for n in names {
                        out.push_str(&n);
                        out.push('\n');
                    }
                }
            }
            print(&out)
        }),
        Command::Perft {
            game,
            depth,
            after,
            divide,
            threads,
            choice,
        } => with_position(&game, &choice, &after, |engine, pos| {
            let t0 = std::time::Instant::now();
            let threads = threads.unwrap_or_else(cores).max(1);
            let mut out = String::new();
            let total = if divide {
                let rows = engine.divide(pos, depth);
                for (m, n) in &rows {
                    out.push_str(&format!("{m} {n}\n"));
                }
                if rows.is_empty() {
                    engine.perft_with(pos, depth, threads)
                } else {
                    rows.iter().map(|r| r.1).sum()
                }
            } else {
                engine.perft_with(pos, depth, threads)
            };
            out.push_str(&format!("{total}\n"));
            let secs = t0.elapsed().as_secs_f64();
            eprintln!(
                "{:.3} s, {:.0} nodes/s",
                secs,
                total as f64 / secs.max(1e-9)
            );
            print(&out)
        }),
        Command::Playout {
            game,
            count,
            seed,
            max_plies,
            threads,
            choice,
        } => with_engine(&game, &choice, |engine| {
            let threads = threads.unwrap_or_else(cores).max(1);
            let s = engine.playouts_with(&engine.start(), count, seed, max_plies, threads);
            if s.runaway > 0 {
                eprintln!(
                    "error: in playout {}, one player made {} moves in a row without the turn passing\n  = hint: an `again` effect that always applies keeps the turn forever; make it conditional (see docs/LANGUAGE.md, Limits)",
                    s.count,
                    regula::engine::search::MAX_TURN_MOVES
                );
                return 1;
            }
            let pct = |n: u64| 100.0 * n as f64 / s.count.max(1) as f64;
            let mut out = format!("playouts: {}\n", s.count);
            for p in 0..2u8 {
                out.push_str(&format!(
                    "{}: {:.1}%\n",
                    engine.player_name(p),
                    pct(s.wins[p as usize])
                ));
            }
            out.push_str(&format!("draw: {:.1}%\n", pct(s.draws)));
            if s.unfinished > 0 {
                out.push_str(&format!(
                    "unfinished (over {max_plies} plies): {:.1}%\n",
                    pct(s.unfinished)
                ));
            }
            out.push_str(&format!(
                "mean plies: {:.1}\n",
                s.plies as f64 / s.count.max(1) as f64
            ));
            out.push_str(&format!(
                "playouts/s: {:.0}\n",
                s.count as f64 / s.seconds.max(1e-9)
            ));
            out.push_str(&format!(
                "plies/s: {:.0}\n",
                s.plies as f64 / s.seconds.max(1e-9)
            ));
            print(&out)
        }),
        Command::Show {
            game,
            after,
            choice,
        } => with_position(&game, &choice, &after, |engine, pos| {
            print(&engine.render(pos))
        }),
        Command::Ir { game, choice } => match read(&game) {
            Err(code) => code,
            Ok(source) => match regula::compile_with(&source, &choice.choice()) {
                Ok((program, _)) => {
                    // The syntax stage and the checker bound the depth of every program
                    // accepted; RON's own limit is lower and would refuse some of them.
                    let ron = ron::Options::default().without_recursion_limit();
                    match ron.to_string_pretty(&program, ron::ser::PrettyConfig::default()) {
                        Ok(s) => print(&format!("{s}\n")),
                        Err(_) => {
                            eprintln!(
                                "error: internal failure: the IR cannot be printed; please report it with the game file"
                            );
                            101
                        }
                    }
                }
                Err(diags) => crate::choice::failure(&game, &source, &diags, Format::Human),
            },
        },
        Command::Bench {
            games,
            seconds,
            threads,
            choice,
        } => bench(
            &games,
            &choice,
            seconds,
            threads.unwrap_or_else(cores).max(1),
        ),
        Command::Fmt { files, check } => regula::fmt::run(&files, check),
        Command::Lsp => regula::lsp::run(),
        Command::Explain { code } => match diag::explain(&code) {
            Some(text) => print(&text),
            None => {
                eprintln!("error: unknown code `{code}`; the codes are listed in docs/ERRORS.md");
                2
            }
        },
    }
}

pub(crate) fn print(s: &str) -> i32 {
    let mut out = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not an error of ours.
    let _ = out.write_all(s.as_bytes());
    let _ = out.flush();
    0
}

/// Reads a game file, reporting unreadable input (exit code 1).
fn read(path: &Path) -> Result<String, i32> {
    regula::read_source(path).map_err(|e| report_load_error(&e, Format::Human))
}

pub(crate) fn report_load_error(e: &LoadError, format: Format) -> i32 {
    let (diags, text) = e.diagnostics();
    report(e.path(), text, &diags, format).max(1)
}

/// Most diagnostics of one file shown in human format; JSON lists them all.
const MAX_SHOWN: usize = 100;

pub(crate) fn report(path: &str, source: &str, diags: &[Diagnostic], format: Format) -> i32 {
    let mut err = std::io::stderr().lock();
    // One index for the whole file: each diagnostic is then placed without a scan.
    let index = diag::SourceIndex::new(source);
    let shown = match format {
        Format::Human => MAX_SHOWN,
        Format::Json => usize::MAX,
    };
    for d in diags.iter().take(shown) {
        let text = match format {
            Format::Human => diag::render_indexed(d, path, &index),
            Format::Json => {
                let json = serde_json::to_string(&diag::to_json_indexed(d, path, &index))
                    .expect("diagnostics serialize");
                json + "\n"
            }
        };
        let _ = err.write_all(text.as_bytes());
    }
    if let Some(rest) = diags.get(shown..).filter(|r| !r.is_empty()) {
        let errors = rest.iter().filter(|d| d.is_error()).count();
        let _ = writeln!(
            err,
            "... and {} more diagnostic(s) in {} ({errors} error(s)) not shown; `--format json` lists them all",
            rest.len(),
            diag::visible(path)
        );
    }
    if diags.iter().any(Diagnostic::is_error) {
        1
    } else {
        0
    }
}

fn check(files: &[PathBuf], format: Format, deny_warnings: bool, choice: &ChoiceArgs) -> i32 {
    let mut status = 0;
    for path in files {
        let source = match regula::read_source(path) {
            Ok(s) => s,
            Err(e) => {
                status = status.max(report_load_error(&e, format));
                continue;
            }
        };
        let diags = if choice.is_given() {
            match regula::compile_with(&source, &choice.choice()) {
                Ok((_, warnings)) => warnings,
                Err(diags) if diags.iter().any(regula::variants::is_choice_error) => {
                    status = status.max(crate::choice::failure(path, &source, &diags, format));
                    continue;
                }
                Err(diags) => diags,
            }
        } else {
            regula::check_all(&source)
        };
        let failed = diags
            .iter()
            .any(|d| d.severity == Severity::Error || deny_warnings);
        report(&path.to_string_lossy(), &source, &diags, format);
        if failed {
            status = 1;
        }
    }
    if status == 0 && matches!(format, Format::Human) {
        eprintln!("ok: {} file(s) checked", files.len());
    }
    status
}

fn with_engine(path: &Path, choice: &ChoiceArgs, f: impl FnOnce(&Engine) -> i32) -> i32 {
    match crate::choice::load(path, &choice.choice()) {
        Ok(engine) => f(&engine),
        Err(code) => code,
    }
}

fn with_position(
    path: &Path,
    choice: &ChoiceArgs,
    after: &str,
    f: impl FnOnce(&Engine, &mut Position) -> i32,
) -> i32 {
    with_engine(path, choice, |engine| {
        let mut pos = engine.start();
        let moves: Vec<&str> = after.split_whitespace().collect();
        if let Err(e) = engine.replay(&mut pos, &moves) {
            report("", "", &[e.diagnostic()], Format::Human);
            return 2;
        }
        f(engine, &mut pos)
    })
}

/// The number of cores to use by default.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Longest `bench --seconds` accepted: the loop runs until that much time is measured.
const MAX_BENCH_SECONDS: f64 = 3600.0;

fn bench_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_BENCH_SECONDS => Ok(s),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most {MAX_BENCH_SECONDS}"
        )),
    }
}

fn bench(games: &[PathBuf], choice: &ChoiceArgs, seconds: f64, threads: usize) -> i32 {
    // The calibration loop is a fixed amount of integer work: its speed varies with the
    // machine and its load like the engine's, so the ratio is comparable across runs.
    let calib = || {
        let t0 = std::time::Instant::now();
        let mut s = 1u64;
        let mut acc = 0u64;
        for _ in 0..20_000_000 {
            acc = acc.wrapping_add(regula::engine::search::splitmix(&mut s) >> 60);
        }
        std::hint::black_box(acc);
        20_000_000.0 / t0.elapsed().as_secs_f64()
    };
    let mut out = format!(
        "{:<12} {:>10} {:>11} {:>11} {:>12}\n",
        "game", "plies/s", "playouts/s", "mean plies", "plies/Mstep"
    );
    let mut calibrations = Vec::new();
    for path in games {
        let code = with_engine(path, choice, |engine| {
            let before = calib();
            let (mut count, mut plies, mut secs, mut seed) = (0u64, 0u64, 0.0f64, 1u64);
            let start = engine.start();
            // The wall clock ends the loop: the playouts' own timings could add up to nothing.
            let wall = std::time::Instant::now();
            while wall.elapsed().as_secs_f64() < seconds {
                let s = engine.playouts_with(&start, 10 * threads as u64, seed, 100_000, threads);
                seed += 1;
                count += s.count;
                plies += s.plies;
                secs += s.seconds;
            }
            // The calibration runs just before and just after each game, averaged.
            let base = (before + calib()) / 2.0;
            calibrations.push(base);
            let secs = secs.max(1e-9);
            let pps = plies as f64 / secs;
            out.push_str(&format!(
                "{:<12} {:>10.0} {:>11.1} {:>11.1} {:>12.1}\n",
                engine.game().name,
                pps,
                count as f64 / secs,
                plies as f64 / count.max(1) as f64,
                pps / base * 1e6
            ));
            0
        });
        if code != 0 {
            return code;
        }
    }
    let mean = calibrations.iter().sum::<f64>() / calibrations.len().max(1) as f64;
    out.push_str(&format!(
        "threads: {threads}\ncalibration: {mean:.0} steps/s of a fixed integer loop run beside each game, on one thread.\nplies/Mstep: plies/s per million calibration steps/s, comparable across machines and loads\n(with one thread).\n"
    ));
    print(&out)
}
