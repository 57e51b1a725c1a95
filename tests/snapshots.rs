//! Snapshots of `moves` and `show` output at every position with perft counts in the tests
//! files of the shipped games (the file's own ruleset, before any `variant` or `set`),
//! and of a complete seeded Shaversi game. Review changed snapshots with `cargo insta review`.

mod common;
use common::*;
use regula::engine::search::Rng;

fn positions(name: &str) -> Vec<(String, String)> {
    let path = format!("{}/games/{name}.tests", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut label = String::new();
    // A position is kept once a count follows it.
    let mut pending = None;
    for line in text.lines() {
        if let Some(l) = line.strip_prefix("# ") {
            label = l.to_string();
        } else if line == "start" {
            pending = Some((label.clone(), String::new()));
        } else if let Some(m) = line.strip_prefix("after ") {
            pending = Some((label.clone(), m.to_string()));
        } else if line.starts_with(|c: char| c.is_ascii_digit()) {
            out.extend(pending.take());
        } else if line.starts_with("variant ") || line.starts_with("set ") {
            break;
        }
    }
    out
}

fn snapshot_game(name: &str) {
    let g = game(name);
    for (i, (label, line)) in positions(name).iter().enumerate() {
        let pos = after(&g, line);
        let text = format!(
            "{label}\nafter: {line}\n\n{}\nmoves:\n{}\n",
            g.render(&pos),
            moves(&g, &pos).join("\n")
        );
        insta::assert_snapshot!(format!("{name}_{i}"), text);
    }
}

#[test]
fn tablut_positions() {
    snapshot_game("tablut");
}

#[test]
fn shakti_positions() {
    snapshot_game("shakti");
}

#[test]
fn shaversi_positions() {
    snapshot_game("shaversi");
}

#[test]
fn shakhmaty_positions() {
    snapshot_game("shakhmaty");
}

#[test]
fn a_full_seeded_shaversi_game() {
    let g = game("shaversi");
    let mut pos = g.start();
    let mut rng = Rng::new(2024);
    let mut buf = Vec::new();
    let mut line = Vec::new();
    while g.status(&pos, &mut buf).is_none() {
        buf.sort_by_key(|m| g.notation(m));
        let m = buf[rng.below(buf.len())];
        line.push(g.notation(&m));
        g.play(&mut pos, &m);
    }
    assert_eq!(line.len(), 16);
    insta::assert_snapshot!(
        "shaversi_seeded_game",
        format!("{}\n\n{}", line.join(" "), g.render(&pos))
    );
}
