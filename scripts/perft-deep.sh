#!/usr/bin/env bash
# The deepest published perft figures (Russian depths 11-13, International 10-11).
# Takes several minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test integration perft:: -- --ignored --nocapture
