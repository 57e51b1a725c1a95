//! Stage 4: the command line. Exit codes: 0 ok, 1 invalid game file, 2 bad usage or
//! illegal move.

mod bench;
mod matches;
mod play;
mod replay;

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
        /// Start from this position (the notation of `show --position`) instead of the
        /// game's start; `--after` moves are played from it.
        #[arg(long)]
        from: Option<String>,
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
        /// Start from this position (the notation of `show --position`) instead of the
        /// game's start; `--after` moves are played from it.
        #[arg(long)]
        from: Option<String>,

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
        /// Start from this position (the notation of `show --position`) instead of the
        /// game's start; `--after` moves are played from it.
        #[arg(long)]
        from: Option<String>,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Print the board, the player to move (or the result), hands and scores.
    #[command(
        after_help = "Example:\n  regula show games/shakti.game --after \"b2-b4\"\n  regula show games/shakti.game --after \"b2-b4\" --position\n  regula show docs/examples/chess.game --after e2-e4 --svg > board.svg"
    )]
    Show {
        game: PathBuf,
        #[arg(long, default_value = "")]
        after: String,
        /// Start from this position (the notation of `show --position`) instead of the
        /// game's start; `--after` moves are played from it.
        #[arg(long)]
        from: Option<String>,
        #[command(flatten)]
        choice: ChoiceArgs,
        /// Print the position in notation (one line, for --from) instead of the board.
        #[arg(long, conflicts_with = "svg")]
        position: bool,
        /// Print the board as an SVG picture instead.
        #[arg(long)]
        svg: bool,
    },
    /// Play a game at the terminal: humans and agents in any mix.
    #[command(
        after_help = "Each player is `--<player> AGENT` (or `--player NAME=AGENT`); agents are human, random,\nflat:PLAYOUTS, mcts:TIME, mcts:ITERATIONS, alphabeta:DEPTH. Players not given are human.\nAt your turn type a move, `?` for the legal moves, `undo`, `hint`, `resign` or `help`.\n\nExample:\n  regula play docs/examples/tictactoe.game --white human --black mcts:2s\n  regula play games/shakti.game --white mcts:1s --black alphabeta:3"
    )]
    Play {
        game: PathBuf,
        /// Who plays a player: NAME=AGENT (repeatable; `--<name> AGENT` says the same).
        #[arg(long = "player", value_name = "NAME=AGENT")]
        players: Vec<String>,
        /// The agent that answers `hint`.
        #[arg(long, default_value = "mcts:1s")]
        hint: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cores each agent may use (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value = "")]
        after: String,
        /// Start from this position (the notation of `show --position`) instead of the
        /// game's start; `--after` moves are played from it.
        #[arg(long)]
        from: Option<String>,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Play agents against each other: score, 95% interval and Elo difference.
    #[command(
        name = "match",
        after_help = "Sides alternate from game to game. A seed gives the same games (for agents whose\nbudget is not a time), whatever the number of threads.\n\nExample:\n  regula match docs/examples/connect4.game mcts:100ms random --games 100\n  regula match games/shakti.game mcts:2000 flat:500 --games 20 --records shakti.txt --format json"
    )]
    Match {
        game: PathBuf,
        first: String,
        second: String,
        #[arg(long, default_value_t = 10)]
        games: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Cores each agent may use (MCTS searches one tree per core). A seed gives the
        /// same games for the same value, whatever --threads.
        #[arg(long, default_value_t = 1)]
        agent_threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game longer than this many plies stops and counts as a draw.
        #[arg(long, default_value_t = 10_000)]
        max_plies: u64,
        /// Write the games to this file, one per line: the moves, then `result: ...`.
        #[arg(long)]
        records: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Start from this position (the notation of `show --position`) instead of the
        /// game's start; `--after` moves are played from it.
        #[arg(long)]
        from: Option<String>,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Play a game record again, checking every move; print the final position or each one.
    #[command(
        after_help = "A record is a line of moves in notation, optionally followed by `result: ...` (as\n`regula match --records` writes them); a file of several takes --line.\n\nExample:\n  regula replay docs/examples/tictactoe.game game.txt --each\n  regula replay docs/examples/chess.game games.txt --line 3 --html game.html"
    )]
    Replay {
        game: PathBuf,
        /// The record file (`-`: standard input).
        record: PathBuf,
        /// Which line of the file (from 1).
        #[arg(long, default_value_t = 1)]
        line: usize,
        /// Print every position, not only the final one.
        #[arg(long)]
        each: bool,
        /// Write a page that steps through the game (self-contained HTML) to this file.
        #[arg(long)]
        html: Option<PathBuf>,
        /// Start from this position (the notation of `show --position`) instead of the
        /// game's start; `--after` moves are played from it.
        #[arg(long)]
        from: Option<String>,
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
        #[arg(long, default_value_t = 2.0, value_parser = bench::bench_seconds)]
        seconds: f64,
        /// Threads to play on (default: every core); the calibration loop runs on one.
        #[arg(long)]
        threads: Option<usize>,
        /// Also measure the MCTS agent: iterations per second from the start position.
        #[arg(long)]
        agents: bool,
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
    let args = play::rewrite_args(std::env::args_os().collect());
    let cli = match Cli::try_parse_from(args) {
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
            from,
            choice,
        } => with_position(&game, from, &choice, &after, |engine, pos| {
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
            from,
            choice,
        } => with_position(&game, from, &choice, &after, |engine, pos| {
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
            from,
            choice,
        } => with_position(&game, from, &choice, "", |engine, start| {
            let threads = threads.unwrap_or_else(cores).max(1);
            let s = engine.playouts_with(start, count, seed, max_plies, threads);
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
            for p in 0..engine.players() {
                out.push_str(&format!(
                    "{}: {:.1}%\n",
                    engine.player_name(p),
                    pct(s.wins[p as usize])
                ));
            }
            // Games where one player lost and the others shared the result.
            for p in 0..engine.players() {
                if s.losses[p as usize] > 0 {
                    out.push_str(&format!(
                        "{} loses: {:.1}%\n",
                        engine.player_name(p),
                        pct(s.losses[p as usize])
                    ));
                }
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
            from,
            choice,
            position,
            svg,
        } => with_position(&game, from, &choice, &after, |engine, pos| {
            if position {
                print(&format!("{}\n", engine.position_text(pos)))
            } else if svg {
                print(&regula::picture::svg(engine, pos))
            } else {
                // The game's title and description first: which game this board is.
                let g = engine.game();
                let mut out = String::new();
                if !g.name.is_empty() {
                    out.push_str(&g.name);
                    if let Some((_, d)) = g.meta.iter().find(|(k, _)| k == "description") {
                        out.push_str(&format!(" — {d}"));
                    }
                    out.push_str("\n\n");
                }
                out.push_str(&engine.render(pos));
                print(&out)
            }
        }),
        Command::Play {
            game,
            players,
            hint,
            seed,
            threads,
            after,
            from,
            choice,
        } => with_position(&game, from, &choice, &after, |engine, pos| {
            play::start(engine, pos, &players, &hint, seed, threads)
        }),
        Command::Match {
            game,
            first,
            second,
            games,
            threads,
            agent_threads,
            seed,
            max_plies,
            records,
            format,
            from,
            choice,
        } => with_position(&game, from, &choice, "", |engine, start| {
            let settings = (games, threads, agent_threads, seed, max_plies);
            matches::start(engine, start, [&first, &second], settings, records, format)
        }),
        Command::Replay {
            game,
            record,
            line,
            each,
            html,
            from,
            choice,
        } => with_position(&game, from, &choice, "", |engine, start| {
            replay::start(engine, start, &record, line, each, html.as_deref())
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
            agents,
            choice,
        } => bench::run(
            &games,
            &choice,
            seconds,
            threads.unwrap_or_else(cores).max(1),
            agents,
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
    from: Option<String>,
    choice: &ChoiceArgs,
    after: &str,
    f: impl FnOnce(&Engine, &mut Position) -> i32,
) -> i32 {
    with_engine(path, choice, |engine| {
        let mut pos = match from.as_deref().map(|t| (t, engine.parse_position(t))) {
            None => engine.start(),
            Some((_, Ok(p))) => p,
            Some((text, Err(e))) => {
                report("--from", text, &[e.diagnostic()], Format::Human);
                return 2;
            }
        };
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

/// A usage error: the message and a hint, exit code 2.
fn usage(message: &str, hint: &str) -> i32 {
    eprintln!("error: {message}\n  = hint: {hint}");
    2
}

fn agent_hint(e: &regula::agents::SpecError) -> String {
    e.hint.clone()
}
