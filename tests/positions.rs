//! The position notation: printing and reading back gives the same position, with the same
//! moves, result, perft counts and repetition history, at every ply of random games of
//! every shipped and example game; bad positions are refused with a located error.

mod common;
use common::*;
use regula::engine::{Engine, Position, Rng};

fn every_game() -> Vec<(String, Engine)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut out = Vec::new();
    for dir in ["games", "docs/examples"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "game"))
            .collect();
        paths.sort();
        for p in paths {
            let source = std::fs::read_to_string(&p).unwrap();
            out.push((p.display().to_string(), load(&source)));
        }
    }
    assert!(out.len() >= 10);
    out
}

/// Asserts that `pos` survives printing and reading back.
fn round_trip(name: &str, e: &Engine, pos: &Position) {
    let text = e.position_text(pos);
    let back = e
        .parse_position(&text)
        .unwrap_or_else(|err| panic!("{name}: `{text}` does not parse: {err:?}"));
    assert!(
        back == *pos,
        "{name}: `{text}` reads back as another position"
    );
    assert_eq!(e.position_text(&back), text, "{name}");
    assert_eq!(moves(e, &back), moves(e, pos), "{name}: `{text}`");
    assert_eq!(back.repetitions(), pos.repetitions(), "{name}: `{text}`");
    assert_eq!(e.perft(&back, 2), e.perft(pos, 2), "{name}: `{text}`");
}

#[test]
fn every_position_of_random_games_reads_back_the_same() {
    for (name, e) in every_game() {
        let mut checked = 0;
        for game in 0..3u64 {
            let mut rng = Rng::new(game + 7);
            let mut pos = e.start();
            let mut buf = Vec::new();
            for ply in 0..400 {
                // Long games are sampled; every early position is checked.
                if ply < 40 || ply % 10 == 0 {
                    round_trip(&name, &e, &pos);
                    checked += 1;
                }
                if e.status(&pos, &mut buf).is_some() {
                    break;
                }
                let m = buf[rng.below(buf.len())];
                e.play(&mut pos, &m);
            }
            round_trip(&name, &e, &pos);
        }
        assert!(checked > 20, "{name}: only {checked} positions");
    }
}

