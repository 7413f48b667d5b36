#!/usr/bin/env bash
# Runs the runtime crate's unit tests under Miri, which checks every unsafe
# block (the plain-data bulk copies in binform/src/plain.rs) for undefined
# behaviour. Not part of CI: it needs nightly and takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1 || true
cargo +nightly miri test -p binform --lib "$@"
