#!/usr/bin/env bash
# The derive's compile-time cost against serde's and bitcode's (issue 36).
#
#   scripts/derive_compile_time.sh [runs] [modes]   # runs: 3, modes: "check debug release"
#
# With all three modes, the table is also written to docs/compile-time.md,
# which `cargo run -p binform-benches --example report` puts into
# docs/benchmarks.md.
#
# Generates one crate of 100 types (46 named structs, 15 tuple structs,
# 18 data enums, 11 unit enums, 8 generic structs, 2 generic enums, many of
# them nesting earlier ones) four times: without a derive, with serde's
# Serialize + Deserialize, with bitcode's Encode + Decode, and with binform's
# Packable. Dependencies are built once first; each timed build touches only
# the generated crate. Runs are interleaved (run 1 of every crate and mode,
# then run 2, ...) so that a slow minute of the machine hits all of them,
# and the best of `runs` is kept. Prints each derive's added cost over the
# crate without one, and that cost divided by serde's.
#
# Timings of the same code differ by about 0.1 s here; to compare two
# versions of the derive, `scripts/derive_check_instructions.sh` counts the
# check's instructions instead (the same on every run).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-3}"
modes="${2:-check debug release}"
base="${TMPDIR:-/tmp}/binform-compile-time"
export CARGO_TARGET_DIR="$base/target"
# Without incremental compilation: a touched but unchanged file would
# otherwise reuse every query, and the figure would be cargo's overhead.
export CARGO_INCREMENTAL=0
mkdir -p "$base"

# The 100 types; `$1` is the derive line's contents ("" for none).
types() {
    local derive="$1" d=""
    [ -n "$derive" ] && d="$derive, "
    local i n=0
    # 46 named structs: scalars, strings, options and sequences; every
    # second one nests the one before it.
    for i in $(seq 0 45); do
        echo "#[derive(${d}Debug, Clone, PartialEq, Default)]"
        if [ $((i % 2)) = 1 ]; then
            echo "pub struct N$i { pub inner: N$((i - 1)), pub tags: Vec<String>, pub id: u64, pub score: f32, pub extra: Option<N$((i - 1))> }"
        else
            echo "pub struct N$i { pub a: u32, pub b: i64, pub c: String, pub d: Option<u16>, pub e: Vec<u8>, pub f: f64, pub g: bool, pub h: Vec<u32> }"
        fi
    done
    # 15 tuple structs.
    for i in $(seq 0 14); do
        echo "#[derive(${d}Debug, Clone, PartialEq, Default)]"
        echo "pub struct T$i(pub u32, pub String, pub N$((i * 3)), pub Vec<i16>);"
    done
    # 11 unit enums.
    for i in $(seq 0 10); do
        echo "#[derive(${d}Debug, Clone, Copy, PartialEq, Eq)]"
        echo "pub enum U$i { Red, Green, Blue, Cyan, Magenta, Yellow, Black$i }"
    done
    # 18 data enums.
    for i in $(seq 0 17); do
        echo "#[derive(${d}Debug, Clone, PartialEq)]"
        echo "pub enum E$i { A, B(u32, String), C { x: i32, y: Option<N$((i * 2 + 1))> }, D(Vec<i64>), E(U$((i % 11)), T$((i % 15))) }"
    done
    # 8 generic structs.
    for i in $(seq 0 7); do
        echo "#[derive(${d}Debug, Clone, PartialEq, Default)]"
        echo "pub struct G$i<T> { pub value: T, pub items: Vec<T>, pub id: u32, pub note: Option<String> }"
    done
    # 2 generic enums.
    for i in 0 1; do
        echo "#[derive(${d}Debug, Clone, PartialEq)]"
        echo "pub enum H$i<T> { Empty, One(T), Many(Vec<T>), Named { value: T, label: String } }"
    done
    # Users of the generic ones.
    echo "pub type Uses = (G0<N1>, G1<E3>, G2<u64>, G3<String>, G4<T2>, G5<N7>, G6<E9>, G7<Vec<N4>>, H0<N9>, H1<E11>);"
}

crate() {
    local name="$1" dep="$2" derive="$3" prelude="$4" use_fn="$5"
    local dir="$base/$name"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<EOF
[package]
name = "ct-$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$dep

[workspace]
EOF
    { echo "$prelude"; types "$derive"; echo "$use_fn"; } > "$dir/src/lib.rs"
}

