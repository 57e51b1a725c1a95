//! Stage 4: the command line. Exit codes: 0 ok, 1 invalid game file, 2 bad usage or
//! illegal move.

mod bench;
mod json;
mod matches;
mod perft;
mod play;
mod progress;
mod replay;
mod test;
mod verbs;

use crate::choice::ChoiceArgs;
use clap::{Parser, Subcommand, ValueEnum};
use regula::LoadError;
use regula::diag::{self, Diagnostic};
use regula::engine::{Engine, Position};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "regula",
    version,
    about = "Describe board games as text; list, count and play their moves.",
    after_help = "Exit codes: 0 ok, 1 invalid game file, 2 bad usage or illegal move.\n\nA game path of `-` reads the game from standard input. `regula explain CODE` explains\na diagnostic code; `regula COMMAND --help` gives each command's options and examples."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour in diagnostics: `auto` (on a terminal, unless NO_COLOR is set or
    /// CLICOLOR_FORCE asks for it anyway), `always` or `never`.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    color: ColorWhen,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    /// Text for people.
    Human,
    /// One JSON object a line, for scripts.
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Check game files and report every problem found.
    #[command(
        after_help = "Example:\n  regula check games/*.game\n  regula check --format json games/tablut.game"
    )]
    Check {
        /// Game files to check (`-`: standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output: `human` text, or `json` (one object a line, for scripts).
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
        /// The game file (`-`: standard input).
        game: PathBuf,
        /// Output: `human` text, or `json` (one object a line, for scripts).
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// List the legal moves, one per line in byte order, or the result of a finished game.
    #[command(after_help = "Example:\n  regula moves games/tablut.game --after \"e3-h3 e2-e3\"")]
    Moves {
        /// The game file (`-`: standard input).
        game: PathBuf,
        /// Moves to play from the start, separated by spaces.
        #[arg(long, default_value = "")]
        after: String,
        /// Start from this position (the notation of `show --position`) instead of the
        /// game's start; `--after` moves are played from it.
        #[arg(long)]
        from: Option<String>,
        /// Output: `human` text, or `json` (one object a line, for scripts).
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Count the move sequences of a given length (perft).
    #[command(
        after_help = "Example:\n  regula perft games/tablut.game 3\n  regula perft games/tablut.game 2 --divide --after e3-h3"
    )]
    Perft {
        /// The game file (`-`: standard input).
        game: PathBuf,
        /// How many plies deep to count (0 counts the position itself).
        depth: u32,
        /// Moves to play first, in canonical notation, separated by spaces: "e2-e4 e7-e5".
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
        /// Also print the time taken and the speed (nodes per second) on standard error.
        #[arg(long)]
        stats: bool,
        /// Output: `human` text, or `json` (one object a line, for scripts).
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Play uniformly random games and report outcomes and speed.
    #[command(after_help = "Example:\n  regula playout games/tablut.game --count 2000 --seed 1")]
    Playout {
        /// The game file (`-`: standard input).
        game: PathBuf,
        /// How many games to play.
        #[arg(long, default_value_t = 1000)]
        count: u64,
        /// Seed of the random moves: the same seed gives the same games.
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
        /// Output: `human` text, or `json` (one object a line, for scripts).
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Print the board, the player to move (or the result), hands and scores.
    #[command(
        after_help = "Example:\n  regula show games/shakti.game --after \"b2-b4\"\n  regula show games/shakti.game --after \"b2-b4\" --position\n  regula show docs/examples/chess.game --after e2-e4 --svg > board.svg"
    )]
    Show {
        /// The game file (`-`: standard input).
        game: PathBuf,
        /// Moves to play first, in canonical notation, separated by spaces: "e2-e4 e7-e5".
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
        /// Output: `human` text, or `json` (one object a line, for scripts).
        #[arg(long, value_enum, default_value = "human", conflicts_with_all = ["svg", "position"])]
        format: Format,
    },
    /// Play a game at the terminal: humans and agents in any mix.
    #[command(
        after_help = "Each player is `--<player> AGENT` (or `--player NAME=AGENT`); agents are human, random,\nflat:PLAYOUTS, mcts:TIME, mcts:ITERATIONS, alphabeta:DEPTH. Players not given are human.\nAt your turn type a move, `?` for the legal moves, `undo`, `hint`, `resign` or `help`.\n\nExample:\n  regula play docs/examples/tictactoe.game --white human --black mcts:2s\n  regula play games/shakti.game --white mcts:1s --black alphabeta:3"
    )]
    Play {
        /// The game file (`-`: standard input).
        game: PathBuf,
        /// Who plays a player: NAME=AGENT (repeatable; `--<name> AGENT` says the same).
        #[arg(long = "player", value_name = "NAME=AGENT")]
        players: Vec<String>,
        /// The agent that answers `hint`.
        #[arg(long, default_value = "mcts:1s")]
        hint: String,
        /// Seed of the agents' random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cores each agent may use (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Moves to play first, in canonical notation, separated by spaces: "e2-e4 e7-e5".
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
        /// The game file (`-`: standard input).
        game: PathBuf,
        /// The first agent: random, flat:PLAYOUTS, mcts:TIME, mcts:ITERATIONS or alphabeta:DEPTH.
        first: String,
        /// The second agent, written like the first.
        second: String,
        /// How many games to play.
        #[arg(long, default_value_t = 10)]
        games: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Cores each agent may use (MCTS searches one tree per core). A seed gives the
        /// same games for the same value, whatever --threads.
        #[arg(long, default_value_t = 1)]
        agent_threads: usize,
        /// Seed of the agents' random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game longer than this many plies stops and counts as a draw.
        #[arg(long, default_value_t = 10_000)]
        max_plies: u64,
        /// Write the games to this file, one per line: the moves, then `result: ...`.
        #[arg(long)]
        records: Option<PathBuf>,
        /// Output: `human` text, or `json` (one object a line, for scripts).
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
        /// The game file (`-`: standard input).
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
        /// Output: `human` text, or `json` (one object a line, for scripts).
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
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
        /// The game file (`-`: standard input).
        game: PathBuf,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Measure random-playout speed of games against a fixed calibration loop run alongside.
    #[command(after_help = "Example:\n  regula bench games/*.game --seconds 2")]
    Bench {
        /// Game files to measure.
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
        /// Output: `human` text, or `json` (one object a line, for scripts).
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        #[command(flatten)]
        choice: ChoiceArgs,
    },
    /// Explain a diagnostic code, with a wrong and a corrected example; list the codes.
    #[command(after_help = "Example:\n  regula explain E0102\n  regula explain")]
    Explain {
        /// A diagnostic code, such as E0102 (none: list every code).
        code: Option<String>,
    },
    /// Serve the Language Server Protocol on standard input and output, for editors.
    #[command(
        after_help = "Diagnostics as you type, hover, go to definition, references, completion,\noutline, rename and formatting. Editors start it themselves.\n\nExample:\n  regula lsp"
    )]
    Lsp,
    /// Lay game files out in the canonical format, in place (`-`: standard input to output).
    #[command(
        after_help = "A file with a syntax error is left as it is (its errors are printed; exit 1).\n\nExample:\n  regula fmt games/*.game\n  regula fmt --check games/*.game\n  regula fmt - < my.game"
    )]
    Fmt {
        /// Game files to lay out (`-`: standard input, written to standard output).
        #[arg(required = true)]
        files: Vec<String>,
        /// Change nothing: list the files that would change, and exit 1 if there are any.
        #[arg(long)]
        check: bool,
    },
    /// Check the expectations of `.tests` files: perft counts, moves, results, boards.
    #[command(after_help = test::AFTER_HELP)]
    Test(test::TestArgs),
    /// Print a completion script for a shell, to tab-complete verbs and options.
    #[command(
        after_help = "Example:\n  regula completions bash > ~/.local/share/bash-completion/completions/regula\n  regula completions zsh > ~/.zfunc/_regula\n  regula completions fish > ~/.config/fish/completions/regula.fish"
    )]
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
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
    // anstream decides from this, the environment (NO_COLOR, CLICOLOR_FORCE) and whether
    // the stream is a terminal; every coloured write goes through it.
    match cli.color {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    }
    .write_global();
    match cli.command {
        Command::Check { files, .. } if stdin_twice(&files) => stdin_usage(),
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
            format,
            choice,
        } => with_position(&game, from, &choice, &after, |engine, pos| {
            verbs::moves(engine, pos, format)
        }),
        Command::Perft {
            game,
            depth,
            after,
            divide,
            threads,
            stats,
            from,
            format,
            choice,
        } => with_position(&game, from, &choice, &after, |engine, pos| {
            let options = perft::Options {
                depth,
                divide,
                threads: threads.unwrap_or_else(cores).max(1),
                stats,
                format,
            };
            perft::run(engine, pos, &options)
        }),
        Command::Playout {
            game,
            count,
            seed,
            max_plies,
            threads,
            from,
            format,
            choice,
        } => with_position(&game, from, &choice, "", |engine, start| {
            let threads = threads.unwrap_or_else(cores).max(1);
            verbs::playout(engine, start, (count, seed, max_plies, threads), format)
        }),
        Command::Show {
            game,
            after,
            from,
            choice,
            position,
            svg,
            format,
        } => with_position(&game, from, &choice, &after, |engine, pos| {
            if position {
                print(&format!("{}\n", engine.position_text(pos)))
            } else if svg {
                print(&regula::picture::svg(engine, pos))
            } else {
                verbs::show(engine, pos, format)
            }
        }),
        Command::Play { game, .. } if game == Path::new("-") => usage(
            "`play` reads the moves from standard input, so the game cannot come from it",
            "give the game as a file",
        ),
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
        Command::Replay { game, record, .. }
            if game == Path::new("-") && record == Path::new("-") =>
        {
            usage(
                "the game and the record cannot both come from standard input",
                "give one of them as a file",
            )
        }
        Command::Replay {
            game,
            record,
            line,
            each,
            html,
            from,
            format,
            choice,
        } => with_position(&game, from, &choice, "", |engine, start| {
            replay::start(
                engine,
                start,
                &record,
                (line, each, html.as_deref()),
                format,
            )
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
        Command::Bench { games, .. } if stdin_twice(&games) => stdin_usage(),
        Command::Bench {
            games,
            seconds,
            threads,
            agents,
            format,
            choice,
        } => bench::run(
            &games,
            &choice,
            (seconds, threads.unwrap_or_else(cores).max(1), agents),
            format,
        ),
        Command::Fmt { files, check } => regula::fmt::run(&files, check),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "regula", &mut out);
            print(&String::from_utf8_lossy(&out))
        }
        Command::Lsp => regula::lsp::run(),
        Command::Test(args) => test::run(&args),
        Command::Explain { code: None } => print(
            &diag::CATALOGUE
                .iter()
                .map(|e| format!("{}  {}\n", e.code, e.title))
                .collect::<String>(),
        ),
        Command::Explain { code: Some(code) } => match diag::explain(&code) {
            Some(text) => print(&text),
            None => usage(
                &format!("unknown code `{code}`"),
                "`regula explain` without a code lists every code",
            ),
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
    let palette = if colored_stderr() {
        diag::Palette::COLOR
    } else {
        diag::Palette::PLAIN
    };
    for d in diags.iter().take(shown) {
        let text = match format {
            // A blank line after each, as rustc does, so that they read apart.
            Format::Human => diag::render_styled(d, path, &index, &palette) + "\n",
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

/// How a path is named in messages: standard input is `<stdin>`.
pub(crate) fn shown_path(path: &Path) -> String {
    if path == Path::new("-") {
        regula::load::STDIN_NAME.to_string()
    } else {
        path.to_string_lossy().into_owned()
    }
}

/// One file of `check --format json`.
#[derive(serde::Serialize)]
struct CheckedFile<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    file: &'a str,
    errors: usize,
    warnings: usize,
    /// Errors, or warnings under `--deny-warnings`.
    failed: bool,
    diagnostics: Vec<diag::JsonDiagnostic<'a>>,
}

/// The last line of `check --format json`.
#[derive(serde::Serialize)]
struct CheckSummary {
    #[serde(rename = "type")]
    kind: &'static str,
    files: usize,
    with_errors: usize,
    failed: usize,
    warnings: usize,
    ok: bool,
}

/// Whether standard input (`-`) is given more than once: it can be read only once.
fn stdin_twice(paths: &[PathBuf]) -> bool {
    paths
        .iter()
        .filter(|p| p.as_path() == Path::new("-"))
        .count()
        > 1
}

fn stdin_usage() -> i32 {
    usage(
        "standard input (`-`) is given more than once",
        "it can be read only once; give the other games as files",
    )
}

/// Whether diagnostics on standard error get colours: `--color`, then the environment and
/// whether standard error is a terminal, as anstream decides.
fn colored_stderr() -> bool {
    anstream::AutoStream::choice(&std::io::stderr()) != anstream::ColorChoice::Never
}

fn check(files: &[PathBuf], format: Format, deny_warnings: bool, choice: &ChoiceArgs) -> i32 {
    let mut status = 0;
    let (mut with_errors, mut failed_files, mut warnings, mut denied) = (0, 0, 0, 0);
    for path in files {
        let name = shown_path(path);
        let (source, diags, choice_error) = match regula::read_source(path) {
            Ok(source) => {
                let (diags, choice_error) = if choice.is_given() {
                    match regula::compile_with(&source, &choice.choice()) {
                        Ok((_, warnings)) => (warnings, false),
                        Err(diags) if diags.iter().any(regula::variants::is_choice_error) => {
                            let only = diags
                                .into_iter()
                                .filter(regula::variants::is_choice_error)
                                .collect();
                            (only, true)
                        }
                        Err(diags) => (diags, false),
                    }
                } else {
                    (regula::check_all(&source), false)
                };
                (source, diags, choice_error)
            }
            Err(e) => {
                let (diags, text) = e.diagnostics();
                (text.to_string(), diags, false)
            }
        };
        let errors = diags.iter().filter(|d| d.is_error()).count();
        let warns = diags.len() - errors;
        warnings += warns;
        let failed = errors > 0 || (deny_warnings && warns > 0);
        if errors > 0 {
            with_errors += 1;
        } else if failed {
            denied += warns;
        }
        if failed {
            failed_files += 1;
        }
        match format {
            Format::Human => {
                report(&name, &source, &diags, format);
            }
            Format::Json => {
                let index = diag::SourceIndex::new(&source);
                json::print_json(&CheckedFile {
                    kind: "file",
                    file: &name,
                    errors,
                    warnings: warns,
                    failed,
                    diagnostics: diags
                        .iter()
                        .map(|d| diag::to_json_indexed(d, &name, &index))
                        .collect(),
                });
            }
        }
        let code = match (choice_error, failed) {
            (true, _) => 2,
            (false, true) => 1,
            (false, false) => 0,
        };
        status = status.max(code);
    }
    match format {
        Format::Json => {
            json::print_json(&CheckSummary {
                kind: "summary",
                files: files.len(),
                with_errors,
                failed: failed_files,
                warnings,
                ok: status == 0,
            });
        }
        Format::Human => {
            if with_errors == 0 && denied > 0 {
                eprintln!("error: {denied} warning(s) denied by --deny-warnings");
            }
            let warned = match warnings {
                0 => String::new(),
                w => format!(", {w} warning(s)"),
            };
            if status == 0 {
                eprintln!("ok: {} file(s) checked{warned}", files.len());
            } else if files.len() > 1 {
                eprintln!(
                    "{} file(s) checked: {with_errors} with errors, {warnings} warning(s)",
                    files.len()
                );
            }
        }
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
