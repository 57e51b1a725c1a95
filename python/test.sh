#!/usr/bin/env bash
# Builds the Python package in a fresh virtual environment and runs its tests:
#   python/test.sh            (from anywhere; VENV=path chooses the environment's place)
# The command line the Ray tests compare with is $REGULA_BIN, else target/release/regula
# when the repository has one, else a quick unoptimised build made here while pip works.
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd .. && pwd)
venv=${VENV:-$here/.venv}
python=${PYTHON:-python3}
start=$(date +%s)

cli_log=$(mktemp)
cli_pid=
if [ -z "${REGULA_BIN:-}" ]; then
  if [ -x "$root/target/release/regula" ]; then
    export REGULA_BIN="$root/target/release/regula"
  else
    # Downloads leave the cores idle: build the command line meanwhile.
    (cd "$root" && cargo build --quiet --bin regula --target-dir "$here/target" \
      --config profile.dev.debug=0 --config profile.dev.debug-assertions=false \
      --config profile.dev.overflow-checks=false) >"$cli_log" 2>&1 &
    cli_pid=$!
    export REGULA_BIN="$here/target/debug/regula"
  fi
fi

rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet maturin pytest numpy open_spiel ray
echo "environment ready: $(( $(date +%s) - start )) s"

if [ -n "$cli_pid" ]; then
  wait "$cli_pid" || { cat "$cli_log"; exit 1; }
  echo "command line built: $(( $(date +%s) - start )) s"
fi
rm -f "$cli_log"

# `maturin develop` installs into the active environment; the release profile of
# python/Cargo.toml has no link-time optimisation, so this takes a minute or two.
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --release --quiet
echo "package built: $(( $(date +%s) - start )) s"

"$venv/bin/python" -m pytest -q tests "$@"
echo "total: $(( $(date +%s) - start )) s"
