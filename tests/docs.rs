//! The documentation's examples are real: every code block of docs/LANGUAGE.md parses,
//! and the complete example games check cleanly and play as documented.

mod common;

fn blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, line) in markdown.lines().enumerate() {
        if line.starts_with("```") {
            match current.take() {
                Some(b) => out.push(b),
                None => current = Some((n + 1, String::new())),
            }
        } else if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

#[test]
fn every_code_block_of_the_language_reference_parses() {
    let doc = std::fs::read_to_string(format!("{}/docs/LANGUAGE.md", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    let mut parsed = 0;
    for (line, text) in blocks(&doc) {
        if text.trim_start().starts_with('$') {
            continue; // a shell transcript
        }
        if let Some(d) = regula::syntax::parse(&text).diagnostics.first() {
            panic!(
                "docs/LANGUAGE.md block at line {line} does not parse: {}\n{text}",
                d.message
            );
        }
        parsed += 1;
    }
    assert!(parsed >= 30, "only {parsed} blocks");
}

#[test]
fn every_code_block_of_the_language_reference_is_in_the_canonical_layout() {
    let doc = std::fs::read_to_string(format!("{}/docs/LANGUAGE.md", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    for (line, text) in blocks(&doc) {
        if text.trim_start().starts_with('$') {
            continue;
        }
        let formatted = regula::fmt::format(&text).expect("a block that parses");
        assert!(
            formatted == text,
            "docs/LANGUAGE.md block at line {line} is not as `regula fmt` lays it out:\n{formatted}"
        );
    }
}

#[test]
fn the_tutorial_game_matches_the_reference_text() {
    let doc = std::fs::read_to_string(format!("{}/docs/LANGUAGE.md", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    let file = std::fs::read_to_string(format!(
        "{}/docs/examples/breakthrough.game",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    for (_, text) in blocks(&doc).iter().take(4) {
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.contains("description"))
        {
            assert!(
                file.contains(line.trim()),
                "tutorial line missing from breakthrough.game: {line}"
            );
        }
    }
}

#[test]
fn example_games_check_without_warnings_and_play() {
    for name in [
        "breakthrough",
        "tictactoe",
        "connect4",
        "othello",
        "chess",
        "tempo",
        "hex",
        "amazons",
        "english-draughts",
        "ataxx",
        "wolf-and-sheep",
        "three-in-a-row",
        "hnefatafl",
        "nine-mens-morris",
    ] {
        let path = format!("{}/docs/examples/{name}.game", env!("CARGO_MANIFEST_DIR"));
        let (_, warnings) =
            regula::compile(&std::fs::read_to_string(path).unwrap()).expect("compiles");
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
    }
    let src = std::fs::read_to_string(format!(
        "{}/docs/examples/tictactoe.game",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let g = common::load(&src);
    // The number of tic-tac-toe move sequences of each length, as is well known.
    let counts: Vec<u64> = (1..=9).map(|d| g.perft(&g.start(), d)).collect();
    assert_eq!(
        counts,
        [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    );
    let src = std::fs::read_to_string(format!(
        "{}/docs/examples/breakthrough.game",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let g = common::load(&src);
    assert_eq!(g.perft(&g.start(), 3), 11132);
}

/// A file generated from the code must equal what the code generates now;
/// `REGULA_BLESS=1` rewrites it.
fn generated(relative: &str, want: &str) {
    let path = format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("REGULA_BLESS").is_some() {
        std::fs::write(&path, want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{relative} is stale: run REGULA_BLESS=1 cargo test --release --test docs"
    );
}

#[test]
fn the_keyword_grammar_is_generated_from_the_keyword_table() {
    generated("grammar/keywords.pest", &regula::keywords::grammar());
}

#[test]
fn the_textmate_grammars_are_generated_from_the_keyword_table() {
    let grammar = regula::keywords::textmate_grammar();
    generated("editors/regula.tmLanguage.json", &grammar);
    generated("editors/vscode/syntaxes/regula.tmLanguage.json", &grammar);
}

#[test]
fn the_fuzz_dictionary_is_generated_from_the_keyword_table() {
    generated("fuzz/regula.dict", &regula::keywords::fuzz_dictionary());
}

fn example(name: &str) -> regula::engine::Engine {
    let path = format!("{}/docs/examples/{name}.game", env!("CARGO_MANIFEST_DIR"));
    common::load(&std::fs::read_to_string(path).unwrap())
}

#[test]
fn connect_four_reproduces_the_known_move_counts() {
    let g = example("connect4");
    let counts: Vec<u64> = (1..=7).map(|d| g.perft(&g.start(), d)).collect();
    assert_eq!(counts, [7, 49, 343, 2401, 16807, 117649, 823536]);
}

#[test]
fn othello_reproduces_the_known_move_counts() {
    let g = example("othello");
    let counts: Vec<u64> = (1..=7).map(|d| g.perft(&g.start(), d)).collect();
    assert_eq!(counts, [4, 12, 56, 244, 1396, 8200, 55092]);
}

#[test]
fn orthodox_chess_reproduces_the_known_move_counts() {
    let g = example("chess");
    let counts: Vec<u64> = (1..=4).map(|d| g.perft(&g.start(), d)).collect();
    assert_eq!(counts, [20, 400, 8902, 197281]);
    let deep = !cfg!(debug_assertions);
    if deep {
        assert_eq!(
            g.perft(&g.start(), 5),
            4865609,
            "en passant appears at depth 5"
        );
    }
    let path = format!("{}/docs/examples/chess.game", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).unwrap();
    // "Kiwipete": castling both ways for both sides, en passant, pins, checks, promotions.
    let kiwipete = "setup {
      white King e1  white Rook a1 h1  white Queen f3  white Knight c3 e5  white Bishop d2 e2
      white Pawn a2 b2 c2 f2 g2 h2 d5 e4
      black King e8  black Rook a8 h8  black Queen e7  black Bishop a6 g7  black Knight b6 f6
      black Pawn a7 c7 d7 f7 b4 e6 g6 h3
    }";
    let g = common::load(&common::replace_block(&source, "setup {", kiwipete));
    let depth = if deep { 4 } else { 3 };
    let counts: Vec<u64> = (1..=depth).map(|d| g.perft(&g.start(), d)).collect();
    assert_eq!(counts, [48, 2039, 97862, 4085603][..depth as usize]);
    // "Position 4": promotions for both sides, castling rights for Black only.
    let position4 = "setup {
      white King g1  white Queen d1  white Rook a1 f1  white Bishop a4 b4  white Knight h6 f3
      white Pawn a7 b5 c4 e4 a2 d2 g2 h2
      black King e8  black Queen a3  black Rook a8 h8  black Bishop b6 g6  black Knight f6 a5
      black Pawn b7 c7 d7 f7 g7 h7 b2
    }";
    let src = common::replace_block(&source, "setup {", position4).replace(
        "flag unmoved = a1 e1 h1 a8 e8 h8",
        "flag unmoved = a8 e8 h8",
    );
    let g = common::load(&src);
    let counts: Vec<u64> = (1..=4).map(|d| g.perft(&g.start(), d)).collect();
    assert_eq!(counts, [6, 264, 9467, 422333]);
    let promotions: Vec<String> = common::moves(&g, &g.start())
        .into_iter()
        .filter(|m| m.contains('='))
        .collect();
    assert!(
        promotions.is_empty(),
        "white has no promotion at the root: {promotions:?}"
    );
    let pos = common::after(&g, "c4-c5");
    let m = common::moves(&g, &pos);
    for p in ["b2-a1=Q", "b2-a1=R", "b2-a1=B", "b2-a1=N", "b2-b1=N"] {
        assert!(m.contains(&p.to_string()), "{p} in {m:?}");
    }
}

#[test]
fn the_reference_lists_exactly_the_reserved_keywords() {
    let doc = std::fs::read_to_string(format!("{}/docs/LANGUAGE.md", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    let start = doc
        .find("- **Keywords** (cannot be names): `")
        .expect("the keyword list");
    let list = &doc[start..];
    let list = &list[list.find('`').unwrap() + 1..];
    let list = &list[..list.find('`').unwrap()];
    let listed: Vec<&str> = list.split_whitespace().collect();
    let reserved: Vec<&str> = regula::keywords::KEYWORDS
        .iter()
        .filter(|k| regula::keywords::is_reserved(k.word))
        .map(|k| k.word)
        .collect();
    assert_eq!(listed, reserved);
}
