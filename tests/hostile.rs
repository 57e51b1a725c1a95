//! Hostile input: files and command lines built to exhaust the checker or the engine. Each
//! runs the release binary and must end within its budget (2 s; 512 MB for `check`) with
//! a correct answer or a clear error, never a crash, a hang or a blow-up. The inputs are
//! generated here, as large as the limits allow.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The largest file accepted (see `regula::load::MAX_SOURCE_BYTES`).
const MAX_BYTES: usize = regula::load::MAX_SOURCE_BYTES;
/// Wall time any command may take on any input.
const SECONDS: f64 = 2.0;
/// Peak memory `check` may use on any input.
const CHECK_KB: u64 = 512 * 1024;

/// A small valid game that hostile text is appended to.
const HEAD: &str = "game \"Hostile\" { }\nplayers { white black }\nboard 3 x 3\npiece King letter K\nsetup { white King a1  black King c3 }\nmoves King { step all to empty }\nend { when no moves: next loses }\n";

struct Run {
    code: i32,
    out: String,
    err: String,
    seconds: f64,
    /// Peak resident memory of the process, as last seen in /proc (0 where there is none).
    peak_kb: u64,
}

fn dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn temp_file(name: &str, text: &str) -> String {
    let path = dir().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// `head`, then `unit` (with its number for `{}`) as many times as fit, then `tail`, within
/// the size limit.
fn fill(head: &str, unit: &str, tail: &str) -> String {
    let mut s = String::from(head);
    for i in 0.. {
        let u = unit.replace("{}", &i.to_string());
        if s.len() + u.len() + tail.len() > MAX_BYTES {
            break;
        }
        s.push_str(&u);
    }
    s.push_str(tail);
    s
}

/// CPU seconds (user and system) a running process has used so far: the budget is for the
/// command's own work, which other processes on a loaded machine do not inflate the way
/// they inflate the wall clock. /proc reports them in ticks of 1/100 s on Linux.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs the binary with its output in files (a pipe nobody reads could block it), watching
/// its peak memory until it exits; kills it when the wall clock passes ten times the budget.
fn regula(args: &[&str]) -> Run {
    regula_os(
        &args.iter().map(std::ffi::OsStr::new).collect::<Vec<_>>(),
        Stdio::null(),
    )
}

/// [`regula`] with arguments that need not be UTF-8 and a given standard input.
fn regula_os(args: &[&std::ffi::OsStr], stdin: Stdio) -> Run {
    // One run at a time: the budget is for a command alone, not for several at once.
    static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (out_path, err_path) = (
        dir().join(format!("{n}.out")),
        dir().join(format!("{n}.err")),
    );
    let t0 = Instant::now();
    // REGULA_BIN runs the same attacks on another build (e.g. an older one).
    let bin = std::env::var("REGULA_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_regula").into());
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(stdin)
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("run regula");
    let mut peak = 0;
    let mut cpu = 0.0f64;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        peak = peak.max(peak_kb(child.id()).unwrap_or(0));
        cpu = cpu.max(cpu_seconds(child.id()).unwrap_or(0.0));
        // A hang is stopped by the wall clock, generously: a loaded machine slows
        // everything down.
        if t0.elapsed().as_secs_f64() > 10.0 * SECONDS {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`regula {args:?}` did not finish in time");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Run {
        code: status.code().unwrap_or(-1),
        out: std::fs::read_to_string(&out_path).unwrap_or_default(),
        err: String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned(),
        // The wall clock on a quiet machine; the CPU time when others slow it down (a
        // command with several threads may use more CPU than wall time).
        seconds: t0.elapsed().as_secs_f64().min(cpu.max(0.01)),
        peak_kb: peak,
    }
}

/// Runs `args` and checks the time budget, and for `check` the memory budget.
fn within_budget(args: &[&str]) -> Run {
    let r = regula(args);
    checked(args, r)
}

fn checked(args: &[&str], r: Run) -> Run {
    let what = format!("`regula {}`", args.join(" "));
    assert!(r.code >= 0, "{what} was killed: {}", r.err);
    assert!(
        !r.err.contains("panicked") && !r.err.contains("overflow") && r.code != 101,
        "{what} crashed: {}",
        r.err
    );
    assert!(
        r.seconds <= SECONDS,
        "{what} took {:.2} s (budget {SECONDS} s)",
        r.seconds
    );
    if args[0] == "check" {
        assert!(
            r.peak_kb <= CHECK_KB,
            "{what} used {} KB (budget {CHECK_KB} KB)",
            r.peak_kb
        );
    }
    r
}

