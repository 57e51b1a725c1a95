//! A game as one self-contained HTML page: every position drawn as SVG, shown one at a
//! time, with buttons and arrow keys to step through the moves. No external resources.

use super::{escape, svg};
use crate::engine::{Engine, Position};
use std::fmt::Write;

/// The page for a game: `positions[0]` is the start, `positions[i]` follows `moves[i-1]`.
pub fn html(engine: &Engine, positions: &[Position], moves: &[&str]) -> String {
    let title = escape(&engine.game().name);
    let mut frames = String::new();
    for (i, p) in positions.iter().enumerate() {
        let _ = writeln!(
            frames,
            r#"<div class="frame" id="f{i}"{}>{}</div>"#,
            if i == 0 { "" } else { " hidden" },
            svg(engine, p)
        );
    }
    let mut list = String::new();
    for (i, m) in moves.iter().enumerate() {
        let _ = write!(
            list,
            r#"<button class="mv" data-i="{}">{}. {}</button> "#,
            i + 1,
            i + 1,
            escape(m)
        );
    }
    format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; background: #f2efe6; color: #202020; margin: 1.5em; }}
.controls button {{ font-size: 1.1em; margin-right: .3em; }}
#moves {{ max-width: 52em; margin-top: 1em; line-height: 2; }}
.mv {{ border: 1px solid #bbb; background: #fff; border-radius: 3px; }}
.mv.current {{ background: #e8b100; }}
</style></head>
<body>
<h1>{title}</h1>
<div class="controls">
<button id="first" title="start (Home)">|&#x25C0;</button><button id="prev" title="back (&#x2190;)">&#x25C0;</button><button id="next" title="forward (&#x2192;)">&#x25B6;</button><button id="last" title="end (End)">&#x25B6;|</button>
<span id="where"></span>
</div>
{frames}
<div id="moves">{list}</div>
<script>
const count = {count};
let at = 0;
function show(i) {{
  at = Math.max(0, Math.min(count - 1, i));
  document.querySelectorAll('.frame').forEach((f, k) => f.hidden = k !== at);
  document.querySelectorAll('.mv').forEach(b => b.classList.toggle('current', +b.dataset.i === at));
  document.getElementById('where').textContent = at === 0 ? 'start' : 'after move ' + at + ' of ' + (count - 1);
  history.replaceState(null, '', '#' + at);
}}
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(at - 1);
document.getElementById('next').onclick = () => show(at + 1);
document.getElementById('last').onclick = () => show(count - 1);
document.querySelectorAll('.mv').forEach(b => b.onclick = () => show(+b.dataset.i));
document.addEventListener('keydown', e => {{
  if (e.key === 'ArrowLeft') show(at - 1);
  else if (e.key === 'ArrowRight') show(at + 1);
  else if (e.key === 'Home') show(0);
  else if (e.key === 'End') show(count - 1);
}});
// A link to `page.html#12` opens the position after move 12.
show(parseInt(location.hash.slice(1), 10) || 0);
</script>
</body></html>
"#,
        count = positions.len()
    )
}
