//! `regula match`: two agents play a series of games, sides alternating; the result is a
//! score with its 95% interval and the Elo difference it implies.

use super::{Format, agent_hint, print, usage};
use regula::agents::Spec;
use regula::engine::{Engine, Outcome, Position, Rng};
use serde::Serialize;

/// One game of a match.
#[derive(Clone, Debug)]
pub struct Game {
    /// The player the first agent played.
    pub first_plays: u8,
    pub moves: Vec<String>,
    /// `None` when the game was cut at the ply limit.
    pub outcome: Option<Outcome>,
}

/// What a match came to, from the first agent's point of view.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub game: String,
    pub agents: [String; 2],
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games cut at the ply limit (counted as draws in the score).
    pub unfinished: u64,
    /// (wins + draws / 2) / games.
    pub score: f64,
    /// 95% Wilson interval of the score.
    pub score_low: f64,
    pub score_high: f64,
    /// Elo difference of the first agent over the second, and its 95% interval
    /// (infinite when a side scored everything).
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub mean_plies: f64,
    pub seconds: f64,
}

/// The 95% Wilson score interval of a proportion `p` observed over `n` trials.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    // At a score of 0 or 1 the interval reaches that end exactly; rounding would otherwise
    // leave it a hair short, and turn an infinite Elo bound into a finite, huge one.
    let lo = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// The Elo difference that gives an expected score `s`.
pub fn elo(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Plays one game between two agents from `start`.
fn play_one(
    engine: &Engine,
    start: &Position,
    specs: &[Spec; 2],
    first_plays: u8,
    seed: u64,
    threads: usize,
    max_plies: u64,
) -> Game {
    let n = engine.players();
    let mut agents: Vec<_> = (0..n)
        .map(|p| {
            let which = usize::from(p != first_plays);
            specs[which]
                .build(
                    engine,
                    Rng::for_playout(seed, p as u64).below(usize::MAX) as u64,
                    threads,
                )
                .expect("match agents are not human")
        })
        .collect();
    let mut pos = start.clone();
    let mut buf = Vec::new();
    let mut moves = Vec::new();
    loop {
        if let Some(o) = engine.status(&pos, &mut buf) {
            return Game {
                first_plays,
                moves,
                outcome: Some(o),
            };
        }
        if moves.len() as u64 >= max_plies {
            return Game {
                first_plays,
                moves,
                outcome: None,
            };
        }
        let c = agents[pos.to_move() as usize].choose(engine, &pos, &buf);
        moves.push(engine.notation(&c.mv));
        engine.play(&mut pos, &c.mv);
        for a in &mut agents {
            a.observe(engine, &c.mv);
        }
    }
}

pub struct Settings {
    pub games: u64,
    /// Games played at once.
    pub threads: usize,
    /// Cores each agent may use.
    pub agent_threads: usize,
    pub seed: u64,
    pub max_plies: u64,
    /// Called after each game with the number of games finished.
    pub progress: Box<dyn Fn(u64) + Sync>,
}

/// Plays the match: `settings.threads` games at a time, game `i` seeded from (seed, i),
/// so that a seed gives the same games whatever the number of games at once (for agents
/// whose budgets are not times, and the same cores per agent). Returns the games in
/// order and the summary.
pub fn run(
    engine: &Engine,
    start: &Position,
    specs: &[Spec; 2],
    settings: &Settings,
) -> (Vec<Game>, Summary) {
    let t0 = std::time::Instant::now();
    let threads = settings.threads.clamp(1, settings.games.max(1) as usize);
    let per_agent = settings.agent_threads.max(1);
    let n = engine.players();
    let next = std::sync::atomic::AtomicU64::new(0);
    let done = std::sync::atomic::AtomicU64::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= settings.games {
                        break;
                    }
                    let seed = Rng::for_playout(settings.seed, i).below(usize::MAX) as u64;
                    let g = play_one(
                        engine,
                        start,
                        specs,
                        (i % n as u64) as u8,
                        seed,
                        per_agent,
                        settings.max_plies,
                    );
                    results
                        .lock()
                        .expect("no thread panics holding it")
                        .push((i, g));
                    let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    (settings.progress)(d);
                }
            });
        }
    });
    let mut games = results.into_inner().expect("no thread panics holding it");
    games.sort_by_key(|g| g.0);
    let games: Vec<Game> = games.into_iter().map(|g| g.1).collect();
    let summary = summarise(engine, specs, &games, t0.elapsed().as_secs_f64());
    (games, summary)
}

