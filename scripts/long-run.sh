#!/usr/bin/env bash
# Long builds: every table of a variant up to N pieces, verified group by group
# beside the build (scripts/verify-groups.sh), with the wall time and peak memory
# of each step. Safe to interrupt and re-run: finished tables are kept and
# skipped, and so are groups the ledger already records as verified.
#
#   bash scripts/long-run.sh russian 6        # about 10 minutes on 2 cores
#   bash scripts/long-run.sh russian 7        # hours; see README "Long runs"
#   bash scripts/long-run.sh international 6  # hours; see README "Long runs"
#
# DIR (default ./tables) chooses the table directory, MEMORY a `--memory` budget
# (e.g. 4G; International 6 needs at least 4785M, for `2M1K-1M2K`, and
# with RULES=fmjd at least 14569M, for the rule tables of `1M2K-0M3K`), LEDGER the verification ledger (default DIR/<variant>-verify.tsv;
# docs/verify/ keeps the published ones). RULES (a preset such as
# `russian` or `fmjd`, or a TOML file) also builds and verifies that rule set's
# tables (DTC, RWDL, DTZ, counted DTC), verifies them group by group beside
# that build into RULES_LEDGER (default DIR/<variant>-<set>-verify.tsv), and prints their
# cursed-win statistics; RULES_NAME names the set's files when RULES is a TOML
# file (default: RULES itself); VERIFY_MEMORY (e.g. 6G) bounds the rule
# verifier beside the build (`damka verify --memory`), so the two fit together
# (MEMORY=15G VERIFY_MEMORY=6G on 24 GiB):
#
#   RULES=russian bash scripts/long-run.sh russian 6   # hours on 2 cores (verifying the rule tables alone: 49 min)
set -euo pipefail
cd "$(dirname "$0")/.."
variant="${1:?usage: long-run.sh <russian|international> <pieces>}"
pieces="${2:?usage: long-run.sh <russian|international> <pieces>}"
dir="${DIR:-tables}"
cargo build --release --quiet
log="$dir/$variant-$pieces.log"
ledger="${LEDGER:-$dir/$variant-verify.tsv}"
mkdir -p "$dir"
echo "building $variant up to $pieces pieces into $dir (log: $log)"
/usr/bin/time -v ./target/release/damka gen --variant "$variant" --pieces "$pieces" --dir "$dir" \
    ${MEMORY:+--memory "$MEMORY"} > >(tee -a "$log") 2> >(tee -a "$log.time" >&2) &
gen=$!
# Each group is verified as soon as it is written, beside the build.
verified=0
RULES= WAIT=$gen DAMKA=./target/release/damka /usr/bin/time -v bash scripts/verify-groups.sh \
    "$variant" "$dir" "$ledger" 2> >(tee "$log.verify-time" >&2) | tee -a "$log" || verified=$?
wait $gen
grep -E "Elapsed|Maximum resident" "$log.time" "$log.verify-time"
if [ $verified != 0 ]; then
    echo "verification failed: see $ledger and $log" >&2
    exit 1
fi
if [ -n "${RULES:-}" ]; then
    /usr/bin/time -v ./target/release/damka gen --variant "$variant" --pieces "$pieces" \
        --dir "$dir" --rules "$RULES" ${MEMORY:+--memory "$MEMORY"} --quiet \
        > >(tee -a "$log") 2> >(tee "$log.rules-time" >&2) &
    rules_gen=$!
    # Group by group into a ledger beside the build, each group once the build
    # has logged it, so that an interrupted verification resumes.
    name="${RULES_NAME:-$RULES}"
    rules_verified=0
    RULES_NAME="$name" WAIT=$rules_gen BUILD_LOG="$log" DAMKA=./target/release/damka \
        /usr/bin/time -v bash scripts/verify-groups.sh \
        "$variant" "$dir" "${RULES_LEDGER:-$dir/$variant-$name-verify.tsv}" \
        2> >(tee "$log.rules-verify-time" >&2) | tee -a "$log" || rules_verified=$?
    wait $rules_gen
    if [ $rules_verified != 0 ]; then
        echo "rule verification failed: see the ledger and $log" >&2
        exit 1
    fi
    ./target/release/damka stats --variant "$variant" --dir "$dir" --rules "$RULES" \
        --pieces "$pieces" | tee -a "$log"
    grep -E "Elapsed|Maximum resident" "$log.rules-time" "$log.rules-verify-time"
fi
