#!/usr/bin/env python3
"""An order for scripts/rules-by-group.sh's FIRST_GROUPS: cheapest closure first.

Reads a build plan (`damka plan --rules SET --dir DIR --format json`, which
leaves out the tasks whose tables DIR already holds) on standard input and a
rule ledger (scripts/verify-groups.sh's TSV) named as the only argument. For
the rule groups the ledger does not record as verified, it prints one line a
group, `GROUP<TAB>POSITIONS`, in the order that builds least before each next
group can be verified: each step takes the group whose closure (its rule task
and everything that task depends on, directly or not, not built yet) holds
the fewest positions, and POSITIONS is what that step adds. Ties go to build
order.

    damka plan --variant international --pieces 6 --rules fmjd --dir /work/tables \\
        --format json | python3 scripts/closure-order.py docs/verify/international-fmjd.tsv
"""
import json
import signal
import sys


def group_of(slices):
    """A group as the ledgers name it: the least slice name of the pair."""
    return min(slices)


def verified(ledger):
    """The groups with a line of 0 mismatches in the ledger."""
    try:
        with open(ledger) as lines:
            fields = [line.rstrip("\n").split("\t") for line in lines]
    except FileNotFoundError:
        return set()
    return {f[0] for f in fields if len(f) > 2 and f[2] == "0"}


def main():
    # A reader that stops early (`| head`) ends the output quietly.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(sys.argv) != 2:
        sys.exit("usage: damka plan ... --format json | closure-order.py RULES_LEDGER")
    try:
        plan = json.load(sys.stdin)
        tasks = {task["id"]: task for task in plan["tasks"]}
    except (ValueError, KeyError, TypeError) as e:
        sys.exit(f"closure-order.py: standard input is not a `damka plan --format json` plan ({e})")
    done = verified(sys.argv[1])

    def closure(start):
        seen, todo = set(), [start]
        while todo:
            task = todo.pop()
            if task not in seen:
                seen.add(task)
                todo.extend(tasks[task]["depends_on"])
        return seen

    closures = {
        group_of(task["slices"]): closure(task["id"])
        for task in plan["tasks"]
        if task["kind"] == "rules" and group_of(task["slices"]) not in done
    }
    built = set()
    while closures:
        group = min(
            closures,
            key=lambda g: sum(tasks[t]["positions"] for t in closures[g] - built),
        )
        added = closures.pop(group) - built
        print(f"{group}\t{sum(tasks[t]['positions'] for t in added)}")
        built |= added


if __name__ == "__main__":
    main()
