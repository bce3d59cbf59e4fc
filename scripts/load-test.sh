#!/usr/bin/env bash
# The load test of `damka serve` on loopback: 64 concurrent clients (wrk, 2
# threads) for 30 s, cycling through scripts/load-test.lua's mix of probes, rule
# queries, move lists and malformed requests, while one more client sends the
# arbiter's question (three kings against one, R1=4, with the line under the
# rules) back to back, at most 3,000 times. Prints requests/s,
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
cargo build --release --quiet
# The quickstart tables, built (or completed) unless they answer the question.
if ! ./target/release/damka probe --variant russian --dir tables --rules russian \
    --played R1=4 "W:WKa1,Kc1,Ke1:BKh2" >/dev/null 2>&1; then
    bash scripts/quickstart.sh
fi

./target/release/damka serve --dir tables --addr "127.0.0.1:$port" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
    sleep 0.2
done

arbiter="http://127.0.0.1:$port/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKh2&rules=russian&played=R1%3D4&pv=true"
(
    end=$((SECONDS + seconds))
    for i in $(seq 3000); do
        [ "$SECONDS" -lt "$end" ] || break
        curl -s -o /dev/null -w "%{http_code} %{time_total}\n" "$arbiter"
    done | awk '{n++; codes[$1]++; t += $2; if ($2 > max) max = $2}
        END {printf "arbiter'"'"'s question: %d answers (", n;
             for (c in codes) printf "%s: %d ", c, codes[c];
             printf "), mean %.3f s, max %.3f s\n", t / n, max}'
) &
slow_client=$!

wrk --threads 2 --connections 64 --duration "${seconds}s" --timeout 60s \
    --script scripts/load-test.lua "http://127.0.0.1:$port"
wait "$slow_client"
echo "server peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$server/status")"
