#!/usr/bin/env bash
# A rule set's tables one group at a time, each group with only what it depends
# on, for a machine that may not outlive a session. scripts/long-run.sh builds
# every game-theoretic table before the first rule table (1 h 50 min for
# International 6), so a short-lived machine verifies little or nothing; this
# script takes the groups in build order and, for each whose rule tables the
# ledger does not record as verified:
#
# 1. builds its closure: `damka gen --slice G --with-dependencies --rules SET`,
#    the game and rule tables of the group and of everything it depends on,
#    directly or not, that are missing, and nothing else;
# 2. checks the game tables built against LEDGER and verifies the rule groups
#    built against RULES_LEDGER (scripts/verify-groups.sh: a group whose files
#    hash to a ledger line is not verified again).
#
#   DIR=/work/tables MEMORY=15G VERIFY_MEMORY=6G LEDGER=docs/verify/international.tsv \
#     RULES=fmjd RULES_LEDGER=docs/verify/international-fmjd.tsv \
#     bash scripts/rules-by-group.sh international 6
#
# With STATS=FILE.json, after each group it also counts the rule tables at
# hand into FILE (`damka stats --rules SET --format json --reuse FILE`): a
# slice FILE already has with the same checksum is not counted again, and the
# slices of groups verified on earlier machines are carried over, so FILE
# grows into the statistics of the whole set (render it with `damka stats
# --rules SET --reuse FILE --out REPORT.md`).
#
# FIRST_GROUPS="G1 G2 ..." takes those groups first, in that order, then the
# rest in build order: on a machine that may not outlive a session, the groups
# whose closures add least to what is built come first, so ledger lines land
# sooner; scripts/closure-order.py computes that order from `damka plan`.
#
# RULES (required: a preset or a TOML file), RULES_NAME, DIR, MEMORY,
# VERIFY_MEMORY, LEDGER and RULES_LEDGER mean what they mean for
# scripts/long-run.sh; DAMKA chooses the binary (default: this checkout's
# release build). Safe to interrupt and run again: finished tables are skipped,
# and a check stopped part-way resumes from its checkpoint. Ends with status 1
# when a verification fails.
set -euo pipefail
cd "$(dirname "$0")/.."
variant="${1:?usage: rules-by-group.sh <russian|international> <pieces>}"
pieces="${2:?usage: rules-by-group.sh <russian|international> <pieces>}"
rules="${RULES:?rules-by-group.sh: set RULES to a rule set (a preset or a TOML file)}"
name="${RULES_NAME:-$rules}"
dir="${DIR:-tables}"
ledger="${LEDGER:-$dir/$variant-verify.tsv}"
rules_ledger="${RULES_LEDGER:-$dir/$variant-$name-verify.tsv}"
if [ -z "${DAMKA:-}" ]; then
    cargo build --release --quiet
    DAMKA=./target/release/damka
fi
export DAMKA
mkdir -p "$dir"
touch "$rules_ledger"
log="$dir/$variant-$pieces-by-group.log"

# The mirror of a slice name: `aMbK-cMdK` becomes `cMdK-aMbK`.
mirror() { echo "${1#*-}-${1%-*}"; }

all=$("$DAMKA" slices --variant "$variant" --pieces "$pieces" \
    | awk '$1 ~ /^[0-9]+M[0-9]+K-[0-9]+M[0-9]+K$/ { print $1 }')
for first in ${FIRST_GROUPS:-}; do
    if ! grep -qx -- "$first" <<< "$all"; then
        echo "rules-by-group.sh: FIRST_GROUPS names $first, not a slice of $variant up to $pieces pieces" >&2
        exit 2
    fi
done
declare -A seen
for slice in ${FIRST_GROUPS:-} $all; do
    # A group as the ledgers name it: the first of its slices in name order.
    group=$slice
    m=$(mirror "$slice")
    [[ "$m" < "$group" ]] && group=$m
    [ -z "${seen[$group]:-}" ] || continue
    seen[$group]=1
    if grep -q "^$group	[0-9]*	0	" "$rules_ledger"; then
        continue
    fi
    start=$(date +%s)
    "$DAMKA" gen --variant "$variant" --pieces "$pieces" --dir "$dir" --slice "$group" \
        --with-dependencies --rules "$rules" ${MEMORY:+--memory "$MEMORY"} --quiet >> "$log"
    built=$(date +%s)
    RULES= bash scripts/verify-groups.sh "$variant" "$dir" "$ledger" | sed 's/^/game: /'
    RULES="$rules" RULES_NAME="$name" bash scripts/verify-groups.sh "$variant" "$dir" "$rules_ledger" \
        | sed "s/^/$name: /"
    echo "$group: closure built in $((built - start)) s, checked in $(($(date +%s) - built)) s"
    if [ -n "${STATS:-}" ]; then
        earlier=()
        [ -f "$STATS" ] && earlier=(--reuse "$STATS")
        # Its progress lines (`stats: SLICE`) are dropped, its errors kept; a
        # failure is reported and the run goes on (the next group counts again).
        if "$DAMKA" stats --variant "$variant" --dir "$dir" --pieces "$pieces" --rules "$rules" \
            --format json "${earlier[@]}" --out "$STATS" 2> >(grep -v '^stats: ' >&2); then
            echo "$group: rule statistics counted into $STATS"
        else
            echo "$group: rule statistics not counted (above); the run goes on" >&2
        fi
    fi
done
echo "every group of $variant up to $pieces pieces has its $name rule tables verified in $rules_ledger"
