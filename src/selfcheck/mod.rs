//! Property checks shared by the fuzz targets (`fuzz/`) and the corpus replay test
//! (`tests/fuzz_corpus.rs`): whatever the input, nothing panics, and the engine agrees
//! with itself.

mod games;

pub use games::{check_engine, random_game};

use crate::engine::Engine;
use crate::engine::Move;

/// Any bytes as a game file: parse, check and, if valid, build the engine and explore a
/// little. Must never panic or hang.
pub fn compile_anything(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let diags = match crate::compile(source) {
        Ok((program, warnings)) => {
            let engine = Engine::new(program);
            let pos = engine.start();
            // Bounded exploration: the moves at the start, then a short random game.
            let _ = engine.perft(&pos, 1);
            let mut rng = crate::engine::search::Rng::new(data.len() as u64);
            let _ = engine.playout(&mut engine.start(), &mut rng, 50);
            warnings
        }
        Err(diags) => {
            assert!(
                diags.iter().any(|d| d.is_error()),
                "a rejected file must have an error"
            );
            diags
        }
    };
    let index = crate::diag::SourceIndex::new(source);
    for d in &diags {
        assert!(
            d.span
                .is_none_or(|s| s.start <= s.end && s.end <= source.len()),
            "span out of the file: {d:?}"
        );
        let _ = crate::diag::render_indexed(d, "fuzz.game", &index);
    }
}

/// Plays the moves chosen by `data` (one byte per ply picks among the legal moves) in
/// `engine`, checking at every step that:
/// - no two legal moves share a notation, and each is accepted back by `replay`;
/// - replaying the notation of the game so far from the start reaches the same state
///   and the same status.
pub fn play_anything(engine: &Engine, data: &[u8]) {
    let mut pos = engine.start();
    let mut line: Vec<String> = Vec::new();
    let mut buf: Vec<Move> = Vec::new();
    for &byte in data.iter().take(300) {
        let status = engine.status(&pos, &mut buf);
        let mut names: Vec<String> = buf.iter().map(|m| engine.notation(m)).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(
            before,
            names.len(),
            "two legal moves with one notation after {line:?}"
        );
        if status.is_some() {
            assert!(buf.is_empty(), "a finished game has no moves");
            break;
        }
        let m = buf[byte as usize % buf.len()];
        let name = engine.notation(&m);
        let mut again = pos.clone();
        engine
            .replay(&mut again, &[name.as_str()])
            .unwrap_or_else(|e| panic!("generated move rejected: {e}"));
        engine.play(&mut pos, &m);
        assert_eq!(again, pos, "replaying `{name}` gave another state");
        line.push(name);
    }
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    let mut replayed = engine.start();
    engine
        .replay(&mut replayed, &refs)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed, pos, "replay of {line:?} differs");
    assert_eq!(replayed.repetitions(), pos.repetitions());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    assert_eq!(
        engine.status(&replayed, &mut a),
        engine.status(&pos, &mut b)
    );
    assert_eq!(a, b);
}

/// Any bytes as a game file open in an editor: the tokens cover the text in order, on
/// character boundaries; a text that formats formats to a fixed point that compiles as the
/// input does (to the same program, or not at all); the language server answers at every
/// token (at most the first 200).
pub fn edit_anything(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let tokens = crate::syntax::tokens::tokens(source);
    let mut at = 0;
    for t in &tokens.tokens {
        let s = t.span;
        assert!(
            at <= s.start && s.start < s.end && s.end <= source.len(),
            "token {s:?} out of order"
        );
        assert!(source.is_char_boundary(s.start) && source.is_char_boundary(s.end));
        at = s.end;
    }
    if let Ok(out) = crate::fmt::format(source) {
        let again = crate::fmt::format(&out);
        assert!(
            again.as_ref().is_ok_and(|a| *a == out),
            "formatting is not idempotent: {again:?}"
        );
        match (crate::compile(source), crate::compile(&out)) {
            (Ok((a, _)), Ok((b, _))) => assert!(a == b, "formatting changed the program"),
            (Err(_), Err(_)) => {}
            _ => panic!("formatting changed whether the file compiles"),
        }
    }
    let doc = crate::lsp::document::Document::new(source.to_string(), 0);
    let lines = crate::lsp::lines::Lines::new(source);
    let uri: lsp_types::Uri = "file:///fuzz.game".parse().expect("a URI");
    let _ = doc.diagnostics(&uri);
    let _ = doc.symbols();
    let _ = doc.formatting();
    for t in tokens.tokens.iter().take(200) {
        let p = lines.position(source, t.span.start + (t.span.end - t.span.start) / 2);
        let _ = doc.hover(p);
        let _ = doc.definition(&uri, p);
        let _ = doc.references(&uri, p, true);
        let _ = doc.completion(p);
        let _ = doc.prepare_rename(p);
        let _ = doc.rename(&uri, p, "renamed");
    }
}
