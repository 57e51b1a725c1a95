#!/usr/bin/env bash
# The pictures of docs/PLAYING.md: positions drawn by `regula show --svg` on every board
# shape, and the page of `regula replay --html`, rendered in headless Chromium. Not run by
# CI (the SVG itself is compared with golden files by tests/pictures.rs); look at the
# PNGs after a change to the drawing. Needs chromium (apt-get install -y chromium).
#
#   scripts/pictures.sh [OUT_DIR]     # default: docs/images
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(realpath -m "${1:-docs/images}")"
mkdir -p "$out"
if [ -z "${REGULA:-}" ]; then
  cargo build --release --quiet
  REGULA=target/release/regula
fi
R=$(realpath "$REGULA")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Screenshot of an SVG file at its own size.
shoot_svg() {
  local svg=$1 png=$2 w h
  w=$(grep -o 'width="[0-9.]*"' "$svg" | head -1 | tr -dc '0-9.')
  h=$(grep -o 'height="[0-9.]*"' "$svg" | head -1 | tr -dc '0-9.')
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size="${w%.*},${h%.*}" --screenshot="$png" "file://$svg" 2>/dev/null
}

# Boards the shipped games do not have, for the shapes alone: Stones placed from the
# hand and Kings that step, on a hexagon with a third player and on a mill board.
stones() {
  cat <<GAME
game "Stones" { }
players { white black $2 }
board $1
piece Stone letter S
piece King letter K
hand { white Stone 9  black Stone 9 ${2:+$2 Stone 9} }
moves Stone { place on empty }
moves King { step all to empty }
end { when no moves: next loses }
GAME
}
stones "hexagon 3" red > "$work/hexagon.game"
stones "points 7 x 7 {
  a1-d1-g1-g4-g7-d7-a7-a4-a1  b2-d2-f2-f4-f6-d6-b6-b4-b2  c3-d3-e3-e4-e5-d5-c5-c4-c3
  d1-d2-d3  g4-f4-e4  d7-d6-d5  a4-b4-c4
}" "" > "$work/mill.game"

$R show docs/examples/chess.game --after "e2-e4 e7-e5 g1-f3" --svg > "$work/square.svg"
$R show games/shakti.game --after "b2-b4 f6-f4" --svg > "$work/holes.svg"
$R show docs/examples/hex.game --after "S@f6 S@e7 S@d8 S@e6 S@g5 S@f4 S@c9" --svg > "$work/hex.svg"
$R show "$work/hexagon.game" --svg \
  --from "S[-]2/1S[red]2/1Ks1S[-]/1K1k/2S[red] white last-from=b3 last-to=b2" > "$work/hexagon.svg"
$R show "$work/mill.game" --from "2s/3/3/6/3/1s1/S2 white hand=white:8S,black:7S" --after "S@d5 S@f4" --svg > "$work/points.svg"
for name in square holes hex hexagon points; do
  shoot_svg "$work/$name.svg" "$out/board-$name.png"
done

# The replay page of a short game, opened after its fourth move.
echo "X@b2 X@a1 X@c3 X@a3 X@a2 X@c1 X@b1" > "$work/game.txt"
$R replay docs/examples/tictactoe.game "$work/game.txt" --html "$work/game.html" > /dev/null
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=560,520 \
  --screenshot="$out/replay-page.png" "file://$work/game.html#4" 2>/dev/null
ls -l "$out"/board-*.png "$out/replay-page.png"
