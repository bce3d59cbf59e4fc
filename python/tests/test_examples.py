"""The example programs of python/examples run."""

import pathlib
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def test_probe_many_rate_runs(tables):
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "probe_many_rate.py"), str(tables), "4", "300"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "probe_many:" in done.stdout and "positions/s" in done.stdout
