#!/usr/bin/env bash
# Verifies a table set group by group (`damka verify --slice`), smallest groups
# first, and records each verified group in a ledger, so that a verification
# can span sessions and machines:
#
#   bash scripts/verify-groups.sh russian /work/tables docs/verify/russian.tsv
#
# A ledger line is: group, positions, mismatches, the SHA-256 of the group's
# files (`sha256sum` of its `.wdl.dkt` and `.dtw.dkt` files, sorted by name),
# the commit of `damka`, the date. A group whose files hash to a ledger line is
# skipped: those bytes were verified before (the build is deterministic, so a
# rebuild on another machine gives the same bytes). The script ends with status
# 1 if any group of DIR has mismatches in the ledger, or could not be verified.
#
# With WAIT=PID it keeps going while process PID (a `damka gen` filling DIR)
# runs, verifying each group as soon as its files are there. DAMKA chooses
# the binary (default: this checkout's release build).
#
# With RULES=SET it verifies the rule tables of SET instead (`damka verify
# --rules SET --slice`): a group is taken once both slices' RWDL files are
# there, and its hash covers every rule file of SET of both slices. When SET is
# a TOML file, RULES_NAME gives the set's name, which its files carry.
#
# VERIFY_MEMORY=SIZE (e.g. 6G) bounds what each rule check sizes its windows,
# block cache and decoded tables to (`damka verify --memory`), so that it fits
# beside a build; by default it takes a share of the memory available when the
# group starts.
#
# With METRIC=mtc it verifies the MTC tables instead (`damka verify --metric
# mtc --slice`): a group is taken once both slices' `.mtc.dkt` files are there,
# and its hash covers those files.
#
# Hashing every group's files again on each run reads the whole set (about 170 s
# for International 6 with its rule tables), so each file's `sha256sum` line is
# kept in HASH_CACHE (default DIR/VARIANT-sha256.tsv), keyed by the file's name,
# length, inode and modification time: a file written again (tables are
# written to a new file and renamed) or edited in place gets a new key and is
# hashed again.
#
# Each group's check keeps a checkpoint (`damka verify --checkpoint`) in
# CHECKPOINTS (default DIR/verify-checkpoints), so a check stopped part-way (a
# kill, the end of a session) resumes where it stopped the next time the script
# runs; the checkpoint is removed once the group's ledger line is written.
# A checkpoint names the tables by their content, so one copied to another
# machine that rebuilt the same bytes resumes there: for a run that outlives
# its machine, point CHECKPOINTS into the clone (docs/verify/checkpoints) and
# commit what it holds.
#
# A check killed by a signal (the kernel's out-of-memory killer beside a
# build, say) is tried again from its checkpoint, up to KILL_RETRIES (default
# 3) times, RETRY_SLEEP (default 30) seconds later.
#
# A rule group writes its DTZ files after its RWDL files, and an MTC group its
# two files one after the other, so with RULES or METRIC=mtc a group is only
# known finished when the build has logged it. WAIT then needs BUILD_LOG=FILE,
# the standard output of every `damka gen` run into DIR (appended run after
# run): a group is taken once FILE has its line (`rules SET A B ...`, `mtc A B
# ...`). Without WAIT, run it on a finished set, or again after the build has
# gone on (a group that failed for a missing file is tried again; it has no
# ledger line).
set -euo pipefail
cd "$(dirname "$0")/.."
variant="${1:?usage: verify-groups.sh <russian|international> <dir> <ledger>}"
dir="${2:?usage: verify-groups.sh <russian|international> <dir> <ledger>}"
ledger="${3:?usage: verify-groups.sh <russian|international> <dir> <ledger>}"
rules="${RULES:-}"
set_name="${RULES_NAME:-$rules}"
metric="${METRIC:-dtw}"
case "$metric" in
    dtw | mtc) ;;
    *)
        echo "verify-groups.sh: METRIC must be dtw or mtc, not $metric" >&2
        exit 2
        ;;
