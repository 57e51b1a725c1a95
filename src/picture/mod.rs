//! Pictures of positions: a board as SVG (every shape of `geometry`), and a self-contained
//! HTML page that steps through a game.
//!
//! Conventions shared with the text drawing (`Engine::render`): a flag that starts on most
//! cells marks presence (a tile), and a cell without it is a hole; other flags mark
//! something special and are shown where set. Pieces are discs in their owner's colour
//! (players named after a colour get it)
//! with the piece's letter; neutral pieces are grey. The last move's cells are outlined.

mod html;

pub use html::html;

use crate::engine::{Engine, NONE, Position};
use crate::geometry::{Board, Cell, Shape};
use std::fmt::Write;

/// Fill and letter colour of pieces, by the colour's name. Players named after one of
/// these colours (as players of board games often are) get it; the others get the first
/// ones not taken, in turn order.
const COLOURS: &[(&str, (&str, &str))] = &[
    ("white", ("#f7f3e8", "#202020")),
    ("black", ("#262626", "#f7f3e8")),
    ("red", ("#c0392b", "#ffffff")),
    ("blue", ("#2e6fd8", "#ffffff")),
    ("green", ("#2e9e4f", "#ffffff")),
    ("purple", ("#8e44ad", "#ffffff")),
    ("yellow", ("#f1c40f", "#202020")),
    ("orange", ("#e67e22", "#202020")),
];
const NEUTRAL: (&str, &str) = ("#9a9a9a", "#202020");
/// Colours of the markers of special flags, by flag index.
const FLAG_COLOURS: &[&str] = &["#d35400", "#16a085", "#8e44ad", "#2c3e50"];

/// Cell size in pixels (the width of a square, the distance between points).
const UNIT: f64 = 56.0;
const MARGIN: f64 = 34.0;

/// Where cells are drawn: their centres, and the picture's size.
struct Layout {
    centres: Vec<(f64, f64)>,
    width: f64,
    height: f64,
    hex: bool,
}

fn layout(board: &Board) -> Layout {
    let (files, ranks) = board.extent();
    let hex = matches!(
        board.shape(),
        Shape::HexRhombus { .. } | Shape::Hexagon { .. }
    );
    let n = board.cells();
    let mut centres = Vec::with_capacity(n as usize);
    for c in 0..n {
        let (f, r) = board.coords(c);
        let (f, r) = (f as f64, r as f64);
        let top = (ranks - 1) as f64 - r;
        centres.push(if hex {
            // Pointy-top hexagons, rank r + 1 half a cell right of rank r.
            (f + r / 2.0, top * 0.75_f64.sqrt())
        } else {
            (f, top)
        });
    }
    let min_x = centres.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let max_x = centres.iter().map(|c| c.0).fold(0.0, f64::max);
    let max_y = centres.iter().map(|c| c.1).fold(0.0, f64::max);
    // Half a cell around the outer centres (cells, or pieces on the outer points).
    let inset = 0.5;
    for c in &mut centres {
        c.0 = MARGIN + (c.0 - min_x + inset) * UNIT;
        c.1 = MARGIN + (c.1 + inset) * UNIT;
    }
    let _ = files;
    Layout {
        width: 2.0 * MARGIN + (max_x - min_x + 2.0 * inset) * UNIT,
        height: 2.0 * MARGIN + (max_y + 2.0 * inset) * UNIT + 28.0,
        centres,
        hex,
    }
}

