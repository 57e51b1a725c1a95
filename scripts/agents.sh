#!/usr/bin/env bash
# How strong the agents are: MCTS (100 ms a move) against uniformly random play on four
# games, MCTS with ten times the iterations against MCTS on Breakthrough, and MCTS
# iterations per second. Not part of CI: it takes about an hour on one core.
#
#   scripts/agents.sh                    # 100 games per match, one game at a time
#   GAMES=20 THREADS=2 scripts/agents.sh # a quicker look, two games at once
#   REGULA=/path/to/regula scripts/agents.sh   # measure that binary instead of building
#
# One game at a time by default: a budget of 100 ms is wall time, so games played side by
# side on a busy machine would each get less of it.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-100}
THREADS=${THREADS:-1}
if [ -z "${REGULA:-}" ]; then
  cargo build --release --quiet
  REGULA=target/release/regula
fi
R=$REGULA
summary() {
  # One table row from the JSON summary of `regula match`.
  python3 -c '
import json, sys
s = json.load(sys.stdin)
pct = lambda x: "%.1f%%" % (100 * x)
elo = lambda x: "inf" if x is None else "%+.0f" % x
print("| %s | %s vs %s | %d | %d / %d / %d | %s (%s to %s) | %s (%s to %s) |" % (
  s["game"], s["agents"][0], s["agents"][1], s["games"], s["wins"], s["draws"], s["losses"],
  pct(s["score"]), pct(s["score_low"]), pct(s["score_high"]),
  elo(s["elo"]), elo(s["elo_low"]), elo(s["elo_high"])))'
}
echo "| game | match | games | wins / draws / losses | score (95% interval) | Elo (95% interval) |"
echo "|---|---|---|---|---|---|"
for game in docs/examples/breakthrough.game docs/examples/connect4.game docs/examples/othello.game games/shakti.game; do
  $R match "$game" mcts:100ms random --games "$GAMES" --threads "$THREADS" --seed 1 --format json | summary
done
$R match docs/examples/breakthrough.game mcts:5000 mcts:500 --games "$GAMES" --threads "$THREADS" --seed 1 --format json | summary
echo
$R bench --agents --seconds 2 --threads 1 docs/examples/breakthrough.game docs/examples/connect4.game docs/examples/othello.game games/*.game
