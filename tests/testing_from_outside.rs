//! `regula::testing` used the way a game author would: a throwaway crate with a path
//! dependency on this one and on insta, whose snapshot test of a game's moves passes, and
//! fails once the snapshot is wrong. Built offline from the registry cache (the crates this
//! repository's own tests use); skipped with a note when insta is not in it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether the local registry cache holds insta, so that an offline build can succeed.
fn insta_cached() -> bool {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(cache) = home.map(|h| h.join("registry/cache")) else {
        return false;
    };
    std::fs::read_dir(cache)
        .into_iter()
        .flatten()
        .flatten()
        .any(|index| {
            std::fs::read_dir(index.path())
                .into_iter()
                .flatten()
                .flatten()
                .any(|f| {
                    let name = f.file_name();
                    let name = name.to_string_lossy();
                    name.starts_with("insta-") && name.ends_with(".crate")
                })
        })
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `cargo test --offline` in the project: (success, output).
fn cargo_test(project: &Path, target: &Path) -> (bool, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["test", "--offline", "--quiet"])
        .current_dir(project)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_TERM_COLOR", "never")
        .env("INSTA_UPDATE", "no")
        .env_remove("INSTA_FORCE_PASS")
        .output()
        .expect("run cargo");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn an_outside_crate_snapshots_moves_with_insta() {
    if !insta_cached() {
        eprintln!(
            "skipped: insta is not in the local registry cache, and this test builds offline \
             (run `cargo fetch` once to enable it)"
        );
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("outside");
    let project = base.join("my-game");
    // Kept between runs, so that only the first one builds the dependencies.
    let target = base.join("target");
    write(
        &project.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"my-game\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nregula = {{ path = {root:?} }}\n\n\
             [dev-dependencies]\ninsta = \"1\"\n\n\
             [profile.dev]\ndebug = 0\n\n[workspace]\n"
        ),
    );
    // The versions this repository builds with, all in the cache.
    std::fs::copy(format!("{root}/Cargo.lock"), project.join("Cargo.lock")).unwrap();
    write(&project.join("src/lib.rs"), "");

    let game = regula::testing::Game::load(format!("{root}/games/tablut.game")).unwrap();
    let moves = game.moves(&game.after("d5-d8 d1-d4").unwrap()).join(" ");
    let test = |snapshot: &str| {
        format!(
            "use regula::testing::Game;\n\n\
             #[test]\n\
             fn moves_after_two_moves() {{\n\
             \x20   let game = Game::load({:?}).unwrap();\n\
             \x20   let pos = game.after(\"d5-d8 d1-d4\").unwrap();\n\
             \x20   insta::assert_snapshot!(game.moves(&pos).join(\" \"), @{snapshot:?});\n\
             }}\n",
            format!("{root}/games/tablut.game")
        )
    };
    write(&project.join("tests/moves.rs"), &test(&moves));
    let (ok, output) = cargo_test(&project, &target);
    if !ok && output.contains("offline") && output.contains("failed to") {
        eprintln!(
            "skipped: an offline build of the outside crate cannot resolve its dependencies:\n{output}"
        );
        return;
    }
    assert!(ok, "the outside crate's snapshot test fails:\n{output}");

    // The same test with a wrong snapshot must fail: the assertion really runs.
    let wrong = moves.replacen("d8-d5", "d8-d6", 1);
    assert_ne!(wrong, moves);
    write(&project.join("tests/moves.rs"), &test(&wrong));
    let (ok, output) = cargo_test(&project, &target);
    assert!(!ok, "a wrong snapshot passed:\n{output}");
    assert!(output.contains("Snapshot"), "{output}");
}