#[test]
fn a_chain_of_and_as_long_as_the_file_checks_in_linear_time() {
    let text = fill(&format!("{HEAD}legal if "), "from is empty and ", "true\n");
    let path = temp_file("and_chain.game", &text);
    let r = within_budget(&["check", &path]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = within_budget(&["moves", &path]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("a1-a2"), "{}", r.out);
}

#[test]
fn a_sum_as_long_as_the_file_is_refused_not_a_stack_overflow() {
    let text = fill(&format!("{HEAD}legal if 1"), " + 1", " == 2\n");
    let path = temp_file("long_sum.game", &text);
    for verb in ["check", "moves"] {
        let r = within_budget(&[verb, &path]);
        assert_eq!(r.code, 1, "{}", r.err);
        assert!(r.err.contains("error[E0006]: this chain of"), "{}", r.err);
    }
    let text = fill(&format!("{HEAD}region r = a1"), " | a1", "\n");
    let r = within_budget(&["check", &temp_file("long_region.game", &text)]);
    assert!(r.err.contains("error[E0006]: this chain of"), "{}", r.err);
}

#[test]
fn nesting_without_brackets_is_refused_before_parsing() {
    for (name, unit) in [
        ("as", "as a:"),
        ("not", "not "),
        ("quantifier", "any d in N:"),
        ("as_and", "as a: true and "),
    ] {
        let text = fill(&format!("{HEAD}legal if "), unit, "true\n");
        let path = temp_file(&format!("prefix_{name}.game"), &text);
        let r = within_budget(&["check", &path]);
        assert_eq!(r.code, 1, "{}", r.err);
        assert!(r.err.contains("error[E0006]"), "{}", r.err);
        // Refused before the parser recurses: no more memory than a small file needs.
        assert!(r.peak_kb < 64 * 1024, "{name}: {} KB", r.peak_kb);
    }
    let text = fill(
        &format!("{HEAD}moves King {{ if true {{ }}"),
        " else if true { }",
        " }\n",
    );
    let r = within_budget(&["check", &temp_file("prefix_else_if.game", &text)]);
    assert!(r.err.contains("error[E0006]"), "{}", r.err);
    assert!(r.peak_kb < 64 * 1024, "else if: {} KB", r.peak_kb);
}

/// `define name0 = base`, then each next definition made of the one before.
fn definitions(base: &str, step: &str, levels: usize) -> String {
    let mut s = format!("define level0 = {base}\n");
    for i in 1..=levels {
        let prev = format!("level{}", i - 1);
        s.push_str(&format!(
            "define level{i} = {}\n",
            step.replace("{}", &prev)
        ));
    }
    s
}

#[test]
fn definitions_that_double_at_each_level_are_refused_at_once() {
    // 1 KB of text that would expand to 2^30 copies.
    let text = format!(
        "{HEAD}{}legal if level30\n",
        definitions("from is empty", "{} and {}", 30)
    );
    assert!(text.len() < 2000);
    let path = temp_file("doubling.game", &text);
    for verb in ["check", "moves"] {
        let r = within_budget(&[verb, &path]);
        assert_eq!(r.code, 1, "{}", r.err);
        assert!(
            r.err
                .contains("error[E0154]: `level30` expands to more than 100000 parts"),
            "{}",
            r.err
        );
    }
    // Just below the limit, the game is accepted and plays.
    let text = format!(
        "{HEAD}{}legal if level14\n",
        definitions("from is empty", "{} and {}", 14)
    );
    let r = within_budget(&["moves", &temp_file("doubling_14.game", &text)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out, "a1-a2\na1-b1\na1-b2\n");
}

#[test]
fn the_deepest_programs_accepted_run_on_a_small_stack() {
    // Each definition as deep as the syntax stage allows, nested up to the expansion limit
    // (refused just beyond it): checking, building and playing recurse over the whole
    // depth, and must fit in the 2 MiB a spawned thread has by default.
    let nots = |n: usize| format!("{}{{}}", "not ".repeat(n));
    let sum = |n: usize| format!("{} + {{}}", vec!["1"; n].join(" + "));
    let cases = [
        (
            definitions("from is empty", &nots(320), 2)
                + "legal if "
                + &nots(320).replace("{}", "level2"),
            true,
        ),
        (
            definitions("1", &sum(320), 2)
                + "legal if "
                + &sum(320).replace("{}", "level2")
                + " > 0",
            true,
        ),
        (
            definitions("from is empty", &nots(500), 3) + "legal if level3",
            false,
        ),
    ];
    for (rules, accepted) in cases {
        let text = format!("{HEAD}{rules}\n");
        let run = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || match regula::compile(&text) {
                Ok((program, _)) => {
                    let engine = regula::engine::Engine::new(program);
                    let pos = engine.start();
                    Ok(engine.perft(&pos, 2))
                }
                Err(d) => Err(d
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.code)
                    .collect::<Vec<_>>()),
            })
            .unwrap()
            .join()
            .unwrap();
        if accepted {
            assert!(run.is_ok(), "{run:?}");
        } else {
            assert_eq!(run, Err(vec![regula::diag::Code::E0154]));
        }
    }
}

