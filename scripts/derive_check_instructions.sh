#!/usr/bin/env bash
# The derive's `cargo check` cost counted in instructions, not seconds.
#
#   scripts/derive_check_instructions.sh [crates]   # crates: "none binform"
#
# `derive_compile_time.sh` times whole builds, and on a shared 2-core
# machine the best of 7 checks of the same code still differs by about
# 0.1 s in 1.9 s: a change to the derive worth 5% cannot be told from
# noise that way. Here rustc's check of the generated crate of 100 types
# runs once under callgrind (no cache simulation, about a minute a crate),
# which counts the same instructions on every run of the same code, so an
# A/B of a derive change is one run of each. Needs valgrind.
#
# The crates are `derive_compile_time.sh`'s (generated and their
# dependencies built by a check-only run of it first). Prints each
# crate's instructions and, with `none`, what the derive adds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
crates="${1:-none binform}"
base="${TMPDIR:-/tmp}/binform-compile-time"
export CARGO_TARGET_DIR="$base/target"
export CARGO_INCREMENTAL=0

command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
# Generates the crates and builds their dependencies (one timed check).
"$root/scripts/derive_compile_time.sh" 1 check >/dev/null

declare -A count
for c in $crates; do
    dir="$base/$c"
    touch "$dir/src/lib.rs"
    # rustc's own command line, as cargo runs it (`-v` prints it for the
    # one crate it rebuilds).
    cmd=$(cd "$dir" && cargo check -v 2>&1 | sed -n 's/^ *Running `\(.*rustc .*--crate-name ct_.*\)`$/\1/p' | tail -1)
    [ -n "$cmd" ] || { echo "no rustc command for $c" >&2; exit 1; }
    out="$base/check-$c.callgrind"
    # The derive reads CARGO_MANIFEST_DIR (schema lock files), as under cargo.
    refs=$(cd "$dir" && CARGO_MANIFEST_DIR="$dir" eval "valgrind --tool=callgrind --callgrind-out-file=$out $cmd" 2>&1 |
        sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,)
    count[$c]=$refs
    printf '%-8s %8.0f M instructions\n' "$c" "$(echo "$refs / 1000000" | bc -l)"
done
if [ -n "${count[none]:-}" ]; then
    for c in $crates; do
        [ "$c" = none ] && continue
        printf '%-8s adds %6.0f M over the crate without a derive\n' "$c" \
            "$(echo "(${count[$c]} - ${count[none]}) / 1000000" | bc -l)"
    done
fi