crate none "" "" "" "pub fn touch(n: &N45) -> usize { n.tags.len() }"
crate serde 'serde = { version = "1", features = ["derive"] }' \
    "serde::Serialize, serde::Deserialize" "" \
    "pub fn touch(n: &N45) -> usize { n.tags.len() }"
crate bitcode 'bitcode = { version = "0.6", features = ["derive"] }' \
    "bitcode::Encode, bitcode::Decode" "" \
    "pub fn touch(n: &N45) -> usize { bitcode::encode(n).len() + bitcode::encode(&E17::A).len() }"
crate binform "binform = { path = \"$root/binform\" }" \
    "binform::Packable" "" \
    "pub fn touch(n: &N45) -> usize { binform::to_vec(n).map_or(0, |b| b.len()) + binform::to_vec(&E17::A).map_or(0, |b| b.len()) }"

flag() {
    case "$1" in
    check) echo "check" ;;
    debug) echo "build" ;;
    release) echo "build --release" ;;
    esac
}

# Prebuild every crate's dependencies (and the crate once) in every mode.
for c in none serde bitcode binform; do
    for m in $modes; do
        (cd "$base/$c" && cargo $(flag "$m") --quiet 2>/dev/null || cargo $(flag "$m"))
    done
done

declare -A best
for _ in $(seq "$runs"); do
    for m in $modes; do
        for c in none serde bitcode binform; do
            touch "$base/$c/src/lib.rs"
            start=$(date +%s.%N)
            (cd "$base/$c" && cargo $(flag "$m") --quiet)
            end=$(date +%s.%N)
            t=$(echo "$end - $start" | bc)
            key="$c/$m"
            if [ -z "${best[$key]:-}" ] || [ "$(echo "$t < ${best[$key]}" | bc)" = 1 ]; then
                best[$key]=$t
            fi
        done
    done
done

table() {
echo "100 types, best of $runs interleaved runs, rustc $(rustc --version | cut -d' ' -f2)"
printf '%-8s' "derive"
for m in $modes; do printf ' | %-9s' "+ $m"; done
printf ' | ÷ serde (%s)\n' "$(echo $modes | tr ' ' '/')"
for c in serde bitcode binform; do
    printf '%-8s' "$c"
    ratios=""
    for m in $modes; do
        added=$(echo "${best[$c/$m]} - ${best[none/$m]}" | bc)
        serde=$(echo "${best[serde/$m]} - ${best[none/$m]}" | bc)
        printf ' | %7.2f s' "$added"
        ratios="$ratios $(printf '%.2f' "$(echo "scale=3; $added / $serde" | bc)")"
    done
    printf ' |%s\n' "$ratios"
done
printf '%-8s' "none"
for m in $modes; do printf ' | %7.2f s' "${best[none/$m]}"; done
echo " | (the crate without a derive, total)"
}

# binform's ratio in each mode against its bar: "check 0.59 (over 0.5), ...".
bars() {
    out=""
    for m in $modes; do
        case $m in check) bar=0.5 ;; debug) bar=1.0 ;; *) bar=1.5 ;; esac
        added=$(echo "${best[binform/$m]} - ${best[none/$m]}" | bc)
        serde=$(echo "${best[serde/$m]} - ${best[none/$m]}" | bc)
        r=$(printf '%.2f' "$(echo "scale=3; $added / $serde" | bc)")
        if [ "$(echo "$r <= $bar" | bc)" = 1 ]; then v="met"; else v="over $bar"; fi
        out="$out${out:+, }$m $r ($v)"
    done
    echo "$out."
}

table
echo "Against the bar: $(bars)"
if [ "$modes" = "check debug release" ]; then
    {
        echo "## Compile time of the derive"
        echo
        echo "What \`#[derive(Packable)]\` adds to a build, against serde's Serialize +"
        echo "Deserialize and bitcode's Encode + Decode on the same crate of 100 types"
        echo "(46 named structs, 15 tuple structs, 18 data enums, 11 unit enums, 8"
        echo "generic structs, 2 generic enums; \`scripts/derive_compile_time.sh\`,"
        echo "non-incremental, dependencies prebuilt, best of $runs interleaved runs;"
        echo "$(date -u +%Y-%m-%d), $(nproc) cores, rustc $(rustc --version | cut -d' ' -f2)):"
        echo "the time over the same crate without a derive, and that time divided by"
        echo "serde's. The bar: check at most 0.5x, debug 1.0x, release 1.5x serde's."
        echo
        echo '```text'
        table
        echo '```'
        echo
        echo "Against the bar: $(bars)"
    } > "$root/docs/compile-time.md"
    echo "wrote docs/compile-time.md"
fi
