#!/usr/bin/env bash
# Mutation check: applies one deliberate bug at a time and runs the test suite, which must
# fail for each. Prints the mutations the suite did not catch (and exits 1 if any).
# Run from anywhere: scripts/mutants.sh [FILTER]; it restores every file it touches.
set -uo pipefail
cd "$(dirname "$0")/.."
# file ;; text to find ;; replacement ;; what the bug is
mutations=(
  "src/engine/state.rs ;; self.s.hash ^= k.hand(p, piece, old) ^ k.hand(p, piece, count); ;;  ;; hand counts are not hashed"
  "src/engine/apply.rs ;; st.s.hash ^= k.side(me) ^ k.side(next); ;;  ;; the player to move is not hashed"
  "src/engine/state.rs ;; self.s.hash ^= k.flag(f, c); ;;  ;; flags are not hashed"
  "src/engine/state.rs ;; self.flags[f as usize].set(c, !v); ;;  ;; undoing a move leaves flags changed"
  "src/geometry/mod.rs ;; self.rotate(d, (self.dir_count() / 2) as u8) ;; self.rotate(d, (self.dir_count() / 2 + 1) as u8) ;; a wrong opposite direction"
  "src/geometry/mod.rs ;; ((d as usize + steps as usize) % self.dir_count()) as u8 ;; ((d as usize + 2 * steps as usize) % self.dir_count()) as u8 ;; a wrong rotation"
  "src/engine/state.rs ;; && self.choice == o.choice ;;  ;; piece choices merged as duplicates"
  "src/engine/state.rs ;; && self.path[..self.hops as usize] == o.path[..o.hops as usize] ;;  ;; two capture paths to one cell merged"
  "src/engine/status.rs ;; IrOutcome::Loses(p) => Outcome::Lose(who(p)), ;; IrOutcome::Loses(p) => Outcome::Win((who(p) + 1) % self.players), ;; with three players, a loss is the next player's win"
  "src/engine/status.rs ;; cx.no_moves = no_moves; ;; cx.no_moves = false; ;; 'no moves' never holds"
  "src/engine/apply.rs ;; st.s.passes = 0; ;;  ;; passes are not reset by a move"
  "src/engine/attack.rs ;; const MAX_ATTACK_DEPTH: u8 = 2; ;; const MAX_ATTACK_DEPTH: u8 = 0; ;; nothing is ever attacked"
  "src/engine/attack.rs ;; let back = self.geo.opposite[self.dir(ecx, d) as usize & 7]; ;; let back = self.dir(ecx, d); ;; attacks read backwards the wrong way"
  "src/engine/movegen.rs ;; let mut k = rng.below(total as usize) as u32; ;; let mut k = rng.below(total as usize) as u32 / 2; ;; random moves biased towards the first pieces"
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
