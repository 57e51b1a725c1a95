//! Random games in every shipped game: the first byte picks the game, each following byte
//! picks a legal move. Every move must replay from its notation to the same state.
#![no_main]

use std::sync::OnceLock;

const GAMES: [&str; 4] = [
    include_str!("../../games/tablut.game"),
    include_str!("../../games/shakti.game"),
    include_str!("../../games/shaversi.game"),
    include_str!("../../games/shakhmaty.game"),
];

fn engines() -> &'static Vec<regula::engine::Engine> {
    static ENGINES: OnceLock<Vec<regula::engine::Engine>> = OnceLock::new();
    ENGINES.get_or_init(|| {
        GAMES
            .iter()
            .map(|s| regula::load_str(s).expect("shipped game"))
            .collect()
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some((&which, moves)) = data.split_first() {
        let engines = engines();
        regula::selfcheck::play_anything(&engines[which as usize % engines.len()], moves);
    }
});
