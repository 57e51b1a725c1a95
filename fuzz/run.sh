#!/usr/bin/env bash
# Runs the fuzz targets on the stable toolchain, installing cargo-fuzz if needed.
#
#   fuzz/run.sh [SECONDS] [TARGET...]      default: 600 seconds each, targets compile play edit
#
# Each target runs for SECONDS on one core (-jobs=1), optimised with overflow checks and
# debug assertions on (-O -a), without a sanitizer (the crate forbids unsafe code). An
# input that takes more than 10 s or 1 GB is a failure, like a crash. New inputs go to
# fuzz/corpus-tmp/TARGET (not committed), seeded from fuzz/corpus/TARGET; failures are
# saved in fuzz/artifacts/TARGET: fix them, then copy them to fuzz/corpus/TARGET so that
# tests/fuzz_corpus.rs replays them. The statistics of each run end up in
# fuzz/corpus-tmp/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(compile play edit)

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
# libFuzzer needs nightly compiler flags; this enables them on the stable toolchain.
export RUSTC_BOOTSTRAP=1
target_dir=${CARGO_TARGET_DIR:-$PWD/target}/fuzz

status=0
for t in "${targets[@]}"; do
    case $t in
        compile | edit) options=(-dict=regula.dict -max_len=4096) ;;
        play) options=(-max_len=400) ;;
        *) echo "unknown target $t" >&2; exit 2 ;;
    esac
    # The editor tools read game files, like the compiler: they share its seeds.
    seeds=corpus/$t
    [ "$t" = edit ] && seeds=corpus/compile
    mkdir -p "corpus-tmp/$t" "artifacts/$t"
    # -jobs=1 runs the fuzzer in a child process writing fuzz-0.log here.
    cargo fuzz run -O -a -s none --target-dir "$target_dir" "$t" "corpus-tmp/$t" "$seeds" -- \
        "${options[@]}" -timeout=10 -rss_limit_mb=1024 -max_total_time="$seconds" \
        -jobs=1 -print_final_stats=1 -artifact_prefix="artifacts/$t/" || status=1
    mv fuzz-0.log "corpus-tmp/$t.log"
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done|ERROR|crash-|timeout-|oom-" \
        "corpus-tmp/$t.log" || true
done
exit $status
