//! Runs every perft data file in tests/perft against the game of the same name (in games/
//! or docs/examples/); `GAME-RULESET.perft` holds the counts of another ruleset of GAME,
//! chosen by `variant NAME` and `set NAME=VALUE` lines before its first position.
//! Counts above a node limit are skipped so that CI stays fast; set REGULA_PERFT_ALL=1
//! to run them all.

mod common;

fn limit() -> u64 {
    if std::env::var_os("REGULA_PERFT_ALL").is_some() {
        u64::MAX
    } else if cfg!(debug_assertions) {
        300_000
    } else {
        25_000_000
    }
}

/// The text of the game a data file is named after, from games/ or else docs/examples/:
/// the longest prefix of the name (cut at a `-`) that is a game, since game names have
/// dashes too (`wolf-and-sheep`, `shakti-inventor`).
fn source(name: &str) -> String {
    let mut candidate = name;
    loop {
        let text = ["games", "docs/examples"].iter().find_map(|dir| {
            let path = format!("{}/{dir}/{candidate}.game", env!("CARGO_MANIFEST_DIR"));
            std::fs::read_to_string(path).ok()
        });
        if let Some(text) = text {
            return text;
        }
        match candidate.rsplit_once('-') {
            Some((shorter, _)) => candidate = shorter,
            None => panic!("no game for {name}.perft in games/ or docs/examples/"),
        }
    }
}

fn run(name: &str) {
    let path = format!("{}/tests/perft/{name}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("perft data file");
    let mut choice = regula::variants::Choice::default();
    for line in text.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("variant ") {
            choice.variant = Some(v.trim().to_string());
        } else if let Some((k, v)) = line.strip_prefix("set ").and_then(|kv| kv.split_once('=')) {
            choice
                .set
                .push((k.trim().to_string(), v.trim().parse().expect("a number")));
        }
    }
    let engine = match regula::compile_with(&source(name), &choice) {
        Ok((program, _)) => regula::engine::Engine::new(program),
        Err(d) => panic!("{path}: the ruleset does not compile: {d:#?}"),
    };
    let mut pos = None;
    let (mut checked, mut skipped) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty()
            || line.starts_with('#')
            || line.starts_with("variant ")
            || line.starts_with("set ")
        {
            continue;
        }
        if line == "start" {
            pos = Some(engine.start());
        } else if let Some(moves) = line.strip_prefix("after ") {
            pos = Some(common::after(&engine, moves));
        } else {
            let mut parts = line.split_whitespace();
            let depth: u32 = parts.next().and_then(|d| d.parse().ok()).expect("depth");
            let want: u64 = parts.next().and_then(|d| d.parse().ok()).expect("count");
            if want > limit() {
                skipped += 1;
                continue;
            }
            let p = pos
                .as_mut()
                .unwrap_or_else(|| panic!("{path}:{}: count before a position", n + 1));
            let got = engine.perft(p, depth);
            assert_eq!(got, want, "{path}:{}: perft({depth})", n + 1);
            checked += 1;
        }
    }
    assert!(checked > 0, "{path}: nothing checked");
    eprintln!("{name}: {checked} counts checked, {skipped} above the node limit skipped");
}

#[test]
fn tablut() {
    run("tablut");
}

#[test]
fn shakti() {
    run("shakti");
}

#[test]
fn shaversi() {
    run("shaversi");
}

#[test]
fn shakhmaty() {
    run("shakhmaty");
}

#[test]
fn tempo() {
    run("tempo");
}

#[test]
fn hex() {
    run("hex");
}

#[test]
fn hex_size3() {
    run("hex-size3");
}

#[test]
fn hex_size4() {
    run("hex-size4");
}

#[test]
fn hex_noswap() {
    run("hex-noswap");
}

#[test]
fn amazons() {
    run("amazons");
}

#[test]
fn english_draughts() {
    run("english-draughts");
}

#[test]
fn ataxx() {
    run("ataxx");
}

#[test]
fn wolf_and_sheep() {
    run("wolf-and-sheep");
}

#[test]
fn three_in_a_row() {
    run("three-in-a-row");
}

#[test]
fn hnefatafl() {
    run("hnefatafl");
}

#[test]
fn nine_mens_morris() {
    run("nine-mens-morris");
}

#[test]
fn shakti_inventor() {
    run("shakti-inventor");
}

#[test]
fn connect4_columns5() {
    run("connect4-columns5");
}

#[test]
fn connect4_columns8() {
    run("connect4-columns8");
}
