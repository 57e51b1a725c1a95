#!/usr/bin/env bash
# Renders a game file highlighted with editors/regula.tmLanguage.json, through shiki (a
# TextMate-grammar highlighter, the engine of VS Code's highlighting), and takes a
# screenshot of the page in headless Chromium: docs/images/highlighting.png.
# Not run by CI. Needs node with npm, and chromium (apt-get install -y chromium).
#
#   editors/screenshot.sh [GAME [PNG]]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
game="$(realpath "${1:-$here/../games/tablut.game}")"
out="$(realpath -m "${2:-$here/../docs/images/highlighting.png}")"
lines="$(wc -l < "$game")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund shiki@4 >/dev/null
cat > render.mjs <<'JS'
import { createHighlighter } from 'shiki';
import fs from 'node:fs';
const [grammarPath, gamePath, htmlPath] = process.argv.slice(2);
const grammar = JSON.parse(fs.readFileSync(grammarPath, 'utf8'));
const theme = 'github-light';
const highlighter = await createHighlighter({ themes: [theme], langs: [{ ...grammar, name: 'regula' }] });
const code = highlighter.codeToHtml(fs.readFileSync(gamePath, 'utf8'), { lang: 'regula', theme });
const style = `body { margin: 0; padding: 12px; background: #f6f8fa; }
pre { margin: 0; padding: 14px 18px; border: 1px solid #d0d7de; border-radius: 6px;
      font: 13px/1.5 'DejaVu Sans Mono', monospace; }`;
fs.writeFileSync(htmlPath, `<!doctype html><meta charset="utf-8"><style>${style}</style>${code}`);
JS
node render.mjs "$here/regula.tmLanguage.json" "$game" page.html
# 13px type at 1.5 line height, plus the margins.
height=$(( lines * 20 + 40 ))
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$work/profile" --screenshot="$out" \
  --window-size=900,"$height" "file://$work/page.html"
echo "wrote $out"
