#!/usr/bin/env bash
# Every test of the repository: the crate's (optimised, in the `ci` profile of Cargo.toml),
# then the Python package's (python/test.sh: a fresh virtual environment, the package
# built, pytest). Set REGULA_SKIP_PYTHON=1 to run the crate's alone.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --profile ci
if [[ -z "${REGULA_SKIP_PYTHON:-}" && -x python/test.sh ]]; then
    # The Ray tests compare with the command line just built.
    REGULA_BIN="${REGULA_BIN:-$PWD/target/ci/regula}" python/test.sh
fi
