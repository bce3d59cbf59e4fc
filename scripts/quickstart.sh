#!/usr/bin/env bash
# The main job with sensible defaults: build every Russian table of up to N pieces
# (default 4) into ./tables, verify them, then probe a position.
set -euo pipefail
cd "$(dirname "$0")/.."
pieces="${1:-4}"
cargo build --release --quiet
./target/release/damka gen --variant russian --pieces "$pieces" --dir tables
./target/release/damka verify --variant russian --dir tables
./target/release/damka probe --variant russian --dir tables --pv "W:WKa1,Kc1,Ke1:BKh2"
