#!/usr/bin/env bash
# Runs the runtime crate's unit tests under Miri, which checks every unsafe
# block (the plain-data bulk copies in binform/src/plain.rs, the encoder's
# cursor, the ASCII fast path, a string column's unchecked cuts) for
# undefined behaviour, then the packed integers' tests again
# (binform/src/packed/) in a build with SSSE3 and AVX2 enabled, since
# Miri cannot ask the CPU (`cpuid`) and the x86 kernels only run where
# the features are there: among them, the kernels against
# the portable loops, and the decoders writing into a vector's
# uninitialized capacity. The AVX-512 kernels are compiled out under Miri
# (it has no AVX-512); `cargo test` compares them with the portable loops
# on CPUs that have the features. CI runs a subset (.ci/run: the writer's cursor,
# plain data, strings); this runs everything: on a 2-core machine the
# second run alone takes over an hour (each kernel test several minutes).
# Arguments filter the first run's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1 || true
cargo +nightly miri test -p binform --lib "$@"
RUSTFLAGS="-C target-feature=+ssse3,+avx2" cargo +nightly miri test -p binform --lib packed::