pub fn summarise(engine: &Engine, specs: &[Spec; 2], games: &[Game], seconds: f64) -> Summary {
    let (mut wins, mut draws, mut losses, mut unfinished) = (0, 0, 0, 0);
    for g in games {
        match g.outcome {
            Some(Outcome::Win(p)) if p == g.first_plays => wins += 1,
            Some(Outcome::Win(_)) => losses += 1,
            // The first agent plays one player, the second all the others.
            Some(Outcome::Lose(p)) if p == g.first_plays => losses += 1,
            Some(Outcome::Lose(_)) => wins += 1,
            Some(Outcome::Draw) => draws += 1,
            None => unfinished += 1,
        }
    }
    let total = games.len() as u64;
    let score = (wins as f64 + (draws + unfinished) as f64 / 2.0) / total.max(1) as f64;
    let (lo, hi) = wilson(score, total as f64);
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    Summary {
        game: engine.game().name.clone(),
        agents: [specs[0].to_string(), specs[1].to_string()],
        games: total,
        wins,
        draws,
        losses,
        unfinished,
        score,
        score_low: lo,
        score_high: hi,
        elo: elo(score),
        elo_low: elo(lo),
        elo_high: elo(hi),
        mean_plies: plies as f64 / total.max(1) as f64,
        seconds,
    }
}

/// A game as one line of a record file: its moves, then `result: ` and the result.
pub fn record_line(engine: &Engine, g: &Game) -> String {
    let result = match g.outcome {
        Some(o) => engine.outcome_text(o),
        None => "unfinished".into(),
    };
    let mut line = g.moves.join(" ");
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(&format!("result: {result}"));
    line
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{x:+.0}")
    }
}

/// The summary for a person.
pub fn text(s: &Summary) -> String {
    let pct = |x: f64| 100.0 * x;
    let mut out = format!(
        "{}: {} against {}, {} games\n",
        s.game, s.agents[0], s.agents[1], s.games
    );
    out.push_str(&format!(
        "{} wins, {} draws, {} losses",
        s.wins, s.draws, s.losses
    ));
    if s.unfinished > 0 {
        out.push_str(&format!(" ({} unfinished, counted as draws)", s.unfinished));
    }
    out.push_str(&format!(
        "\nscore: {:.1}% (95% interval {:.1}% to {:.1}%)\n",
        pct(s.score),
        pct(s.score_low),
        pct(s.score_high)
    ));
    out.push_str(&format!(
        "Elo difference: {} (95% interval {} to {})\n",
        signed(s.elo),
        signed(s.elo_low),
        signed(s.elo_high)
    ));
    out.push_str(&format!(
        "mean plies: {:.1}, {:.1} s\n",
        s.mean_plies, s.seconds
    ));
    out
}

/// Runs `regula match` and prints its summary (and writes the records, if asked).
pub fn start(
    engine: &Engine,
    start: &Position,
    agents: [&String; 2],
    (games, threads, agent_threads, seed, max_plies): (u64, usize, usize, u64, u64),
    records: Option<std::path::PathBuf>,
    format: Format,
) -> i32 {
    let mut specs = Vec::new();
    for a in agents {
        match a.parse::<regula::agents::Spec>() {
            Ok(regula::agents::Spec::Human) => {
                return usage(
                    "a match is played by agents, not humans",
                    "play against an agent with `regula play GAME --<player> human`",
                );
            }
            Ok(s) => specs.push(s),
            Err(e) => return usage(&format!("{e}"), &agent_hint(&e)),
        }
    }
    if games == 0 {
        return usage("a match of 0 games", "give --games 1 or more");
    }
    let specs: [regula::agents::Spec; 2] = [specs[0].clone(), specs[1].clone()];
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let b = indicatif::ProgressBar::new(games);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {elapsed} (eta {eta})",
            )
            .expect("a valid template"),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let settings = Settings {
        games,
        threads,
        agent_threads,
        seed,
        max_plies,
        progress: Box::new({
            let bar = bar.clone();
            move |d| bar.set_position(d)
        }),
    };
    let (played, summary) = run(engine, start, &specs, &settings);
    bar.finish_and_clear();
    if let Some(path) = records {
        let text: String = played
            .iter()
            .map(|g| record_line(engine, g) + "\n")
            .collect();
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    match format {
        Format::Human => print(&text(&summary)),
        Format::Json => {
            print(&(serde_json::to_string(&summary).expect("a summary serializes") + "\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_and_elo_match_published_values() {
        let (lo, hi) = wilson(0.5, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(1.0, 10.0);
        assert!((lo - 0.7225).abs() < 1e-3 && hi == 1.0, "{lo} {hi}");
        assert!(elo(wilson(1.0, 4.0).1).is_infinite());
        assert_eq!(wilson(0.0, 4.0).0, 0.0);
        assert!((elo(0.75) - 190.85).abs() < 0.01);
        assert_eq!(elo(0.5), 0.0);
        assert!(elo(1.0).is_infinite() && elo(0.0) < 0.0);
    }
}
