#!/usr/bin/env bash
# Runs every cargo-fuzz target for a given time (default 60 s each), starting
# from the regression corpus, then copies any finding into
# tests/fuzz_regressions/<target>/ so that `cargo test` replays it forever.
# Not part of CI: it needs nightly and cargo-fuzz (`cargo install cargo-fuzz`).
#
#   scripts/fuzz.sh [seconds] [target ...]
set -uo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(decode_seed decode_everything decode_columns decode_graph decode_tolerant decode_frames decode_packed roundtrip)
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
status=0
for t in "${targets[@]}"; do
    corpus="fuzz/corpus/$t"
    mkdir -p "$corpus"
    [ -d "tests/fuzz_regressions/$t" ] && cp -n tests/fuzz_regressions/"$t"/* "$corpus"/ 2>/dev/null
    rm -f "$corpus/README.md"
    echo "== $t for ${secs}s"
    if ! cargo +nightly fuzz run "$t" "$corpus" -- -max_total_time="$secs" -rss_limit_mb=2048 2>&1 | tee "fuzz/$t.log" | grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs|SUMMARY|panicked"; then
        :
    fi
    if ls fuzz/artifacts/"$t"/* >/dev/null 2>&1; then
        echo "!! $t found inputs; copying them to tests/fuzz_regressions/$t/"
        mkdir -p "tests/fuzz_regressions/$t"
        cp fuzz/artifacts/"$t"/* "tests/fuzz_regressions/$t/"
        status=1
    fi
done
# The peak-heap invariant (issue 32): random and lying inputs through every
# entry point, each decode's peak heap inside its memory budget, counted by
# a global allocator (a proptest; PEAK_CASES of them, 64 in CI).
cases="${PEAK_CASES:-$((secs * 300))}"
echo "== peak heap, $cases cases"
if ! PEAK_CASES="$cases" cargo test --release -q -p binform-tests --test hardening any_bytes_stay_inside_the_budget; then
    status=1
fi
exit $status