#[test]
fn thousands_of_diagnostics_are_reported_in_linear_time() {
    let cases = [
        ("unused", fill(HEAD, "define unused{} = true\n", "")),
        ("unknown", fill(HEAD, "define unused{} = unknown{}\n", "")),
        // All on one line: placing and showing each error must not scan the line.
        (
            "setup",
            fill(&format!("{HEAD}setup {{"), " white Queen{} a1", " }\n"),
        ),
    ];
    for (name, text) in cases {
        let path = temp_file(&format!("many_{name}.game"), &text);
        let human = within_budget(&["check", &path]);
        let json = within_budget(&["check", "--format", "json", &path]);
        // One object for the file (with every diagnostic), then the summary.
        let file: serde_json::Value =
            serde_json::from_str(json.out.lines().next().unwrap()).unwrap();
        let all = file["diagnostics"].as_array().unwrap().len();
        assert!(all > 10_000, "{name}");
        // Every diagnostic in JSON; the first hundred for a person, then how many more.
        let shown = human
            .err
            .lines()
            .filter(|l| l.trim_start().starts_with("--> "))
            .count();
        assert_eq!(shown, 100, "{name}");
        let rest = all - 100;
        assert!(
            human
                .err
                .contains(&format!("... and {rest} more diagnostic(s)")),
            "{name}: {}",
            &human.err[human.err.len() - 300..]
        );
    }
}

#[test]
fn counts_in_hand_that_add_up_past_the_limit_are_refused_not_wrapped() {
    let text = "game \"Hand\" { }\nplayers { white black }\nboard 3 x 3\npiece King letter K\nsetup { black King c3 }\nhand { white King 65535  white King 1 }\nmoves King { place on empty  step all to empty }\nend { when no moves: next loses }\n";
    let r = within_budget(&["moves", &temp_file("hand_total.game", text)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err
            .contains("error[E0124]: `white` holds 65536 `King` in hand in all"),
        "{}",
        r.err
    );
    // At the limit, the game plays: every empty cell can take a King.
    let text = text.replace("white King 1 ", "");
    let r = within_budget(&["moves", &temp_file("hand_full.game", &text)]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out.lines().count(), 8, "{}", r.out);
}

#[test]
fn numbers_out_of_range_are_reported_where_they_stand() {
    let huge = "99999999999999999999";
    let r = within_budget(&[
        "moves",
        &temp_file(
            "huge_compare.game",
            &format!("{HEAD}legal if {huge} == 9223372036854775807\n"),
        ),
    ]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("error[E0007]"), "{}", r.err);
    // Every place a number can stand.
    for (place, text) in [
        ("board", format!("board {huge} x 1")),
        ("rank", format!("region r = rank {huge}")),
        ("hand", format!("hand {{ white King {huge} }}")),
        ("counter", format!("counter c = -{huge}")),
        ("max", format!("moves King {{ slide N max {huge} }}")),
        ("leap", format!("moves King {{ leap 1 {huge} }}")),
        ("expression", format!("score = {huge} * 2")),
    ] {
        let source = format!("{HEAD}{text}\n");
        let diags = regula::compile(&source).unwrap_err();
        let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1, "{place}: {errors:?}");
        assert_eq!(errors[0].code, regula::diag::Code::E0007, "{place}");
        let at = errors[0].span.unwrap().start;
        assert!(
            source[at..].trim_start_matches('-').starts_with(huge),
            "{place}"
        );
    }
    // The extremes themselves are numbers.
    let source = format!("{HEAD}legal if -9223372036854775808 < 9223372036854775807\n");
    assert!(regula::compile(&source).is_ok());
}

