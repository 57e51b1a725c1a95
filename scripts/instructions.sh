#!/usr/bin/env bash
# Instructions per ply of seeded random playouts, counted by callgrind inside the playouts
# loop only (loading and compiling the game are left out), for one or two builds:
#   scripts/instructions.sh BINARY [BASE_BINARY] [-- GAME...]
# Unlike wall-clock figures, these do not depend on the machine's load: the same binary,
# game and seed give the same count. Games default to the shipped and example games.
set -euo pipefail
cd "$(dirname "$0")/.."
new="${1:?usage: scripts/instructions.sh BINARY [BASE_BINARY] [-- GAME...]}"
shift
base=""
if [[ $# -gt 0 && "$1" != "--" ]]; then base="$1"; shift; fi
[[ $# -gt 0 && "$1" == "--" ]] && shift
games=("$@")
[[ ${#games[@]} -eq 0 ]] && games=(games/*.game docs/examples/*.game)
count_for() {
    # Enough playouts for a few hundred thousand plies at most.
    case "$(basename "$1" .game)" in
        shakhmaty|chess|hnefatafl|tablut|othello|amazons) echo 20 ;;
        *) echo 200 ;;
    esac
}
per_ply() {
    local bin="$1" game="$2" n out ir plies
    n="$(count_for "$game")"
    out="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect='*Core*playouts::{{closure}}' \
        "$bin" playout "$game" --count "$n" --seed 1 --threads 1 --max-plies 100000 2>&1)"
    ir="$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out")"
    [[ -z "$ir" ]] && ir="$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' <<<"$out" | tr -d ,)"
    plies="$(awk -v n="$n" '/^mean plies:/ {printf "%d", $3 * n}' <<<"$out")"
    awk -v i="$ir" -v p="$plies" 'BEGIN {printf "%.0f", i / (p > 0 ? p : 1)}'
}
printf '%-28s %12s' game "instr/ply"
[[ -n "$base" ]] && printf ' %12s %8s' base "new/base"
printf '\n'
for g in "${games[@]}"; do
    a="$(per_ply "$new" "$g")"
    printf '%-28s %12s' "$(basename "$g" .game)" "$a"
    if [[ -n "$base" ]]; then
        b="$(per_ply "$base" "$g")"
        awk -v a="$a" -v b="$b" 'BEGIN {printf " %12s %8.3f", b, a / b}'
    fi
    printf '\n'
done