esac
metric_args=()
[ "$metric" = dtw ] || metric_args=(--metric "$metric")
memory_args=()
[ -n "$rules" ] && [ -n "${VERIFY_MEMORY:-}" ] && memory_args=(--memory "$VERIFY_MEMORY")
if [ -n "$rules" ] && [ "$metric" = mtc ]; then
    echo "verify-groups.sh: RULES and METRIC=mtc do not go together" >&2
    exit 2
fi
build_log="${BUILD_LOG:-}"
if { [ -n "$rules" ] || [ "$metric" = mtc ]; } && [ -n "${WAIT:-}" ] && [ -z "$build_log" ]; then
    echo "verify-groups.sh: WAIT with RULES or METRIC=mtc needs BUILD_LOG (see the header)" >&2
    exit 2
fi
if [ -z "${DAMKA:-}" ]; then
    cargo build --release --quiet
    DAMKA=./target/release/damka
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
mkdir -p "$(dirname "$ledger")"
touch "$ledger"
tables="$dir/$variant"
checkpoints="${CHECKPOINTS:-$dir/verify-checkpoints}"
hash_cache="${HASH_CACHE:-$dir/$variant-sha256.tsv}"
KILL_RETRIES="${KILL_RETRIES:-3}"
mkdir -p "$checkpoints"
failed=0
declare -A tried kills

# The mirror of a slice name: `aMbK-cMdK` becomes `cMdK-aMbK`.
mirror() { echo "${1#*-}-${1%-*}"; }

# Pieces of a slice name, for the order.
pieces() { echo "$1" | grep -o '[0-9]\+' | awk '{ n += $1 } END { print n }'; }

# The files of group `$1` that its hash covers, by name, sorted.
group_files() {
    local a=$1 b
    b=$(mirror "$a")
    (cd "$tables" && if [ -n "$rules" ]; then
        for f in "$a.$set_name".*.dkt "$b.$set_name".*.dkt; do
            [ ! -e "$f" ] || echo "$f"
        done
    elif [ "$metric" = mtc ]; then
        for f in "$a".mtc.dkt "$b".mtc.dkt; do
            [ ! -e "$f" ] || echo "$f"
        done
    else
        for f in "$a".wdl.dkt "$a".dtw.dkt "$b".wdl.dkt "$b".dtw.dkt; do
            [ ! -e "$f" ] || echo "$f"
        done
    fi | sort -u)
}

# The SHA-256 of a group's files: of their `sha256sum` lines, sorted by name.
# A line comes from HASH_CACHE where the file's key is there, and goes there
# where not.
declare -A sums
if [ -f "$hash_cache" ]; then
    while IFS=$'\t' read -r key sum; do
        sums["$key"]=$sum
    done < "$hash_cache"
fi
group_hash() {
    local name key lines=""
    # One `stat` for the group's files: name, length, inode, modification time.
    while read -r name key; do
        if [ -z "${sums["$name $key"]:-}" ]; then
            sums["$name $key"]=$(cd "$tables" && sha256sum "$name")
            printf '%s\t%s\n' "$name $key" "${sums["$name $key"]}" >> "$hash_cache"
        fi
        lines+="${sums["$name $key"]}"$'\n'
    done < <(group_files "$1" | (cd "$tables" && xargs stat -c '%n %s %i %.9Y'))
    printf '%s' "$lines" | sha256sum | cut -c1-64
}

# Whether a group's WDL file is written: `damka gen` writes a group's DTW files
# first and its WDL file last, so a WDL file no older than the DTW files.
wdl_written() {
    local a=$1 b w
    b=$(mirror "$a")
    for w in "$tables/$a.wdl.dkt" "$tables/$b.wdl.dkt"; do
        [ -e "$w" ] && ! [ "$tables/$a.dtw.dkt" -nt "$w" ] && ! [ "$tables/$b.dtw.dkt" -nt "$w" ] \
            && return 0
    done
    return 1
}

