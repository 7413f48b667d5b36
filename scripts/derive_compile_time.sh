#!/usr/bin/env bash
# Times `cargo build --release` of a generated crate of 100 derived types
# (structs of scalars, strings, options, vectors and nested types, and
# enums, compact and version-tolerant), against this checkout's binform:
# the derive's compile-time cost, which issue 14 bounds at +20%.
#
#   scripts/derive_compile_time.sh [runs]   # prints the best of `runs` (3)
#
# Dependencies are built once first; each timed run touches only the
# generated crate, so the figure is the derive's expansion plus the
# compilation of what it generated.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-3}"
dir="${TMPDIR:-/tmp}/binform-compile-time"
rm -rf "$dir" && mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<EOF
[package]
name = "derive-compile-time"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
binform = { path = "$root/binform" }

[workspace]
EOF
{
    echo "use binform::Packable;"
    for i in $(seq 0 99); do
        case $((i % 4)) in
        0) echo "#[derive(Packable, Debug, Clone, PartialEq, Default)]
pub struct S$i { pub a: u32, pub b: i64, pub c: String, pub d: Option<u16>, pub e: Vec<u8>, pub f: f64, pub g: bool }" ;;
        1) echo "#[derive(Packable, Debug, Clone, PartialEq, Default)]
pub struct S$i { pub inner: S$((i - 1)), pub tags: Vec<String>, pub id: u64, pub score: f32 }" ;;
        2) echo "#[derive(Packable, Debug, Clone, PartialEq)]
pub enum S$i { A, B(u32, String), C { x: i32, y: Option<S$((i - 2))> }, D(Vec<i64>) }" ;;
        3) echo "#[derive(Packable, Debug, Clone, PartialEq, Default)]
#[binform(version_tolerant)]
pub struct S$i { #[binform(tag = 1)] pub a: u32, #[binform(tag = 2)] pub b: String, #[binform(tag = 3)] pub c: Option<i64>, #[binform(tag = 4)] pub d: Vec<u16> }" ;;
        esac
    done
    echo "pub fn round_trip() -> usize { binform::to_vec(&S1::default()).map_or(0, |b| b.len()) }"
} > "$dir/src/lib.rs"
cd "$dir"
cargo build --release --quiet 2>/dev/null || cargo build --release
best=""
for _ in $(seq "$runs"); do
    touch src/lib.rs
    start=$(date +%s.%N)
    cargo build --release --quiet
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
done
echo "100 derived types, cargo build --release: best of $runs: ${best}s"
