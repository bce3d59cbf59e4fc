-- The request mix of scripts/load-test.sh, for wrk: probes with and without the
-- rules, move lists, counters, the board and health, and malformed requests that
-- must get 400. Each thread cycles through the list; the summary counts the
-- answers by status and checks that exactly the malformed requests got 400.

local paths = {
  "/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKh2",
  "/api/probe?variant=russian&fen=B%3AWKa1%2CKc1%2CKd4%3ABKh2&pv=true",
  "/api/probe?variant=russian&fen=W%3AWc3%3ABKh8",
  "/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKh2&rules=russian&played=R1%3D12",
  "/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKh2&rules=russian&played=R1%3D14.5",
  "/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%3ABKh2&rules=russian&played=R2%3D3",
  "/api/probe?variant=russian&fen=W%3AWc3%2CKe1%3ABKh8&rules=russian&played=R2%3D2%2CR4%3D3",
  "/api/moves?variant=russian&fen=W%3AWc3%2Ce3%3ABKh8%2Cd4",
  "/api/moves?variant=international&fen=W%3AW31-35%3AB16-20",
  "/api/counters?variant=russian&rules=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKd4",
  "/api/board?variant=international&fen=B%3AW31-33%2CK46%3ABK5",
  "/api/health",
  -- Malformed: each must be a 400.
  "/api/probe?variant=russian&fen=W%3AWz9%3ABh8",
  "/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKh2&rules=olympic",
  "/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKh2&rules=russian&played=R3%3D2",
  "/api/probe?variant=russian&fen=W%3AWKa1%2CKc1%2CKe1%3ABKh2%2CKh8",
}
local first_malformed = 13

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  next_path = 0
  sent_malformed = 0
  ok = 0
  bad = 0
  other = 0
end

function request()
  next_path = next_path % #paths + 1
  if next_path >= first_malformed then
    sent_malformed = sent_malformed + 1
  end
  return wrk.format("GET", paths[next_path])
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
  elseif status == 400 then
    bad = bad + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local totals = { ok = 0, bad = 0, other = 0, sent_malformed = 0 }
  for _, thread in ipairs(threads) do
    for key, _ in pairs(totals) do
      totals[key] = totals[key] + thread:get(key)
    end
  end
  local e = summary.errors
  io.write(string.format("requests: %d in %.1f s = %.0f requests/s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6)))
  io.write(string.format("latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("answers: %d OK, %d 400 (malformed requests sent: %d), %d other\n",
    totals.ok, totals.bad, totals.sent_malformed, totals.other))
  io.write(string.format("socket errors: connect %d, read %d, write %d, timeout %d\n",
    e.connect, e.read, e.write, e.timeout))
end
