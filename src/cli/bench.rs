//! `regula bench`: random-playout speed of games against a calibration loop, and the
//! MCTS agent's iterations per second.

use super::{print, with_engine};
use crate::choice::ChoiceArgs;
use std::path::PathBuf;

/// Longest `bench --seconds` accepted: the loop runs until that much time is measured.
const MAX_BENCH_SECONDS: f64 = 3600.0;

pub fn bench_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_BENCH_SECONDS => Ok(s),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most {MAX_BENCH_SECONDS}"
        )),
    }
}

/// Runs `regula bench`.
pub fn run(
    games: &[PathBuf],
    choice: &ChoiceArgs,
    seconds: f64,
    threads: usize,
    agents: bool,
) -> i32 {
    // The calibration loop is a fixed amount of integer work: its speed varies with the
    // machine and its load like the engine's, so the ratio is comparable across runs.
    let calib = || {
        let t0 = std::time::Instant::now();
        let mut s = 1u64;
        let mut acc = 0u64;
        for _ in 0..20_000_000 {
            acc = acc.wrapping_add(regula::engine::search::splitmix(&mut s) >> 60);
        }
        std::hint::black_box(acc);
        20_000_000.0 / t0.elapsed().as_secs_f64()
    };
    let mut out = format!(
        "{:<12} {:>10} {:>11} {:>11} {:>12}\n",
        "game", "plies/s", "playouts/s", "mean plies", "plies/Mstep"
    );
    let mut calibrations = Vec::new();
    for path in games {
        let code = with_engine(path, choice, |engine| {
            let before = calib();
            let (mut count, mut plies, mut secs, mut seed) = (0u64, 0u64, 0.0f64, 1u64);
            let start = engine.start();
            // The wall clock ends the loop: the playouts' own timings could add up to nothing.
            let wall = std::time::Instant::now();
            while wall.elapsed().as_secs_f64() < seconds {
                let s = engine.playouts_with(&start, 10 * threads as u64, seed, 100_000, threads);
                seed += 1;
                count += s.count;
                plies += s.plies;
                secs += s.seconds;
            }
            // The calibration runs just before and just after each game, averaged.
            let base = (before + calib()) / 2.0;
            calibrations.push(base);
            let secs = secs.max(1e-9);
            let pps = plies as f64 / secs;
            out.push_str(&format!(
                "{:<12} {:>10.0} {:>11.1} {:>11.1} {:>12.1}\n",
                engine.game().name,
                pps,
                count as f64 / secs,
                plies as f64 / count.max(1) as f64,
                pps / base * 1e6
            ));
            0
        });
        if code != 0 {
            return code;
        }
    }
    let mean = calibrations.iter().sum::<f64>() / calibrations.len().max(1) as f64;
    out.push_str(&format!(
        "threads: {threads}\ncalibration: {mean:.0} steps/s of a fixed integer loop run beside each game, on one thread.\nplies/Mstep: plies/s per million calibration steps/s, comparable across machines and loads\n(with one thread).\n"
    ));
    if agents {
        out.push_str(&format!(
            "\n{:<12} {:>12} {:>12}\n",
            "game", "mcts iter/s", "per thread"
        ));
        for path in games {
            let code = with_engine(path, choice, |engine| {
                let budget = std::time::Duration::from_secs_f64(seconds);
                let spec = regula::agents::Spec::Mcts(regula::agents::Budget::Time(budget));
                let mut agent = spec.build(engine, 1, threads).expect("an agent");
                let pos = engine.start();
                let mut legal = Vec::new();
                let rate = if engine.status(&pos, &mut legal).is_none() {
                    let r = agent.choose(engine, &pos, &legal).report;
                    r.work as f64 / r.seconds.max(1e-9)
                } else {
                    0.0
                };
                out.push_str(&format!(
                    "{:<12} {:>12.0} {:>12.0}\n",
                    engine.game().name,
                    rate,
                    rate / threads as f64
                ));
                0
            });
            if code != 0 {
                return code;
            }
        }
        out.push_str("mcts iter/s: MCTS iterations (select, expand, random playout, update) from the start.\n");
    }
    print(&out)
}
