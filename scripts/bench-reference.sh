#!/usr/bin/env bash
# Speed against hand-written engines of the four shipped games, measured back to back:
#   scripts/bench-reference.sh PATH/TO/reference-engine [SECONDS] [ROUNDS]
# The reference engine is a separate binary (not part of this repository) that answers
# `GAME playouts --seconds S --seed N` and `GAME perft DEPTH` like the one described in
# the closing notes; this script only measures, nothing depends on it. Both run on one
# thread, alternately, ROUNDS times; the table gives medians and their ratio.
set -euo pipefail
ref="${1:?usage: scripts/bench-reference.sh REFERENCE_ENGINE [SECONDS] [ROUNDS]}"
secs="${2:-3}"
rounds="${3:-3}"
cd "$(dirname "$0")/.."
cargo build --release -q
regula=target/release/regula
python3 - "$ref" "$regula" "$secs" "$rounds" <<'PY'
import re, statistics, subprocess, sys, time
# Where the run was, printed under the table (scripts/machine.py).
sys.path.insert(0, "scripts")
from machine import machine  # noqa: E402
ref, regula, secs, rounds = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
# Deep enough that the hand-written engine's perft runs most of a second or more (0.75 s
# for Shakhmaty's, 1.3 s for Shakti's), so that starting the processes is a small part of
# what is timed: at depth 5 Shakti's takes 0.04 s, and its ratio swung from 4.8x to 6.3x.
games = {"tablut": 5, "shakti": 6, "shaversi": 5, "shakhmaty": 6}
def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
rows = []
for g, depth in games.items():
    r_pps, o_pps, r_leaf, o_leaf = [], [], [], []
    for _ in range(rounds):
        out_ref = run([ref, g, "playouts", "--seconds", str(secs), "--seed", "7"])
        r_pps.append(float(re.search(r"plies/s: ([0-9.]+)", out_ref).group(1)))
        out = run([regula, "bench", f"games/{g}.game", "--seconds", str(secs), "--threads", "1"])
        o_pps.append(float(out.splitlines()[1].split()[1]))
        t = time.perf_counter(); n = int(run([ref, g, "perft", str(depth)]).split()[-1]); r_leaf.append((time.perf_counter() - t) / n)
        t = time.perf_counter(); m = int(run([regula, "perft", f"games/{g}.game", str(depth), "--threads", "1"]).split()[-1]); o_leaf.append((time.perf_counter() - t) / m)
        assert n == m, f"{g}: perft({depth}) {n} != {m}"
    rp, op = statistics.median(r_pps), statistics.median(o_pps)
    rl, ol = statistics.median(r_leaf), statistics.median(o_leaf)
    rows.append((g, op, rp, op / rp, ol * 1e9, rl * 1e9, ol / rl))
print(f"{'game':<10} {'regula plies/s':>15} {'reference':>12} {'ratio':>7}   {'ns/leaf':>8} {'reference':>10} {'x':>6}")
for g, op, rp, ratio, ol, rl, x in rows:
    print(f"{g:<10} {op:>15,.0f} {rp:>12,.0f} {ratio:>6.1%}   {ol:>8.1f} {rl:>10.1f} {x:>6.1f}")
print(f"(one thread each, {rounds} alternating rounds of {secs:g} s, medians; perft timed as whole processes)")
print(machine(regula))
PY