fn hexagon_points(x: f64, y: f64) -> String {
    // Circumradius so that neighbours one unit apart share an edge.
    let r = UNIT / 3f64.sqrt();
    (0..6)
        .map(|i| {
            let a = std::f64::consts::PI / 3.0 * i as f64 + std::f64::consts::PI / 6.0;
            format!("{:.1},{:.1}", x + r * a.cos(), y + r * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The position as a standalone SVG document.
pub fn svg(engine: &Engine, pos: &Position) -> String {
    let board = engine.board();
    let g = engine.game();
    let l = layout(board);
    let n = board.cells();
    let presence: Vec<bool> = g
        .flags
        .iter()
        .map(|f| f.initial.len() * 2 > n as usize)
        .collect();
    let hole = |c: Cell| (0..presence.len()).any(|i| presence[i] && !pos.flag(i as u8, c));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans, Arial, sans-serif">"#,
        w = l.width,
        h = l.height
    );
    let _ = writeln!(
        s,
        r##"<title>{}</title><rect width="100%" height="100%" fill="#fbfaf6"/>"##,
        escape(&g.name)
    );
    // Cells, or points and their links.
    let points = matches!(board.shape(), Shape::Points { .. });
    if points {
        for c in 0..n {
            for d in 0..4u8 {
                let t = board.step(c, d);
                if t != NONE {
                    let (a, b) = (l.centres[c as usize], l.centres[t as usize]);
                    let _ = writeln!(
                        s,
                        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#5b4a32" stroke-width="3"/>"##,
                        a.0, a.1, b.0, b.1
                    );
                }
            }
        }
    }
    for c in 0..n {
        let (x, y) = l.centres[c as usize];
        let (f, r) = board.coords(c);
        let name = board.name(c);
        let light = (f + r) % 2 == 1;
        let fill = if hole(c) {
            "#fbfaf6"
        } else if l.hex {
            ["#e9d8b4", "#dcc391", "#cfae70"][((f as i32 - r as i32).rem_euclid(3)) as usize]
        } else if light {
            "#eedbb5"
        } else {
            "#c49a62"
        };
        let stroke = if hole(c) {
            r##" stroke="#8f8574" stroke-dasharray="4 3""##
        } else {
            r##" stroke="#8a7250""##
        };
        if points {
            let _ = writeln!(
                s,
                r##"<circle class="cell" data-cell="{name}" cx="{x:.1}" cy="{y:.1}" r="7" fill="{}"{stroke}/>"##,
                if hole(c) { "#fbfaf6" } else { "#5b4a32" }
            );
        } else if l.hex {
            let _ = writeln!(
                s,
                r#"<polygon class="cell" data-cell="{name}" points="{}" fill="{fill}"{stroke}/>"#,
                hexagon_points(x, y)
            );
        } else {
            let h = UNIT / 2.0;
            let _ = writeln!(
                s,
                r#"<rect class="cell" data-cell="{name}" x="{:.1}" y="{:.1}" width="{UNIT}" height="{UNIT}" fill="{fill}"{stroke}/>"#,
                x - h,
                y - h
            );
        }
        // Special flags: a small marker per flag set on the cell.
        for (i, &is_presence) in presence.iter().enumerate() {
            if !is_presence && pos.flag(i as u8, c) {
                let colour = FLAG_COLOURS[i % FLAG_COLOURS.len()];
                let (mx, my) = (x + UNIT * 0.3 - 7.0 * i as f64, y - UNIT * 0.3);
                let _ = writeln!(
                    s,
                    r#"<rect class="flag" x="{:.1}" y="{:.1}" width="7" height="7" fill="{colour}" transform="rotate(45 {mx:.1} {my:.1})"><title>{}</title></rect>"#,
                    mx - 3.5,
                    my - 3.5,
                    escape(&g.flags[i].name)
                );
            }
        }
    }
    // The last move: its cells outlined.
    let (from, to) = pos.last_move();
    for (c, dash) in [(from, r#" stroke-dasharray="6 4""#), (to, "")] {
        if c != NONE && c < n {
            let (x, y) = l.centres[c as usize];
            let _ = writeln!(
                s,
                r##"<circle class="last" cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#e8b100" stroke-width="4"{dash}/>"##,
                UNIT * 0.47
            );
        }
    }
    // Pieces.
    let colours = player_colours(engine);
    for c in 0..n {
        let Some((owner, piece)) = engine.piece_at(pos, c) else {
            continue;
        };
        let (fill, ink) = colours.get(owner as usize).copied().unwrap_or(NEUTRAL);
        let (x, y) = l.centres[c as usize];
        let who = if owner < engine.players() {
            engine.player_name(owner).to_string()
        } else {
            "neutral".into()
        };
        let p = &g.pieces[piece as usize];
        let _ = writeln!(
            s,
            r##"<g class="piece"><title>{} {} on {}</title><circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{fill}" stroke="#101010" stroke-width="1.5"/><text x="{x:.1}" y="{:.1}" font-size="{:.0}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text></g>"##,
            escape(&who),
            escape(&p.name),
            board.name(c),
            UNIT * 0.36,
            y + UNIT * 0.13,
            UNIT * 0.38,
            p.letter
        );
    }
    // File letters below, rank numbers on the left.
    let (files, ranks) = board.extent();
    for f in 0..files {
        if let Some(&(x, _)) = (0..ranks)
            .filter_map(|r| board.at(f, r))
            .map(|c| &l.centres[c as usize])
            .next()
            && !l.hex
        {
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#5b4a32">{}</text>"##,
                l.height - 28.0 - MARGIN / 2.0 + 5.0,
                (b'a' + f) as char
            );
        }
    }
    for r in 0..ranks {
        if let Some(c) = (0..files).find_map(|f| board.at(f, r)) {
            let (x, y) = l.centres[c as usize];
            let left = x - UNIT / 2.0 - 12.0;
            let _ = writeln!(
                s,
                r##"<text x="{left:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#5b4a32">{}</text>"##,
                y + 5.0,
                r + 1
            );
        }
    }
    if l.hex {
        // Hexagonal files run diagonally, up to the right: each file's letter sits where
        // the file would go on below its lowest cell (down to the left), clear of the rank
        // numbers on the left of each rank.
        for f in 0..files {
            if let Some(c) = (0..ranks).find_map(|r| board.at(f, r)) {
                let (x, y) = l.centres[c as usize];
                let _ = writeln!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#5b4a32">{}</text>"##,
                    x - UNIT * 0.42,
                    y + UNIT * 0.8 + 5.0,
                    (b'a' + f) as char
                );
            }
        }
    }
    let status = match engine.status(pos, &mut Vec::new()) {
        Some(o) => format!("result: {}", engine.outcome_text(o)),
        None => format!("{} to move", engine.player_name(pos.to_move())),
    };
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="15" text-anchor="middle" fill="#202020">{}</text>"##,
        l.width / 2.0,
        l.height - 10.0,
        escape(&status)
    );
    s.push_str("</svg>\n");
    s
}

/// The fill and letter colour of each player's pieces, in turn order (see [`COLOURS`]).
fn player_colours(engine: &Engine) -> Vec<(&'static str, &'static str)> {
    let named = |p: u8| {
        let name = engine.player_name(p).to_ascii_lowercase();
        COLOURS.iter().position(|(c, _)| *c == name)
    };
    let mut taken: Vec<usize> = (0..engine.players()).filter_map(named).collect();
    (0..engine.players())
        .map(|p| {
            let k = named(p).unwrap_or_else(|| {
                // More players than colours cannot happen (at most six players).
                let k = (0..COLOURS.len()).find(|k| !taken.contains(k)).unwrap_or(0);
                taken.push(k);
                k
            });
            COLOURS[k].1
        })
        .collect()
}
