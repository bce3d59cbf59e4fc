#!/usr/bin/env bash
# `damka plan --format slurm` on a real one-node Slurm (scripts/slurm-local.sh):
#
# 1. plans the Russian ≤5 build, submits it, kills one running job on purpose,
#    waits for the queue to empty, re-runs the submit script and waits again;
# 2. checks every table is byte-identical to a plain `damka gen --pieces 5`;
# 3. does the same (without the kill) for the `russian` rule tables up to 4 pieces.
#
#   bash scripts/slurm-test.sh        # needs root; installs slurm-wlm and munge if missing
#
# WORK (default: a new temporary directory) holds the tables and the logs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
damka="$PWD/target/release/damka"
work="${WORK:-$(mktemp -d /tmp/damka-slurm-XXXXXX)}"
mkdir -p "$work"
echo "work directory: $work"
bash scripts/slurm-local.sh start

wait_empty() {
    while [ -n "$(squeue -h -o %i)" ]; do sleep 2; done
}

same_files() { # reference directory, built directory
    local n=0 f
    for f in "$1"/russian/*; do
        cmp -s "$f" "$2/russian/$(basename "$f")" || { echo "DIFFERENT: $(basename "$f")" >&2; return 1; }
        n=$((n + 1))
    done
    [ "$(ls "$1/russian" | wc -l)" = "$(ls "$2/russian" | wc -l)" ] || { echo "file counts differ" >&2; return 1; }
    echo "$n files byte-identical"
}

started=$(date +%s)
"$damka" plan --variant russian --pieces 5 --dir "$work/slurm" --format slurm > "$work/submit.sh"
(cd "$work" && bash submit.sh > submit-1.log)
echo "submitted $(grep -c '^submitted' "$work/submit-1.log") jobs"
# Kill the first 5-piece table job once it runs.
five_piece_running() {
    squeue -h -t RUNNING -o '%i %j' | awk '$2 ~ /^damka-t-/ {
        s = $2; sub(/^damka-t-/, "", s); n = 0
        while (match(s, /[0-9]+/)) { n += substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) }
        if (n == 5) { print $1 " " $2; exit }
    }'
}
victim=""
while [ -z "$victim" ] && [ -n "$(squeue -h -o %i)" ]; do
    victim="$(five_piece_running)"
    [ -n "$victim" ] || sleep 0.5
done
[ -n "$victim" ] || { echo "no 5-piece job was seen running" >&2; exit 1; }
sleep 1
echo "killing job $victim"
scancel "${victim%% *}"
wait_empty
missing=$("$damka" plan --variant russian --pieces 5 --dir "$work/slurm" --format json |
    python3 -c 'import json, sys; print(len(json.load(sys.stdin)["tasks"]))')
echo "after the kill, $missing tasks are left"
[ "$missing" -gt 0 ] || { echo "the kill left nothing to do: it was not a real kill" >&2; exit 1; }
(cd "$work" && bash submit.sh > submit-2.log)
echo "re-submitted $(grep -c '^submitted' "$work/submit-2.log") jobs"
wait_empty
slurm_tables=$(( $(date +%s) - started ))

started=$(date +%s)
"$damka" gen --variant russian --pieces 5 --dir "$work/plain" --quiet > /dev/null
plain_tables=$(( $(date +%s) - started ))
same_files "$work/plain" "$work/slurm"

started=$(date +%s)
"$damka" plan --variant russian --pieces 4 --dir "$work/slurm" --rules russian --format slurm > "$work/submit-rules.sh"
(cd "$work" && bash submit-rules.sh > submit-rules.log)
echo "submitted $(grep -c '^submitted' "$work/submit-rules.log") rule jobs"
wait_empty
slurm_rules=$(( $(date +%s) - started ))
started=$(date +%s)
"$damka" gen --variant russian --pieces 4 --dir "$work/plain" --rules russian --quiet > /dev/null
plain_rules=$(( $(date +%s) - started ))
same_files "$work/plain" "$work/slurm"
left=$("$damka" plan --variant russian --pieces 5 --dir "$work/slurm" --format json |
    python3 -c 'import json, sys; print(len(json.load(sys.stdin)["tasks"]))')
[ "$left" = 0 ] || { echo "$left tasks still planned" >&2; exit 1; }
echo "PASS: Russian ≤5 through Slurm with one job killed: ${slurm_tables} s (plain gen: ${plain_tables} s);" \
    "russian rule tables ≤4 through Slurm: ${slurm_rules} s (plain: ${plain_rules} s)"
