//! `regula moves`, `playout` and `show`: a position in, text or JSON out.

use super::json::{self, print_json};
use super::{Format, print};
use regula::engine::{Engine, Position};

/// `regula moves`.
pub fn moves(engine: &Engine, pos: &Position, format: Format) -> i32 {
    let mut buf = Vec::new();
    let outcome = engine.status(pos, &mut buf);
    let mut names: Vec<String> = match outcome {
        Some(_) => Vec::new(),
        None => buf.iter().map(|m| engine.notation(m)).collect(),
    };
    names.sort();
    let result = outcome.map(|o| engine.outcome_text(o));
    match format {
        Format::Json => print_json(&json::Moves {
            to_move: outcome
                .is_none()
                .then(|| engine.player_name(pos.to_move()).to_string()),
            moves: names,
            result,
        }),
        Format::Human => match result {
            Some(r) => print(&format!("result: {r}\n")),
            None => print(&names.iter().map(|n| format!("{n}\n")).collect::<String>()),
        },
    }
}

/// `regula playout`.
pub fn playout(
    engine: &Engine,
    start: &Position,
    (count, seed, max_plies, threads): (u64, u64, u64, usize),
    format: Format,
) -> i32 {
    let s = super::progress::watch(
        count,
        "{bar:30} {pos}/{len} playouts, {elapsed} (eta {eta})",
        |done| format!("interrupted: {done} of {count} playouts played"),
        |p| engine.playouts_counted(start, count, seed, max_plies, threads, &p.done),
    );
    if s.runaway > 0 {
        eprintln!(
            "error: in playout {}, one player made {} moves in a row without the turn passing\n  = hint: an `again` effect that always applies keeps the turn forever; make it conditional (the language reference lists this bound in its section Limits)",
            s.count,
            regula::engine::search::MAX_TURN_MOVES
        );
        return 1;
    }
    let share = |n: u64| n as f64 / s.count.max(1) as f64;
    let pct = |n: u64| 100.0 * share(n);
    let mean_plies = s.plies as f64 / s.count.max(1) as f64;
    let playouts_per_second = s.count as f64 / s.seconds.max(1e-9);
    let plies_per_second = s.plies as f64 / s.seconds.max(1e-9);
    if let Format::Json = format {
        return print_json(&json::Playout {
            playouts: s.count,
            seed,
            max_plies,
            players: (0..engine.players())
                .map(|p| json::PlayerOutcome {
                    name: engine.player_name(p).to_string(),
                    wins: s.wins[p as usize],
                    win_share: share(s.wins[p as usize]),
                    losses: s.losses[p as usize],
                    loss_share: share(s.losses[p as usize]),
                })
                .collect(),
            draws: s.draws,
            draw_share: share(s.draws),
            unfinished: s.unfinished,
            unfinished_share: share(s.unfinished),
            plies: s.plies,
            mean_plies,
            seconds: s.seconds,
            playouts_per_second,
            plies_per_second,
        });
    }
    let mut out = format!("playouts: {}\n", s.count);
    for p in 0..engine.players() {
        out.push_str(&format!(
            "{}: {:.1}%\n",
            engine.player_name(p),
            pct(s.wins[p as usize])
        ));
    }
    // Games where one player lost and the others shared the result.
    for p in 0..engine.players() {
        if s.losses[p as usize] > 0 {
            out.push_str(&format!(
                "{} loses: {:.1}%\n",
                engine.player_name(p),
                pct(s.losses[p as usize])
            ));
        }
    }
    out.push_str(&format!("draw: {:.1}%\n", pct(s.draws)));
    if s.unfinished > 0 {
        out.push_str(&format!(
            "unfinished (over {max_plies} plies): {:.1}%\n",
            pct(s.unfinished)
        ));
    }
    out.push_str(&format!("mean plies: {mean_plies:.1}\n"));
    out.push_str(&format!("playouts/s: {playouts_per_second:.0}\n"));
    out.push_str(&format!("plies/s: {plies_per_second:.0}\n"));
    print(&out)
}

/// `regula show` (board or JSON; `--position` and `--svg` are handled by the caller).
pub fn show(engine: &Engine, pos: &Position, format: Format) -> i32 {
    if let Format::Json = format {
        return print_json(&json::shown(engine, pos));
    }
    // The game's title and description first: which game this board is.
    let g = engine.game();
    let mut out = String::new();
    if !g.name.is_empty() {
        out.push_str(&g.name);
        if let Some((_, d)) = g.meta.iter().find(|(k, _)| k == "description") {
            out.push_str(&format!(" — {d}"));
        }
        out.push_str("\n\n");
    }
    out.push_str(&engine.render(pos));
    print(&out)
}
