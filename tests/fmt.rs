//! The formatter: one canonical layout that never changes what a file says. Every shipped
//! and example game is kept formatted; formatting is idempotent and compiles to the same
//! program; comments stay where they were; files with syntax errors are left alone.

use std::process::Command;

fn root(relative: &str) -> String {
    format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root(relative)).unwrap()
}

fn fmt(source: &str) -> String {
    match regula::fmt::format(source) {
        Ok(s) => s,
        Err(e) => panic!("{e:?}"),
    }
}

fn game_files() -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["games", "docs/examples"] {
        for e in std::fs::read_dir(root(dir)).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".game") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    files
}

fn program(source: &str) -> regula::ir::Program {
    regula::compile(source).expect("compiles").0
}

#[test]
fn every_game_is_formatted_idempotent_and_compiles_to_the_same_program() {
    for path in game_files() {
        let source = read(&path);
        let once = fmt(&source);
        assert_eq!(fmt(&once), once, "{path}: formatting twice changes it");
        assert!(
            program(&once) == program(&source),
            "{path}: another program"
        );
        assert!(
            once == source,
            "{path} is not formatted: run `regula fmt {path}`"
        );
    }
}

#[test]
fn games_laid_out_otherwise_format_back_to_the_same_text() {
    // Every game squeezed onto as few lines as its comments allow, and spread with odd
    // spacing, formats to a program equal to the original, and stays stable.
    for path in game_files() {
        let source = read(&path);
        let tokens = regula::syntax::tokens::tokens(&source);
        let mut squeezed = String::new();
        let mut spread = String::new();
        for t in &tokens.tokens {
            let text = t.text(&source);
            squeezed.push_str(text);
            spread.push_str(text);
            let sep = if t.kind == regula::syntax::tokens::TokenKind::LineComment {
                "\n"
            } else {
                " "
            };
            squeezed.push_str(sep);
            spread.push_str(if sep == "\n" { "\n\n\n\t" } else { " \t  \n  " });
        }
        for variant in [&squeezed, &spread] {
            let out = fmt(variant);
            assert!(program(&out) == program(&source), "{path}");
            assert_eq!(fmt(&out), out, "{path}: not idempotent on\n{out}");
            assert!(out.lines().all(|l| l == l.trim_end()), "{path}");
        }
    }
}

#[test]
fn a_messy_file_keeps_every_comment_in_place() {
    let messy = read("tests/fmt/messy.game");
    let want = read("tests/fmt/messy.formatted.game");
    let out = fmt(&messy);
    assert_eq!(out, want);
    assert_eq!(fmt(&out), out);
    assert!(program(&out) == program(&messy));
    // Each comment is still next to the code it was next to.
    for (comment, neighbour) in [
        (
            "// two players",
            "players { white forward north  black forward south }",
        ),
        ("/* a small board */", "board 5 x 5"),
        (
            "// free square ahead",
            "define ahead(c) = c + forward is empty",
        ),
        ("/* only enemies */", "to enemy if to is"),
        ("// stuck", "when no moves: next loses"),
    ] {
        let line = out.lines().find(|l| l.contains(comment)).unwrap();
        assert!(line.contains(neighbour), "{line}");
    }
    assert!(out.starts_with("// A small game"));
    assert!(out.ends_with("}\n\n// the end\n"));
}

#[test]
fn long_lines_break_before_and_or_and_short_blocks_stay_on_one_line() {
    let src = "game \"G\" { }\nplayers { white black }\nboard 9 x 9\npiece King letter K\nsetup { white King e5  black King e1 }\nmoves King { step all }\nend {\n  when last-to is King and (any d in orthogonal: (last-to + d is King and last-to + d * 2 is King)) and turns > 10: draw\n}\n";
    let out = fmt(src);
    assert!(out.contains("moves King { step all }\n"), "{out}");
    assert!(
        out.contains(
            "  when last-to is King\n      and (any d in orthogonal: (last-to + d is King and last-to + d * 2 is King))\n      and turns > 10: draw\n"
        ),
        "{out}"
    );
    assert!(out.lines().all(|l| l.len() <= regula::fmt::WIDTH));
}

#[test]
fn non_ascii_text_in_strings_and_comments_is_kept() {
    let src = "game \"Café ♞\" { source \"ü\" } // ünïcode ♜\nplayers{white black}\n";
    let out = fmt(src);
    assert_eq!(
        out,
        "game \"Café ♞\" { source \"ü\" }  // ünïcode ♜\nplayers { white black }\n"
    );
}

fn regula(args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fmt");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn the_command_checks_rewrites_and_filters() {
    let messy = read("tests/fmt/messy.game");
    let want = read("tests/fmt/messy.formatted.game");
    let a = temp("a.game", &messy);
    let b = temp("b.game", &want);
    let (code, out, _) = regula(&["fmt", "--check", &a, &b], "");
    assert_eq!((code, out), (1, format!("{a}\n")));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), messy, "--check wrote");
    let (code, out, _) = regula(&["fmt", &a, &b], "");
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), want);
    let (code, out, _) = regula(&["fmt", "--check", &a, &b], "");
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = regula(&["fmt", "-"], &messy);
    assert_eq!((code, out), (0, want));
}

#[test]
fn a_file_with_a_syntax_error_is_left_alone() {
    let broken =
        "players { white black }\nboard 3 x 3\npiece King letter\n  moves   King { step all }\n";
    let path = temp("broken.game", broken);
    let (code, out, err) = regula(&["fmt", &path], "");
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(err.contains("error[E0001]"), "{err}");
    assert!(err.contains("left as it is"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
    let (code, out, _) = regula(&["fmt", "-"], broken);
    assert_eq!((code, out.as_str()), (1, ""));
}

#[test]
fn fmt_has_help_with_an_example() {
    let (code, out, _) = regula(&["fmt", "--help"], "");
    assert_eq!(code, 0);
    assert!(
        out.contains("Example:") && out.contains("regula fmt --check"),
        "{out}"
    );
}
