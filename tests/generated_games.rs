//! Random valid games from the grammar (`regula::selfcheck::random_game`), each checked
//! for the engine's invariants: no panic, perft equal to the sum of divide, the moves
//! listed equal to perft 1, random games replayed from their notation reaching the same
//! states and hashes, finished games without moves.

use regula::selfcheck::{check_engine, random_game};

/// Games per run; each seed is a different game.
const GAMES: u64 = 300;

#[test]
fn generated_games_compile_and_keep_the_engine_invariants() {
    let mut finished = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..GAMES {
        let source = random_game(seed);
        let program = match regula::compile(&source) {
            Ok((program, _)) => program,
            Err(diags) => panic!("game {seed} does not compile: {diags:#?}\n{source}"),
        };
        for word in [
            "place", "slide", "leap", "legal", "after", "score", "pass", "put",
        ] {
            if source.contains(word) {
                kinds.insert(word);
            }
        }
        let engine = regula::engine::Engine::new(program);
        let run = std::panic::catch_unwind(|| check_engine(&engine, seed, 60));
        assert!(run.is_ok(), "game {seed} breaks an invariant:\n{source}");
        let mut pos = engine.start();
        let mut rng = regula::engine::search::Rng::new(seed);
        let (ending, _) = engine.playout(&mut pos, &mut rng, 200);
        if matches!(ending, regula::engine::search::Ending::Over(_)) {
            finished += 1;
        }
    }
    // The generator reaches every kind of rule, and games that end.
    assert_eq!(kinds.len(), 8, "{kinds:?}");
    assert!(finished > GAMES / 2, "{finished} of {GAMES} games ended");
}
