#!/usr/bin/env bash
# Runs the runtime crate's unit tests under Miri, which checks every unsafe
# block (the plain-data bulk copies in binform/src/plain.rs, the encoder's
# cursor, the ASCII fast path) for undefined behaviour, then the packed
# integers' x86 kernels (binform/src/packed/x86.rs) in a build with SSSE3
# and AVX2 enabled, since Miri cannot ask the CPU (`cpuid`) and the kernels
# only run where the features are there. Not part of CI: it needs nightly
# and takes a few minutes. Arguments filter the first run's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1 || true
cargo +nightly miri test -p binform --lib "$@"
RUSTFLAGS="-C target-feature=+ssse3,+avx2" cargo +nightly miri test -p binform --lib packed::x86
