//! Variants and parameters: how a variant's sections replace the file's, how parameters
//! are set and used, every ruleset of every shipped game, and `regula info`.

use regula::variants::Choice;
use std::process::Command;

fn regula(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run regula");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variants");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn choice(variant: Option<&str>, set: &[(&str, i64)]) -> Choice {
    Choice {
        variant: variant.map(str::to_string),
        set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    }
}

fn engine(source: &str, c: &Choice) -> regula::engine::Engine {
    match regula::compile_with(source, c) {
        Ok((p, _)) => regula::engine::Engine::new(p),
        Err(d) => panic!("does not compile: {d:#?}"),
    }
}

fn moves(e: &regula::engine::Engine) -> Vec<String> {
    let mut buf = Vec::new();
    assert!(e.status(&e.start(), &mut buf).is_none());
    let mut v: Vec<String> = buf.iter().map(|m| e.notation(m)).collect();
    v.sort();
    v
}

const RACE: &str = r#"
game "Race" { }
param size = 5 in 3..8
param reach = 1 in 1..3
players { white black }
board size x size
piece Runner letter R
setup { white Runner a1  black Runner rank size & file a }
moves Runner { slide east max reach to empty }
end { when no moves: next loses }

variant long "Runners slide two cells, on a board of six" {
  param size = 6 in 3..8
  moves Runner { slide east max (reach + 1) to empty }
}

variant wide {
  region goal = file b
  moves Runner { step east to empty and in goal }
}
"#;

#[test]
fn parameters_are_numbers_wherever_a_number_is_written() {
    let e = engine(RACE, &Choice::default());
    assert_eq!(
        e.game().board,
        regula::geometry::Shape::Square { files: 5, ranks: 5 }
    );
    assert_eq!(moves(&e), ["a1-b1"]);
    let e = engine(RACE, &choice(None, &[("size", 3), ("reach", 3)]));
    assert_eq!(
        e.game().board,
        regula::geometry::Shape::Square { files: 3, ranks: 3 }
    );
    // The black Runner is on the last rank of whatever size was chosen.
    assert_eq!(
        e.render(&e.start()).lines().nth(1).unwrap().trim(),
        "3  r . ."
    );
    assert_eq!(moves(&e), ["a1-b1", "a1-c1"]);
}

#[test]
fn a_variant_replaces_the_sections_it_redeclares_and_adds_the_others() {
    // `long` replaces the parameter's default and the move rules of Runner.
    let e = engine(RACE, &choice(Some("long"), &[]));
    assert_eq!(
        e.game().board,
        regula::geometry::Shape::Square { files: 6, ranks: 6 }
    );
    assert_eq!(moves(&e), ["a1-b1", "a1-c1"]);
    // The command line's values come after the variant's.
    let e = engine(RACE, &choice(Some("long"), &[("size", 4), ("reach", 2)]));
    assert_eq!(
        e.game().board,
        regula::geometry::Shape::Square { files: 4, ranks: 4 }
    );
    assert_eq!(moves(&e), ["a1-b1", "a1-c1", "a1-d1"]);
    // `wide` adds a region and replaces the move rules.
    let e = engine(RACE, &choice(Some("wide"), &[]));
    assert_eq!(moves(&e), ["a1-b1"]);
    assert_eq!(e.game().regions.len(), 1);
}

#[test]
fn choices_the_file_does_not_offer_are_refused() {
    for (c, code) in [
        (choice(Some("short"), &[]), "E0160"),
        (choice(None, &[("sise", 4)]), "E0161"),
        (choice(None, &[("size", 9)]), "E0162"),
        (choice(Some("long"), &[("size", 2)]), "E0162"),
    ] {
        let d = regula::compile_with(RACE, &c).unwrap_err();
        assert!(d.iter().all(regula::variants::is_choice_error), "{d:?}");
        assert_eq!(d[0].code.as_str(), code);
    }
    let d = regula::compile_with(RACE, &choice(None, &[("sise", 4)])).unwrap_err();
    assert_eq!(d[0].hint.as_deref(), Some("did you mean `size`?"));
}

#[test]
fn check_names_the_variant_of_each_diagnostic_once() {
    let bad = RACE.replace("in goal }", "in gaol }");
    let diags = regula::check_all(&bad);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        diags[0].message,
        "unknown region `gaol` (in variant `wide`)"
    );
    // An error of the file itself is reported once, not once per variant.
    let bad = RACE.replace("letter R", "letter R\npiece Runner letter Q");
    let diags = regula::check_all(&bad);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(!diags[0].message.contains("variant"));
}

