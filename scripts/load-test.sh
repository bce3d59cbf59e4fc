#!/usr/bin/env bash
# The load test of `damka serve` on loopback: 64 concurrent clients (wrk, 2
# threads) for 30 s, cycling through scripts/load-test.lua's mix of probes, rule
# queries, move lists and malformed requests, while one more client sends the
# slowest query of the quickstart tables (three kings against one, R1=4, with
# the line under the rules) back to back, at most 20 times. Prints requests/s,
# p50 and p99 latency, the answers by status, and the server's peak RSS.
# Installs wrk from Debian and builds the quickstart tables if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${DAMKA_PORT:-8398}"
seconds="${LOAD_SECONDS:-30}"

if ! command -v wrk >/dev/null; then
    apt-get update
    apt-get install -y wrk
fi
if [ ! -f tables/russian/0M3K-0M1K.russian.rwdl.dkt ]; then
    bash scripts/quickstart.sh
fi
cargo build --release --quiet

./target/release/damka serve --dir tables --addr "127.0.0.1:$port" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
    sleep 0.2
done

slow="http://127.0.0.1:$port/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKh2&rules=russian&played=R1%3D4&pv=true"
(
    end=$((SECONDS + seconds))
    for i in $(seq 20); do
        [ "$SECONDS" -lt "$end" ] || break
        curl -s -o /dev/null -w "slow query $i: %{http_code} in %{time_total} s\n" "$slow"
    done
) &
slow_client=$!

wrk --threads 2 --connections 64 --duration "${seconds}s" --timeout 60s \
    --script scripts/load-test.lua "http://127.0.0.1:$port"
wait "$slow_client"
echo "server peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$server/status")"