#[test]
fn the_repetition_history_survives_the_notation() {
    // Kings stepping back and forth: the third occurrence draws, also when the first two
    // happened before the position was written down.
    let e = load(
        &std::fs::read_to_string(format!(
            "{}/docs/examples/tempo.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    );
    let pos = after(&e, "a1-a2 d4-d3 a2-a1 d3-d4 a1-a2 d4-d3 a2-a1");
    let text = e.position_text(&pos);
    assert!(text.contains("repetitions="), "{text}");
    let mut back = e.parse_position(&text).unwrap();
    assert_eq!(moves(&e, &back), moves(&e, &pos));
    play(&e, &mut back, "d3-d4");
    assert_eq!(moves(&e, &back), ["result: draw"]);
    // Without the history, the same board is new.
    let board_only = text.split(" repetitions=").next().unwrap();
    let mut fresh = e.parse_position(board_only).unwrap();
    play(&e, &mut fresh, "d3-d4");
    assert_ne!(moves(&e, &fresh), ["result: draw"]);
}

#[test]
fn the_start_positions_read_as_documented() {
    let chess = load(
        &std::fs::read_to_string(format!(
            "{}/docs/examples/chess.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    );
    assert_eq!(
        chess.position_text(&chess.start()),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white"
    );
    // A pawn move can be repeated by nothing, but the rules do not say so: the start
    // position stays in the history repetition compares with.
    let after_e4 = after(&chess, "e2-e4");
    let start_hash = format!("{:016x}", chess.start().hash());
    assert_eq!(
        chess.position_text(&after_e4),
        format!(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR black turns=1 ply=1 moves-made=1,0 last-from=e2 last-to=e4 repetitions={start_hash}"
        )
    );
    let shakti = game("shakti");
    let pos = after(&shakti, "b2-b4 f6-f4");
    assert_eq!(
        shakti.position_text(&pos),
        "7/1w1k3/7/1W3w1/7/3K1W1/7 white tile=all-b3-f5 turns=2 ply=2 moves-made=1,1 last-from=f6 last-to=f4"
    );
}

fn error(e: &Engine, text: &str) -> (String, String, Option<String>) {
    let err = e.parse_position(text).expect_err(text);
    let part = text[err.span.start..err.span.end].to_string();
    (err.message, part, err.hint)
}

#[test]
fn bad_positions_are_refused_at_the_offending_field_with_a_hint() {
    let t = load(
        &std::fs::read_to_string(format!(
            "{}/docs/examples/tictactoe.game",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    );
    let cases: &[(&str, &str, &str)] = &[
        ("", "the position is empty", "rank by rank"),
        ("3/3/3", "the player to move is missing", "white, black"),
        ("3/3 white", "the board has 3 ranks", "every rank"),
        (
            "3/1X/3 white",
            "rank 2 has 3 cells, the position gives 2",
            "a digit",
        ),
        ("3/1X2/3 white", "rank 2 has 3 cells", "count"),
        ("3/1Y1/3 white", "no piece has the letter `Y`", "X (Mark)"),
        (
            "3/1X1/3 whte",
            "unknown player `whte`",
            "did you mean `white`?",
        ),
        (
            "3/3/3 white hand=white:2Q",
            "no piece has the letter `Q`",
            "X (Mark)",
        ),
        (
            "3/3/3 white hand=whit:2X",
            "unknown player `whit`",
            "did you mean `white`",
        ),
        (
            "3/3/3 white pyl=3",
            "unknown field `pyl`",
            "did you mean `ply`?",
        ),
        ("3/3/3 white ply=-1", "`-1` is not a count", "from 0"),
        ("3/3/3 white ply=2 ply=3", "`ply` is given twice", ""),
        (
            "3/3/3 white last-to=d4",
            "`d4` is not a cell of this board",
            "files a..c",
        ),
        (
            "3/3/3 white moves-made=1",
            "one value per player (2)",
            "commas",
        ),
        (
            "3/3/3 white turns",
            "not a `key=value` field",
            "hand, turns",
        ),
        ("3/3/3 white repetitions=ab", "no repetition rule", "leave"),
        ("3/1X[red]1/3 white", "unknown player `red`", "white, black"),
    ];
    for (text, message, hint) in cases {
        let (m, part, h) = error(&t, text);
        assert!(m.contains(message), "{text}: {m}");
        assert!(
            h.clone().unwrap_or_default().contains(hint),
            "{text}: {h:?}"
        );
        if !text.is_empty() && !message.contains("missing") {
            assert!(!part.is_empty(), "{text}: the error points at nothing");
        }
    }
    // The span is the offending part, not the whole text.
    assert_eq!(error(&t, "3/1Y1/3 white").1, "Y");
    assert_eq!(error(&t, "3/3/3 whte").1, "whte");
    assert_eq!(error(&t, "3/3/3 white ply=2 last-to=z9").1, "z9");
}

#[test]
fn owners_beyond_the_second_player_and_neutral_pieces_are_written_in_brackets() {
    // The language declares two players; the engine takes more: add a third to the IR.
    let (mut program, _) = regula::compile(
        "game \"Three\" { }\nplayers { red green }\nboard 3 x 3\npiece Stone letter S\nsetup { red Stone a1  green Stone b1 }\nmoves Stone { step all to empty }\nend { when no moves: next loses }\n",
    )
    .unwrap();
    program.game.players.push(regula::ir::Player {
        name: "blue".into(),
        forward: None,
    });
    program.game.setup.push(regula::ir::Placement {
        player: 2,
        piece: 0,
        cell: 2,
    });
    let e = Engine::new(program);
    let start = e.start();
    assert_eq!(e.position_text(&start), "3/3/SsS[blue] red");
    let pos = e
        .parse_position("S[-]2/S[green]S[red]1/s1S[blue] green")
        .unwrap();
    let cell = |n: &str| e.board().cell(n).unwrap();
    assert_eq!(e.piece_at(&pos, cell("a3")), Some((3, 0)), "neutral");
    assert_eq!(e.piece_at(&pos, cell("a2")), Some((1, 0)));
    assert_eq!(e.piece_at(&pos, cell("b2")), Some((0, 0)));
    assert_eq!(e.piece_at(&pos, cell("a1")), Some((1, 0)));
    assert_eq!(e.piece_at(&pos, cell("c1")), Some((2, 0)));
    assert_eq!(e.position_text(&pos), "S[-]2/sS1/s1S[blue] green");
    round_trip("three players", &e, &pos);
}

#[test]
fn mangled_positions_are_refused_or_read_never_a_panic() {
    // Every position printed along a game, with characters deleted, doubled or replaced
    // by ones the notation uses: each is read or refused with an error inside the text.
    let alphabet: Vec<char> = "/ =,:-[]0123456789aAkKpPxX".chars().collect();
    for (name, e) in every_game() {
        let mut rng = Rng::new(3);
        let mut pos = e.start();
        let mut buf = Vec::new();
        for _ in 0..30 {
            let text = e.position_text(&pos);
            let chars: Vec<char> = text.chars().collect();
            for _ in 0..40 {
                let mut m = chars.clone();
                let i = rng.below(m.len());
                match rng.below(3) {
                    0 => {
                        m.remove(i);
                    }
                    1 => m.insert(i, m[i]),
                    _ => m[i] = alphabet[rng.below(alphabet.len())],
                }
                let s: String = m.into_iter().collect();
                if let Err(err) = e.parse_position(&s) {
                    assert!(err.span.end <= s.len(), "{name}: `{s}`: {err:?}");
                }
            }
            if e.status(&pos, &mut buf).is_some() {
                break;
            }
            let m = buf[rng.below(buf.len())];
            e.play(&mut pos, &m);
        }
    }
}
