#!/usr/bin/env bash
# Time and peak memory of `regula` on hostile inputs, measured with /usr/bin/time:
#
#   scripts/hostile-figures.sh [OTHER_BINARY]
#
# Runs the release build (target/release/regula, or $CARGO_TARGET_DIR/release/regula)
# and, when given, another build (e.g. an older one) on the same generated files, one
# line per run: input, command, exit code, seconds, peak MB. A run is stopped after 60 s.
set -eu
cd "$(dirname "$0")/.."
new=${CARGO_TARGET_DIR:-$PWD/target}/release/regula
binaries=("$new")
[ $# -gt 0 ] && binaries+=("$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

head='game "Hostile" { }
players { white black }
board 3 x 3
piece King letter K
setup { white King a1  black King c3 }
moves King { step all to empty }
end { when no moves: next loses }'

# A sum of N terms in `legal if`.
sum() { { echo "$head"; printf 'legal if 1'; yes ' + 1' | head -n $(($1 - 1)) | tr -d '\n'; echo ' == 2'; } > "$dir/$2"; }
# Definitions, each using the one before twice, N levels.
doubling() {
    { echo "$head"; echo "define level0 = from is empty"
      for i in $(seq 1 "$1"); do echo "define level$i = level$((i - 1)) and level$((i - 1))"; done
      echo "legal if level$1"; } > "$dir/$2"
}
# `and` chains of N terms.
chain() { { echo "$head"; printf 'legal if '; yes 'from is empty and ' | head -n "$1" | tr -d '\n'; echo 'true'; } > "$dir/$2"; }
# N unused definitions, or N definitions of unknown names.
unused() { { echo "$head"; seq 1 "$1" | awk '{print "define unused" $1 " = true"}'; } > "$dir/$2"; }
unknown() { { echo "$head"; seq 1 "$1" | awk '{print "define unused" $1 " = unknown" $1}'; } > "$dir/$2"; }

sum 262000 sum-262k.game
sum 200000 sum-200k.game
doubling 22 doubling-22.game
doubling 30 doubling-30.game
chain 16000 and-16k.game
chain 32000 and-32k.game
unused 8000 unused-8k.game
unused 20000 unused-20k.game
unknown 8000 unknown-8k.game

run() {
    local bin=$1 file=$2
    shift 2
    local rc=0 secs kb
    /usr/bin/time -f "%e %M" -o "$dir/time" timeout 60 "$bin" "$@" "$dir/$file" >/dev/null 2>&1 || rc=$?
    read -r secs kb < <(tail -1 "$dir/time")
    local note=""
    [ "$rc" = 124 ] && note=" (stopped)"
    printf '%-18s %-28s exit %-4s %7.2f s %6.0f MB%s\n' "$file" "$*" "$rc" "$secs" "$((kb / 1024))" "$note"
}

for bin in "${binaries[@]}"; do
    echo "== $bin"
    for f in sum-262k.game sum-200k.game; do run "$bin" "$f" check; run "$bin" "$f" moves; done
    for f in doubling-22.game doubling-30.game and-16k.game and-32k.game; do run "$bin" "$f" check; done
    for f in unused-8k.game unused-20k.game unknown-8k.game; do
        run "$bin" "$f" check
        run "$bin" "$f" check --format json
    done
done
