"""Shared fixtures: the `damka` command-line program, and tables built with it.

The tests need the `damka` binary: set DAMKA_BIN to it (`cargo build --release`
makes target/release/damka), or put it on PATH. They build their own small
tables (Russian up to 4 pieces with the Russian rule tables up to 3 pieces,
International up to 3 pieces) into a temporary
directory.
"""

import json
import os
import shutil
import subprocess

import pytest


def _damka_binary():
    path = os.environ.get("DAMKA_BIN") or shutil.which("damka")
    if not path:
        raise RuntimeError(
            "these tests need the damka binary: set DAMKA_BIN to it "
            "(cargo build --release; DAMKA_BIN=target/release/damka) or put it on PATH"
        )
    return path


class Damka:
    """Runs the `damka` command-line program."""

    def __init__(self, path):
        self.path = path

    def run(self, *args, stdin=""):
        done = subprocess.run(
            [self.path, *args], input=stdin, capture_output=True, text=True, check=False
        )
        return done

    def probe_json(self, tables, variant, fens, *extra):
        """`damka probe --json` on `fens`: one dict per FEN."""
        done = self.run(
            "probe", "--json", "--dir", str(tables), "--variant", variant, *extra,
            stdin="".join(f + "\n" for f in fens),
        )
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(lines) == len(fens), done.stderr
        return lines


@pytest.fixture(scope="session")
def cli():
    """The `damka` command-line program."""
    return Damka(_damka_binary())


@pytest.fixture(scope="session")
def tables(cli, tmp_path_factory):
    """The root directory of the test tables, called `tables` as in the README."""
    root = tmp_path_factory.mktemp("work") / "tables"
    root.mkdir()
    d = str(root)
    steps = [
        ["--variant", "russian", "--pieces", "4"],
        ["--variant", "russian", "--pieces", "3", "--rules", "russian"],
        ["--variant", "international", "--pieces", "3"],
    ]
    for step in steps:
        done = cli.run("gen", "--dir", d, "--quiet", *step)
        assert done.returncode == 0, done.stderr
    return root
