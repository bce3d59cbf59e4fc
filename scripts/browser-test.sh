#!/usr/bin/env bash
# The browser test of `damka serve`: installs Chromium and chromedriver from
# Debian if they are missing, builds the quickstart tables if they are missing,
# starts the server and chromedriver on loopback, and runs scripts/browser_test.py
# (headless Chromium: three kings against one set up by clicks, R1=4, the answer
# checked, the best move played by clicking it). Screenshots go to
# target/browser-test/ (or the directory given as the first argument).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/browser-test}"
port="${DAMKA_PORT:-8397}"
driver_port="${CHROMEDRIVER_PORT:-9517}"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt-get update
    apt-get install -y chromium chromium-driver
fi
cargo build --release --quiet
# The quickstart tables, built (or completed) unless they answer the question.
if ! ./target/release/damka probe --variant russian --dir tables --rules russian \
    --played R1=4 "W:WKa1,Kc1,Ke1:BKh2" >/dev/null 2>&1; then
    bash scripts/quickstart.sh
fi

./target/release/damka serve --dir tables --addr "127.0.0.1:$port" &
server=$!
chromedriver --port="$driver_port" >/dev/null 2>&1 &
driver=$!
trap 'kill "$server" "$driver" 2>/dev/null || true' EXIT

for _ in $(seq 100); do
    if curl -sf "http://127.0.0.1:$port/api/health" >/dev/null &&
        curl -sf "http://127.0.0.1:$driver_port/status" >/dev/null; then
        break
    fi
    sleep 0.2
done
python3 scripts/browser_test.py "http://127.0.0.1:$port" "http://127.0.0.1:$driver_port" "$out"