/// Every game shipped in games/ and docs/examples/, with its text.
fn shipped() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["games", "docs/examples"] {
        let full = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(full).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "game") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((
                    format!("{dir}/{}", path.file_name().unwrap().to_string_lossy()),
                    text,
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_ruleset_of_every_shipped_game_checks_cleanly_and_plays() {
    let mut variants = 0;
    let mut params = 0;
    for (path, text) in shipped() {
        assert_eq!(regula::check_all(&text), [], "{path}");
        let file = regula::syntax::parse(&text).file;
        let mut rulesets = vec![Choice::default()];
        for v in regula::variants::variants(&file) {
            rulesets.push(choice(Some(&v.name), &[]));
            variants += 1;
        }
        // Each parameter at both ends of its range.
        for p in regula::variants::resolve(file, &Choice::default()).params {
            rulesets.push(choice(None, &[(&p.name, p.min)]));
            rulesets.push(choice(None, &[(&p.name, p.max)]));
            params += 1;
        }
        for c in rulesets {
            let (program, warnings) =
                regula::compile_with(&text, &c).unwrap_or_else(|d| panic!("{path} {c:?}: {d:#?}"));
            assert_eq!(warnings, [], "{path} {c:?}");
            let e = regula::engine::Engine::new(program);
            assert!(e.perft(&e.start(), 2) > 0, "{path} {c:?}: no moves");
        }
    }
    assert!(
        variants >= 1 && params >= 1,
        "{variants} variants, {params} parameters"
    );
}

#[test]
fn the_inventors_shakti_has_four_bare_corners() {
    let (code, out, err) = regula(&["show", "games/shakti.game", "--variant", "inventor"]);
    assert_eq!(code, 0, "{err}");
    // The board starts below the game's title, at its file letters.
    let board = |out: &str| -> Vec<String> {
        out.lines()
            .skip_while(|l| !l.starts_with("   a"))
            .map(str::to_string)
            .collect()
    };
    let rows = board(&out);
    assert_eq!(rows[1], "7  # . . . . . #");
    assert_eq!(rows[7], "1  # . . . . . #");
    let (_, out, _) = regula(&["show", "games/shakti.game"]);
    assert_eq!(board(&out)[1], "7  . . . . . . .");
}

#[test]
fn info_describes_every_shipped_game() {
    let mut all = String::new();
    for (path, _) in shipped() {
        let (code, out, err) = regula(&["info", &path]);
        assert_eq!(code, 0, "{path}: {err}");
        all.push_str(&format!("$ regula info {path}\n{out}\n"));
    }
    insta::assert_snapshot!("info_of_every_shipped_game", all);
}

#[test]
fn info_follows_the_choice_and_speaks_json() {
    let (code, out, err) = regula(&[
        "info",
        "docs/examples/connect4.game",
        "--set",
        "columns=9",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["name"], "Connect Four");
    assert_eq!(v["board"]["shape"], "9 x 6");
    assert_eq!(v["board"]["cells"], 54);
    assert_eq!(v["players"], serde_json::json!(["white", "black"]));
    assert_eq!(v["pieces"][0]["letter"], "D");
    assert_eq!(
        v["parameters"],
        serde_json::json!([{"name": "columns", "value": 9, "default": 7, "min": 4, "max": 26}])
    );
    let (code, out, _) = regula(&[
        "info",
        "games/shakti.game",
        "--variant",
        "inventor",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["variant"], "inventor");
    assert_eq!(v["variants"][0]["name"], "inventor");
    assert_eq!(v["sources"].as_array().unwrap().len(), 1);
}

#[test]
fn every_verb_takes_the_choice_and_bad_choices_are_usage_errors() {
    let c4 = "docs/examples/connect4.game";
    let (code, out, _) = regula(&["perft", c4, "2", "--set", "columns=5"]);
    assert_eq!((code, out.as_str()), (0, "25\n"));
    let (code, out, _) = regula(&["moves", c4, "--set", "columns=4"]);
    assert_eq!((code, out.as_str()), (0, "D@a1\nD@b1\nD@c1\nD@d1\n"));
    let (code, out, _) = regula(&["show", c4, "--set", "columns=4"]);
    assert_eq!(code, 0);
    assert!(out.contains("\n\n   a b c d\n6  . . . .\n"), "{out}");
    let (code, out, _) = regula(&["ir", c4, "--set", "columns=4"]);
    assert_eq!(code, 0);
    assert!(out.contains("files: 4"), "{out}");
    let (code, out, _) = regula(&["playout", c4, "--set", "columns=4", "--count", "10"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("playouts: 10\n"));
    // `play` reads its players from options named after them; the choice is not a player.
    let (code, out, err) = regula(&[
        "play",
        c4,
        "--set",
        "columns=4",
        "--white",
        "random",
        "--black",
        "random",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("   a b c d\n") && out.contains("result: "),
        "{out}"
    );
    let (code, out, _) = regula(&["match", c4, "random", "random", "--set", "columns=4"]);
    assert_eq!(code, 0);
    assert!(out.contains("mean plies"), "{out}");
    let (code, _, err) = regula(&["check", c4, "--set", "columns=26"]);
    assert_eq!((code, err.as_str()), (0, "ok: 1 file(s) checked\n"));
    // An error that only a value of the command line causes is the file's (exit 1).
    let too_wide = temp_file(
        "wide.game",
        &std::fs::read_to_string(c4)
            .unwrap()
            .replace("4..26", "4..27"),
    );
    let (code, _, err) = regula(&["check", &too_wide, "--set", "columns=27"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("E0113"), "{err}");
    let (code, _, err) = regula(&["bench", c4, "--set", "columns=5", "--seconds", "0.1"]);
    assert_eq!(code, 0, "{err}");
    for args in [
        &["moves", c4, "--set", "columns=99"][..],
        &["perft", c4, "1", "--set", "rows=5"],
        &["show", c4, "--variant", "tall"],
        &["check", c4, "--variant", "tall"],
        &["info", c4, "--set", "columns"],
        &["ir", c4, "--set", "columns=many"],
        &["playout", c4, "--set", "=4"],
    ] {
        let (code, out, err) = regula(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(out, "");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
    let (_, _, err) = regula(&["show", c4, "--variant", "tall"]);
    assert!(
        err.contains("E0160") && err.contains("declares no variants"),
        "{err}"
    );
}
