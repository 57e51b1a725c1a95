#!/usr/bin/env bash
# Random playouts per second of the example games, against Ludii's published figures and,
# optionally, another build of Regula, measured back to back:
#   scripts/bench-examples.sh [SECONDS] [ROUNDS] [BASE]
# BASE is a regula binary, or a git revision (such as `main`) built here first into
# target/bench-base/ (its own target directory, so this build is untouched). Every game
# runs on one thread (`regula playout --threads 1`), this build and the base alternately,
# ROUNDS times, each run as many playouts as take about SECONDS; the table gives medians.
# Speeds are playouts per second of the process's CPU time, like Ludii's figures, so that
# other work on the machine disturbs them less (it still does, through shared caches).
#
# Ludii's figures: Ludii 1.3.13, its own playouts with default options, one thread, CPU
# time, measured on the machine kind the project's benchmarks run on (2 cores, x86-64).
# They swing about ±20% from run to run, so a ratio needs a margin.
set -euo pipefail
secs="${1:-2}"
rounds="${2:-3}"
base="${3:-}"
cd "$(dirname "$0")/.."
cargo build --release -q
if [[ -n "$base" && ! -x "$base" ]]; then
    rev="$(git rev-parse --verify "$base^{commit}")"
    dir="target/bench-base/$rev"
    if [[ ! -x "$dir/target/release/regula" ]]; then
        rm -rf "$dir/src" && mkdir -p "$dir/src"
        git archive "$rev" | tar -x -C "$dir/src"
        cargo build --release -q --manifest-path "$dir/src/Cargo.toml" --target-dir "$dir/target"
    fi
    base="$dir/target/release/regula"
fi
python3 - target/release/regula "$secs" "$rounds" "$base" <<'PY'
import resource, statistics, subprocess, sys
# Where the run was, printed under the table (scripts/machine.py).
sys.path.insert(0, "scripts")
from machine import machine  # noqa: E402
regula, secs, rounds, base = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
# Example game file -> Ludii's playouts/s (None: no published figure).
ludii = {
    "hex": 7395, "amazons": 1551, "english-draughts": 2537, "wolf-and-sheep": 9526,
    "ataxx": None, "three-in-a-row": None, "tictactoe": 139580, "connect4": 26681,
    "othello": 770, "breakthrough": 1773, "chess": 66, "tempo": None,
    "hnefatafl": 115, "nine-mens-morris": None,
}
def cpu_run(binary, game, count):
    """Playouts per second of CPU time for `count` playouts from the start."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [binary, "playout", f"docs/examples/{game}.game", "--count", str(count), "--threads", "1"],
        capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return count / max(cpu, 1e-6)
def cpu_seconds(binary, game, count):
    return count / cpu_run(binary, game, count)
def playouts_per_second(binary, game):
    # Short runs, growing until loading the game is a small part of them, size the
    # measured one to about `secs` seconds (a fast game's 20 playouts take less CPU
    # time than starting the process).
    count = 20
    while (spent := cpu_seconds(binary, game, count)) < min(0.2, secs / 4):
        count *= 4
    return cpu_run(binary, game, max(count, int(count / spent * secs)))
new = {g: [] for g in ludii}
old = {g: [] for g in ludii}
for _ in range(rounds):
    for g in ludii:
        new[g].append(playouts_per_second(regula, g))
        if base:
            old[g].append(playouts_per_second(base, g))
head = f"{'game':<17} {'Ludii':>8} {'playouts/s':>11} {'x Ludii':>8}"
if base:
    head += f" {'base':>11} {'x Ludii':>8} {'speed-up':>9}"
print(head)
fmt = lambda x: "-" if x is None else f"{x:.1f}"
for g, l in ludii.items():
    n = statistics.median(new[g])
    row = f"{g:<17} {l or '-':>8} {n:>11,.0f} {fmt(l and n / l):>8}"
    if base:
        o = statistics.median(old[g])
        row += f" {o:>11,.0f} {fmt(l and o / l):>8} {n / o:>8.2f}x"
    print(row)
print(f"(playouts per CPU second, one thread, {rounds} alternating rounds of about {secs:g} s, medians)")
print(machine(regula))
PY
