#!/usr/bin/env bash
# The main job with sensible defaults: build every Russian table of up to N pieces
# (default 4) into ./tables, verify them, build the Russian rule tables the README's
# embedding example reads (up to 3 pieces, and three kings against one), then probe
# a position with and without the rules.
set -euo pipefail
cd "$(dirname "$0")/.."
pieces="${1:-4}"
cargo build --release --quiet
./target/release/damka gen --variant russian --pieces "$pieces" --dir tables
./target/release/damka verify --variant russian --dir tables
./target/release/damka gen --variant russian --pieces 3 --dir tables --rules russian --quiet
./target/release/damka gen --variant russian --pieces 4 --slice 0M3K-0M1K --dir tables \
    --rules russian --quiet
./target/release/damka probe --variant russian --dir tables --pv \
    --rules russian --played R1=4 "W:WKa1,Kc1,Ke1:BKh2"
