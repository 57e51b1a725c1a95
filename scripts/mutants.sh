#!/usr/bin/env bash
# Mutation check: applies one deliberate bug at a time and runs the test suite, which must
# fail for each. Prints the mutations the suite did not catch (and exits 1 if any).
# Run from anywhere: scripts/mutants.sh [FILTER]; it restores every file it touches.
set -uo pipefail
cd "$(dirname "$0")/.."
# file ;; text to find ;; replacement ;; what the bug is
mutations=(
  "src/engine/hash.rs ;; st.hash ^= self.zobrist.hand(p, piece, *slot) ^ self.zobrist.hand(p, piece, count); ;;  ;; hand counts are not hashed"
  "src/engine/hash.rs ;; st.hash ^= self.zobrist.side; ;;  ;; the player to move is not hashed"
  "src/engine/hash.rs ;; st.hash ^= self.zobrist.flag(f, c); ;;  ;; flags are not hashed"
  "src/geometry.rs ;; self.rotate(d, (self.dir_count() / 2) as u8) ;; self.rotate(d, (self.dir_count() / 2 + 1) as u8) ;; a wrong opposite direction"
  "src/geometry.rs ;; ((d as usize + steps as usize) % self.dir_count()) as u8 ;; ((d as usize + 2 * steps as usize) % self.dir_count()) as u8 ;; a wrong rotation"
  "src/engine/movegen.rs ;; x.to == m.to && x.from == m.from && x.choice == m.choice ;; x.to == m.to && x.from == m.from ;; piece choices merged as duplicates"
  "src/engine/status.rs ;; cx.no_moves = moves.is_empty(); ;; cx.no_moves = false; ;; 'no moves' never holds"
  "src/engine/apply.rs ;; st.passes = 0; ;;  ;; passes are not reset by a move"
  "src/engine/evaluate.rs ;; const MAX_ATTACK_DEPTH: u8 = 2; ;; const MAX_ATTACK_DEPTH: u8 = 0; ;; nothing is ever attacked"
)
filter="${1:-}"
survivors=0
for m in "${mutations[@]}"; do
  file="${m%% ;; *}"; rest="${m#* ;; }"
  find="${rest%% ;; *}"; rest="${rest#* ;; }"
  replace="${rest%% ;; *}"; what="${rest#* ;; }"
  [[ -n "$filter" && "$what" != *"$filter"* ]] && continue
  cp "$file" "$file.orig"
  FIND="$find" REPLACE="$replace" python3 - "$file" <<'PY'
import os, sys
p = sys.argv[1]
s = open(p).read()
f, r = os.environ["FIND"], os.environ["REPLACE"]
assert f in s, f"mutation target not found in {p}: {f}"
open(p, "w").write(s.replace(f, r, 1))
PY
  if cargo test --release -q >/dev/null 2>&1; then
    echo "SURVIVED: $what ($file)"
    survivors=$((survivors + 1))
  else
    echo "caught:   $what"
  fi
  mv "$file.orig" "$file"
done
exit $((survivors > 0))
