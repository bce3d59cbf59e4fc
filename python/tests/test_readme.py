"""The README's Python example runs as printed, on tables in ./tables, and
counts what it says it counts."""

import math
import pathlib

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def readme_example():
    section = README.read_text().split("\n## From Python\n")[1]
    return section.split("```python\n")[1].split("```")[0]


def test_the_readme_example_counts_wins_per_slice(tables, cli, monkeypatch, capsys):
    monkeypatch.chdir(tables.parent)
    scope = {}
    exec(compile(readme_example(), "README.md", "exec"), scope)
    printed = capsys.readouterr().out
    rows = {row["slice"]: row for row in scope["rows"]}
    assert set(rows) == {"0M1K-0M1K", "0M2K-0M1K", "0M1K-0M2K", "0M3K-0M1K", "0M2K-0M2K"}
    for name, row in rows.items():
        white, black = int(name[2]), int(name[7])
        assert row["positions"] == math.comb(32, white + black) * math.comb(white + black, white)
        assert row["wins"] + row["draws"] + row["losses"] == row["positions"]
        assert name in printed
    # Petrov's triangle: three kings beat one off the main road.
    assert rows["0M3K-0M1K"]["wins"] > rows["0M3K-0M1K"]["draws"] > 0
    lone = list(scope["kings"](1, 1))
    wins = sum(line["wdl"] == "win" for line in cli.probe_json(tables, "russian", lone))
    assert rows["0M1K-0M1K"]["wins"] == wins