#[test]
fn devices_pipes_and_endless_input_fail_fast_with_a_clear_error() {
    for device in ["/dev/zero", "/dev/urandom"] {
        if std::path::Path::new(device).exists() {
            let r = within_budget(&["check", device]);
            assert_eq!(r.code, 1, "{}", r.err);
            assert!(
                r.err
                    .contains(&format!("error[E0004]: `{device}` is not a regular file")),
                "{}",
                r.err
            );
        }
    }
    // A named pipe with no writer: opening it would block forever.
    let fifo = dir().join("no_writer.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let fifo = fifo.to_string_lossy().into_owned();
        for verb in ["check", "moves"] {
            let r = within_budget(&[verb, &fifo]);
            assert_eq!(r.code, 1, "{}", r.err);
            assert!(r.err.contains("is not a regular file"), "{}", r.err);
        }
    }
    // Standard input that never ends is read up to the size limit, no further.
    if let Ok(zero) = std::fs::File::open("/dev/zero") {
        let r = checked(
            &["check", "-"],
            regula_os(&["check".as_ref(), "-".as_ref()], Stdio::from(zero)),
        );
        assert_eq!(r.code, 1, "{}", r.err);
        assert!(r.err.contains("error[E0002]"), "{}", r.err);
    }
}

#[test]
fn a_game_file_whose_name_is_not_utf8_can_be_read() {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9-\x1b.game");
    let path = dir().join(name);
    let game = std::fs::read_to_string(format!("{}/games/tablut.game", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    std::fs::write(&path, &game).unwrap();
    let r = regula_os(&["moves".as_ref(), path.as_os_str()], Stdio::null());
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out.lines().count(), 56);
    // In messages the name is shown with its invalid bytes and controls made visible.
    std::fs::write(&path, "players { white black }\n").unwrap();
    let r = regula_os(&["check".as_ref(), path.as_os_str()], Stdio::null());
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains("caf\u{fffd}-\u{241b}.game:1:1"), "{}", r.err);
}

#[test]
fn control_characters_in_a_file_are_shown_visibly_under_an_aligned_caret() {
    let path = temp_file("nul.game", &format!("{HEAD}legal if \0 to is empty\n"));
    let r = within_budget(&["check", &path]);
    assert_eq!(r.code, 1);
    assert!(!r.err.contains('\0'), "{}", r.err);
    assert!(
        r.err
            .contains("legal if \u{2400} to is empty\n  |          ^\n"),
        "{}",
        r.err
    );
}

