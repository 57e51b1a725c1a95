//! What `regula check` shows for broken game files: every file under tests/diagnostics is
//! checked and its rendered diagnostics snapshot-tested. A file named after a code must
//! produce that code; every code of the catalogue is produced by some test.

use regula::diag::{CATALOGUE, Code, Diagnostic, render};

/// What `regula check` reports: the file's diagnostics and those its variants add.
fn diagnose(source: &str) -> Vec<Diagnostic> {
    regula::check_all(source)
}

fn files() -> Vec<(String, String)> {
    let dir = format!("{}/tests/diagnostics", env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn rendered_diagnostics_of_broken_files() {
    let all = files();
    assert!(all.len() >= 25);
    for (name, source) in all {
        let diags = diagnose(&source);
        assert!(!diags.is_empty(), "{name}: no diagnostic");
        let path = format!("tests/diagnostics/{name}.game");
        let text: String = diags
            .iter()
            .map(|d| render(d, &path, &source))
            .collect::<Vec<_>>()
            .join("\n");
        if let Some(code) = name
            .split('_')
            .next()
            .filter(|c| c.len() == 5 && c[1..].chars().all(|x| x.is_ascii_digit()))
        {
            assert!(
                diags.iter().any(|d| d.code.as_str() == code),
                "{name}: expected {code}, got\n{text}"
            );
        }
        insta::assert_snapshot!(name.clone(), text);
    }
}

#[test]
fn every_error_of_a_file_is_reported_in_one_run() {
    let source = files()
        .into_iter()
        .find(|(n, _)| n == "several_errors_in_one_file")
        .unwrap()
        .1;
    let codes: Vec<&str> = diagnose(&source).iter().map(|d| d.code.as_str()).collect();
    for code in ["E0102", "E0103", "E0105", "E0106", "E0101"] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
}

#[test]
fn limits_are_errors_not_crashes() {
    let huge = "// padding\n".repeat(200_000);
    assert_eq!(diagnose(&huge)[0].code, Code::E0002);
    let mut many = String::from("players { white black }\nboard 8 x 8\n");
    for i in 0..40 {
        many.push_str(&format!(
            "piece P{i} letter {}\n",
            (b'A' + (i % 26) as u8) as char
        ));
    }
    assert!(diagnose(&many).iter().any(|d| d.code == Code::E0118));
    // Regions are numbered by a byte, four kept for the built-in ones: the 253rd is refused, not given another's number,
    // and a rule naming it gets no second error.
    let mut regions = String::from("players { white black }\nboard 3 x 3\n");
    for i in 0..300 {
        regions.push_str(&format!(
            "region r-{i} = {}\n",
            if i == 299 { "a2" } else { "b1" }
        ));
    }
    regions.push_str(
        "piece K letter K\nsetup { white K a1  black K c3 }\nmoves K { step all to in r-299 }\n",
    );
    let errors: Vec<(Code, usize)> = diagnose(&regions)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code, regula::diag::line_col(&regions, d.start()).0))
        .collect();
    assert_eq!(errors.len(), 300 - 252, "{errors:?}");
    assert!(errors.iter().all(|&(c, _)| c == Code::E0118));
    assert_eq!(errors[0].1, 2 + 252 + 1);
    let long_line = format!(
        "players {{ white black }}\nboard 8 x 8\ndefine x = {}a1 is empty\n",
        "not ".repeat(50_000)
    );
    assert!(!diagnose(&long_line).is_empty());
    let mut nested_region =
        String::from("players { white black }\nboard 8 x 8\nregion reg0 = a1\n");
    for i in 1..200 {
        nested_region.push_str(&format!("region reg{i} = reg{} | a1\n", i - 1));
    }
    assert!(
        diagnose(&nested_region)
            .iter()
            .all(|d| !d.is_error() || d.code == Code::E0132)
    );
}

#[test]
fn every_code_is_produced_by_some_test() {
    // Produced by the CLI on unreadable files (see tests/cli.rs) or by limits above.
    // E0303: by `regula replay` on a record whose stated result is wrong (tests/play.rs).
    let elsewhere = [
        Code::E0002,
        Code::E0004,
        Code::E0005,
        Code::E0118,
        Code::E0303,
    ];
    let mut produced: Vec<Code> = files()
        .iter()
        .flat_map(|(_, s)| diagnose(s))
        .map(|d| d.code)
        .collect();
    // Moves given on a command line that cannot be played.
    let game = std::fs::read_to_string(format!(
        "{}/docs/examples/tictactoe.game",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let engine = regula::load_str(&game).unwrap();
    for line in [
        &["X@a1", "a1-a2"][..],
        &["X@a1", "X@b1", "X@a2", "X@b2", "X@a3", "X@b3"],
    ] {
        let e = engine.replay(&mut engine.start(), line).unwrap_err();
        produced.push(e.diagnostic().code);
    }
    // A position on a command line that cannot be read.
    let bad = engine.parse_position("3/1Y1/3 white").unwrap_err();
    produced.push(bad.diagnostic().code);
    // A ruleset the file does not offer, as a command line would ask for it.
    for (variant, set) in [
        (Some("nope"), vec![]),
        (None, vec![("columns".to_string(), 99)]),
    ] {
        let choice = regula::variants::Choice {
            variant: variant.map(str::to_string),
            set,
        };
        let connect4 = std::fs::read_to_string(format!(
            "{}/docs/examples/connect4.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let diags = regula::compile_with(&connect4, &choice).unwrap_err();
        assert!(
            diags.iter().all(regula::variants::is_choice_error),
            "{diags:?}"
        );
        produced.extend(diags.iter().map(|d| d.code));
    }
    for entry in CATALOGUE {
        if elsewhere.contains(&entry.code) {
            continue;
        }
        assert!(
            produced.contains(&entry.code),
            "no test produces {}",
            entry.code
        );
    }
}

#[test]
fn errors_md_is_generated_from_the_catalogue() {
    let path = format!("{}/docs/ERRORS.md", env!("CARGO_MANIFEST_DIR"));
    let want = regula::diag::markdown();
    if std::env::var_os("REGULA_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/ERRORS.md is stale: run REGULA_BLESS=1 cargo test --release --test diagnostics"
    );
}

#[test]
fn syntax_errors_in_several_sections_are_all_reported() {
    let source = files()
        .into_iter()
        .find(|(n, _)| n == "E0001_several_syntax_errors")
        .unwrap()
        .1;
    let diags = diagnose(&source);
    let lines: Vec<usize> = diags
        .iter()
        .map(|d| regula::diag::line_col(&source, d.start()).0)
        .collect();
    assert_eq!(
        lines,
        [4, 7, 8],
        "one error per broken section, where it is: {diags:#?}"
    );
}