# Whether BUILD_LOG (if set) has the line of group `$1` finished: `rules SET`
# or `mtc`, then the group's first slice and its mirror, in either order.
logged() {
    local label=mtc a=$1 b
    [ -n "$build_log" ] || return 0
    [ -z "$rules" ] || label="rules $set_name"
    b=$(mirror "$a")
    grep -qE "^$label ([^ ]+ )?($a|$b)( |\$)" "$build_log" 2>/dev/null
}

# Groups whose files are all there (both slices' DTW files when the mirror is
# another slice, and the WDL file; with RULES, both slices' RWDL files; with
# METRIC=mtc, both slices' MTC files) and, with BUILD_LOG, logged as built,
# each named once, smallest first.
groups() {
    local name m suffix=.dtw.dkt
    [ -z "$rules" ] || suffix=".$set_name.rwdl.dkt"
    [ "$metric" != mtc ] || suffix=.mtc.dkt
    for file in "$tables"/*"$suffix"; do
        [ -e "$file" ] || continue
        name=$(basename "$file" "$suffix")
        m=$(mirror "$name")
        [[ "$m" < "$name" ]] && [ -e "$tables/$m$suffix" ] && continue
        [ "$m" != "$name" ] && [ ! -e "$tables/$m$suffix" ] && continue
        [ -n "$rules" ] || [ "$metric" = mtc ] || wdl_written "$name" || continue
        logged "$name" || continue
        echo "$(pieces "$name") $name"
    done | sort -n -k1,1 -k2,2 | cut -d' ' -f2
}

while true; do
    running=0
    if [ -n "${WAIT:-}" ] && kill -0 "$WAIT" 2>/dev/null; then
        running=1
    fi
    progressed=0
    retry=0
    for group in $(groups); do
        [ -n "${tried[$group]:-}" ] && continue
        hash=$(group_hash "$group")
        if grep -q "^$group	[0-9]*	[0-9]*	$hash	" "$ledger"; then
            grep -q "^$group	[0-9]*	0	$hash	" "$ledger" || failed=1
            tried[$group]=1
            continue
        fi
        tried[$group]=1
        start=$(date +%s)
        checkpoint="$checkpoints/$variant.${set_name:-$metric}.$group"
        status=0
        out=$("$DAMKA" verify --variant "$variant" --dir "$dir" --slice "$group" \
            ${rules:+--rules "$rules"} "${metric_args[@]}" "${memory_args[@]}" \
            --checkpoint "$checkpoint" \
            --quiet 2>&1) || status=$?
        line=$(echo "$out" | grep '^verified ' || true)
        if [ -z "$line" ] && [ $status -gt 128 ] && [ "${kills[$group]:-0}" -lt $KILL_RETRIES ]; then
            # Killed by a signal (the kernel's out-of-memory killer, say): tried
            # again on the next pass, from its checkpoint.
            kills[$group]=$((${kills[$group]:-0} + 1))
            echo "$group: killed by signal $((status - 128)), will try again from its checkpoint" >&2
            unset "tried[$group]"
            retry=1
            continue
        fi
        if [ -z "$line" ]; then
            echo "$group: $out" >&2
            failed=1
            continue
        fi
        positions=$(echo "$line" | awk '{print $4}')
        mismatches=$(echo "$line" | awk '{print $6}')
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$group" "$positions" "$mismatches" "$hash" \
            "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$ledger"
        rm -f "$checkpoint"
        resumed=$(echo "$out" | sed -n 's/^resumed: \([0-9]*\) .*/, \1 of them from the checkpoint/p')
        echo "$group: $positions positions, $mismatches mismatches, $(($(date +%s) - start)) s$resumed"
        [ "$mismatches" = 0 ] || failed=1
        progressed=1
    done
    [ $running = 1 ] || [ $progressed = 1 ] || [ $retry = 1 ] || break
    [ $progressed = 0 ] && sleep "${RETRY_SLEEP:-30}"
done
verified=$(awk -F'\t' '$3 == 0' "$ledger" | wc -l)
echo "ledger $ledger: $verified groups verified with 0 mismatches"
exit $failed