/// A 16 x 16 game of Kings, with the given rules: on a board full of pieces, or with one
/// King each.
fn kings(full: bool, moves: &str, rules: &str) -> String {
    let cells: Vec<String> = (1..=16)
        .flat_map(|r| (b'a'..=b'p').map(move |f| format!("{}{r}", f as char)))
        .collect();
    let (white, black) = if full {
        let pick = |half: &[String]| -> String {
            let every_other = half
                .iter()
                .enumerate()
                .filter(|(i, _)| (i + i / 16) % 2 == 0);
            every_other
                .map(|(_, c)| c.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        (pick(&cells[..128]), pick(&cells[128..]))
    } else {
        ("h8".to_string(), "a1".to_string())
    };
    format!(
        "game \"Kings\" {{ }}\nplayers {{ white black }}\nboard 16 x 16\npiece King letter K\nsetup {{ white King {white}  black King {black} }}\nmoves King {{ {moves} }}\n{rules}\nend {{ when no moves: next loses }}\n"
    )
}

fn quantifiers(n: usize) -> String {
    (0..n).map(|i| format!("all v{i} in all: ")).collect()
}

#[test]
fn rules_that_would_take_hours_per_position_are_refused_at_once() {
    let bomb = kings(
        false,
        "step all to empty",
        &format!("legal if {}find attacked != from", quantifiers(6)),
    );
    let path = temp_file("bomb.game", &bomb);
    for verb in ["check", "moves"] {
        let r = within_budget(&[verb, &path]);
        assert_eq!(r.code, 1, "{}", r.err);
        assert!(
            r.err
                .contains("error[E0155]: `legal if`, judged for every candidate move,"),
            "{}",
            r.err
        );
    }
}

#[test]
fn the_costliest_games_accepted_list_their_moves_within_the_budget() {
    // The worst cases found for each way of making a position costly, each just below a
    // limit (the size of the file, or the cost of a position).
    let cases = [
        ("legal_chain", {
            let unit = "from is empty and ";
            let n =
                (MAX_BYTES - kings(true, "step all to empty", "legal if true").len()) / unit.len();
            kings(
                true,
                "step all to empty",
                &format!("legal if {}true", unit.repeat(n)),
            )
        }),
        (
            "duplicate_rules",
            kings(false, &"slide all to empty or enemy\n".repeat(260), ""),
        ),
        (
            "quantifiers",
            kings(
                true,
                "step all to empty",
                &format!("legal if {}from is empty", quantifiers(5)),
            ),
        ),
        (
            "effects",
            kings(
                true,
                "step all to empty",
                &format!(
                    "legal if from is empty\nafter move {{ {}if to + v0 is empty {{ remove to + v0 }}{} }}",
                    (0..5)
                        .map(|i| format!("for v{i} in all {{ "))
                        .collect::<String>(),
                    " }".repeat(5)
                ),
            ),
        ),
    ];
    for (name, text) in cases {
        let path = temp_file(&format!("costly_{name}.game"), &text);
        let r = within_budget(&["check", &path]);
        assert_eq!(r.code, 0, "{name} is refused: {}", r.err);
        let moves = within_budget(&["moves", &path]);
        assert_eq!(moves.code, 0, "{name}: {}", moves.err);
        let perft = within_budget(&["perft", &path, "1"]);
        assert_eq!(
            perft.out.trim(),
            moves.out.lines().count().to_string(),
            "{name}"
        );
    }
}

#[test]
fn a_rule_written_for_every_piece_type_is_bounded_once_copied_into_each() {
    let names: Vec<String> = (0..26).map(|i| format!("P{i}")).collect();
    let mut head = String::from("game \"Copies\" { }\nplayers { white black }\nboard 16 x 16\n");
    for (i, n) in names.iter().enumerate() {
        head.push_str(&format!("piece {n} letter {}\n", (b'A' + i as u8) as char));
    }
    head.push_str(&format!(
        "setup {{ white P0 a1  black P1 p16 }}\nend {{ when no moves: next loses }}\nmoves {} {{\n",
        names.join(", ")
    ));
    let text = fill(&head, "step N to empty\n", "}\n");
    let path = temp_file("copies.game", &text);
    for verb in ["check", "moves"] {
        let r = within_budget(&[verb, &path]);
        assert_eq!(r.code, 1, "{}", r.err);
        assert!(
            r.err
                .contains("error[E0155]: the move and attack rules of the piece types have"),
            "{}",
            r.err
        );
        assert!(!r.err.contains("W0201"), "{}", r.err);
    }
}

#[test]
fn a_mistake_in_a_definition_is_reported_once_however_often_it_is_expanded() {
    // Found by the fuzzer: an unknown name in a definition that doubles at each level was
    // reported 33,000 times, once per copy.
    let text = format!(
        "{HEAD}define level0 = unknown-thing\n{}",
        (1..=20)
            .map(|i| format!("define level{i} = level{} and level{}\n", i - 1, i - 1))
            .collect::<String>()
    );
    let diags = regula::compile(&text).unwrap_err();
    let unknown = diags
        .iter()
        .filter(|d| d.code == regula::diag::Code::E0100)
        .count();
    assert_eq!(
        unknown,
        1,
        "{:?}",
        diags.iter().map(|d| d.code).collect::<Vec<_>>()
    );
}

#[test]
fn perft_memory_follows_the_game_not_the_depth_asked() {
    let game = format!(
        "{}/docs/examples/tictactoe.game",
        env!("CARGO_MANIFEST_DIR")
    );
    for depth in ["100000", "4294967295"] {
        let r = regula(&["perft", &game, depth]);
        assert_eq!(r.code, 0, "{}", r.err);
        // Tic-tac-toe ends by ply 9: nothing is left at a deeper ply.
        assert_eq!(r.out.trim(), "0");
        assert!(
            r.seconds <= SECONDS,
            "perft {depth} took {:.2} s",
            r.seconds
        );
        assert!(r.peak_kb < 64 * 1024, "perft {depth} used {} KB", r.peak_kb);
    }
}

#[test]
fn a_long_game_with_a_repetition_rule_keeps_its_memory_small() {
    // Two kings walking about forever: every position recurs, none a fourth time... until
    // the rule draws; with a limit too high to reach, the game is cut at --max-plies.
    let file = temp_file(
        "repeat.game",
        "game \"R\" { }\nplayers { white black }\nboard 8 x 8\npiece K letter K\n\
         setup { white K a1  black K h8 }\nmoves K { step all to empty }\n\
         end { when repetitions >= 1000000000: draw }\n",
    );
    let r = regula(&[
        "playout",
        &file,
        "--count",
        "1",
        "--max-plies",
        "2000000",
        "--threads",
        "1",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("unfinished"), "{}", r.out);
    assert!(
        r.peak_kb < 64 * 1024,
        "2,000,000 plies used {} KB",
        r.peak_kb
    );
}
