//! Runs every tests file beside the games (`games/*.tests`, `docs/examples/*.tests`)
//! through the library code of `regula test`: their perft counts (the counts from the
//! start come from independent implementations, as each file's comments say) and their
//! scenarios (move lists, legal and illegal moves, results).
//! Counts above a node limit are skipped so that CI stays fast; set REGULA_PERFT_ALL=1
//! to run them all.

use regula::expect::{self, Options, Status};

fn limit() -> u64 {
    if std::env::var_os("REGULA_PERFT_ALL").is_some() {
        u64::MAX
    } else if cfg!(debug_assertions) {
        300_000
    } else {
        25_000_000
    }
}

fn run(path: &str) {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let file = expect::parse(std::path::Path::new(&full), &text).unwrap_or_else(|errors| {
        panic!("{path}: malformed: {errors:#?}");
    });
    let options = Options {
        max_nodes: Some(limit()),
        bless: false,
    };
    let report = expect::run(&file, options);
    let mut failures = String::new();
    for c in &report.checked {
        if let Status::Failed(f) = &c.status {
            failures.push_str(&format!("{path}:{}: {}\n", c.line, c.what));
            for d in &f.diff {
                failures.push_str(&format!("    {d}\n"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures}");
    let perft = |skipped: bool| {
        report
            .checked
            .iter()
            .filter(|c| {
                c.what.starts_with("perft") && matches!(c.status, Status::Skipped) == skipped
            })
            .count()
    };
    assert!(perft(false) > 0, "{path}: no count checked");
    eprintln!(
        "{path}: {} counts checked, {} above the node limit skipped, {} other expectations",
        perft(false),
        perft(true),
        report.checked.len() - perft(false) - perft(true)
    );
}

/// One test per tests file; [`every_tests_file_is_run`] keeps the list complete.
macro_rules! tests_files {
    ($($name:ident: $path:literal,)*) => {
        $(
            #[test]
            fn $name() {
                run($path);
            }
        )*
        const FILES: &[&str] = &[$($path),*];
    };
}

tests_files! {
    tablut: "games/tablut.tests",
    shakti: "games/shakti.tests",
    shaversi: "games/shaversi.tests",
    shakhmaty: "games/shakhmaty.tests",
    amazons: "docs/examples/amazons.tests",
    ataxx: "docs/examples/ataxx.tests",
    connect4: "docs/examples/connect4.tests",
    english_draughts: "docs/examples/english-draughts.tests",
    hex: "docs/examples/hex.tests",
    hnefatafl: "docs/examples/hnefatafl.tests",
    nine_mens_morris: "docs/examples/nine-mens-morris.tests",
    tempo: "docs/examples/tempo.tests",
    three_in_a_row: "docs/examples/three-in-a-row.tests",
    tictactoe: "docs/examples/tictactoe.tests",
    wolf_and_sheep: "docs/examples/wolf-and-sheep.tests",
}

#[test]
fn every_tests_file_is_run() {
    let mut found = Vec::new();
    for dir in ["games", "docs/examples"] {
        let full = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(full).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".tests") {
                found.push(format!("{dir}/{name}"));
            }
        }
    }
    found.sort();
    let mut listed: Vec<String> = FILES.iter().map(|f| f.to_string()).collect();
    listed.sort();
    assert_eq!(
        found, listed,
        "add each tests file to the list in tests/perft.rs"
    );
}
