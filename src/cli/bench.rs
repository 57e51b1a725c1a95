//! `regula bench`: random-playout speed of games against a calibration loop, and the
//! MCTS agent's iterations per second.

use super::json::{Bench, BenchGame, print_json};
use super::{Format, print};
use crate::choice::ChoiceArgs;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

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
    (seconds, threads, agents): (f64, usize, bool),
    format: Format,
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
    let steps = games.len() as u64 * if agents { 2 } else { 1 };
    let measured = super::progress::watch(
        steps,
        "{bar:30} {pos}/{len} measured, {elapsed}: {msg}",
        |done| format!("interrupted: {done} of {steps} measurements made"),
        |progress| {
            let load = |path: &PathBuf| {
                // A problem of the file is printed with the bar off the screen.
                progress.suspend(|| crate::choice::load(path, &choice.choice()))
            };
            let mut rows: Vec<BenchGame> = Vec::new();
            let mut calibrations = Vec::new();
            for path in games {
                progress.message(format!("playouts of {}", super::shown_path(path)));
                let engine = load(path)?;
                let before = calib();
                let (mut count, mut plies, mut secs, mut seed) = (0u64, 0u64, 0.0f64, 1u64);
                let start = engine.start();
                // The wall clock ends the loop: the playouts' own timings could add up to nothing.
                let wall = std::time::Instant::now();
                while wall.elapsed().as_secs_f64() < seconds {
                    let s =
                        engine.playouts_with(&start, 10 * threads as u64, seed, 100_000, threads);
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
                rows.push(BenchGame {
                    file: super::shown_path(path),
                    name: engine.game().name.clone(),
                    plies_per_second: pps,
                    playouts_per_second: count as f64 / secs,
                    mean_plies: plies as f64 / count.max(1) as f64,
                    plies_per_mstep: pps / base * 1e6,
                    mcts_iterations_per_second: None,
                    mcts_iterations_per_second_per_thread: None,
                });
                progress.done.fetch_add(1, Ordering::Relaxed);
            }
            if agents {
                for (path, row) in games.iter().zip(&mut rows) {
                    progress.message(format!("MCTS on {}", super::shown_path(path)));
                    let engine = load(path)?;
                    let budget = std::time::Duration::from_secs_f64(seconds);
                    let spec = regula::agents::Spec::Mcts(regula::agents::Budget::Time(budget));
                    let mut agent = spec.build(&engine, 1, threads).expect("an agent");
                    let pos = engine.start();
                    let mut legal = Vec::new();
                    let rate = if engine.status(&pos, &mut legal).is_none() {
                        let r = agent.choose(&engine, &pos, &legal).report;
                        r.work as f64 / r.seconds.max(1e-9)
                    } else {
                        0.0
                    };
                    row.mcts_iterations_per_second = Some(rate);
                    row.mcts_iterations_per_second_per_thread = Some(rate / threads as f64);
                    progress.done.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok((rows, calibrations))
        },
    );
    let (rows, calibrations) = match measured {
        Ok(m) => m,
        Err(code) => return code,
    };
    let mean = calibrations.iter().sum::<f64>() / calibrations.len().max(1) as f64;
    if let Format::Json = format {
        return print_json(&Bench {
            threads,
            seconds,
            calibration_steps_per_second: mean,
            games: rows,
        });
    }
    // Columns as wide as the longest game name, so that long names do not shift the rest.
    let w = rows
        .iter()
        .map(|r| r.name.chars().count())
        .chain(["game".len()])
        .max()
        .unwrap_or(4);
    let cell = |name: &str| format!("{name}{}", " ".repeat(w - name.chars().count()));
    let mut out = format!(
        "{} {:>10} {:>11} {:>11} {:>12}\n",
        cell("game"),
        "plies/s",
        "playouts/s",
        "mean plies",
        "plies/Mstep"
    );
    for r in &rows {
        out.push_str(&format!(
            "{} {:>10.0} {:>11.1} {:>11.1} {:>12.1}\n",
            cell(&r.name),
            r.plies_per_second,
            r.playouts_per_second,
            r.mean_plies,
            r.plies_per_mstep
        ));
    }
    out.push_str(&format!(
        "threads: {threads}\ncalibration: {mean:.0} steps/s of a fixed integer loop run beside each game, on one thread.\nplies/Mstep: plies/s per million calibration steps/s, comparable across machines and loads\n(with one thread).\n"
    ));
    if agents {
        out.push_str(&format!(
            "\n{} {:>12} {:>12}\n",
            cell("game"),
            "mcts iter/s",
            "per thread"
        ));
        for r in &rows {
            out.push_str(&format!(
                "{} {:>12.0} {:>12.0}\n",
                cell(&r.name),
                r.mcts_iterations_per_second.unwrap_or(0.0),
                r.mcts_iterations_per_second_per_thread.unwrap_or(0.0)
            ));
        }
        out.push_str("mcts iter/s: MCTS iterations (select, expand, random playout, update) from the start.\n");
    }
    print(&out)
}
