"""Tablebase.probe_many against `damka probe --json` on 1,000 positions, and
against Tablebase.probe one by one."""

import random

import pytest

import damka

DARK = [f"{'abcdefgh'[f]}{r + 1}" for r in range(8) for f in range(8) if (f + r) % 2 == 0]


def random_positions(count, seed):
    """`count` distinct legal Russian positions of 2 to 4 pieces, each side at
    least one, drawn with a fixed seed."""
    rng = random.Random(seed)
    fens = set()
    while len(fens) < count:
        squares = rng.sample(DARK, rng.randint(2, 4))
        sides = {"W": [], "B": []}
        for i, square in enumerate(squares):
            color = "W" if i == 0 else "B" if i == 1 else rng.choice("WB")
            king = rng.random() < 0.4
            promotion_row = "8" if color == "W" else "1"
            if not king and square[1] == promotion_row:
                king = True
            sides[color].append(("K" if king else "") + square)
        side = rng.choice("WB")
        fens.add(f"{side}:W{','.join(sides['W'])}:B{','.join(sides['B'])}")
    return sorted(fens)


@pytest.fixture(scope="module")
def russian(tables):
    return damka.Tablebase(tables, "russian")


def test_probe_many_agrees_with_the_command_line_on_1000_positions(russian, tables, cli):
    fens = random_positions(1000, seed=15)
    got = russian.probe_many(fens)
    assert set(got) == {"wdl", "dtw", "best_move"}
    assert all(len(column) == 1000 for column in got.values())
    expected = cli.probe_json(tables, "russian", fens)
    names = {1: "win", 0: "draw", -1: "loss"}
    for i, (fen, line) in enumerate(zip(fens, expected)):
        assert "error" not in line, line
        assert line["fen"] == fen
        assert (names[got["wdl"][i]], got["dtw"][i], got["best_move"][i]) == (
            line["wdl"], line["dtw"], line["best_move"]
        ), fen
    decided = sum(1 for w in got["wdl"] if w != 0)
    assert decided > 100, f"only {decided} decided positions: not a test of much"


def test_probe_many_is_probe_one_by_one(russian):
    fens = random_positions(200, seed=16)
    many = russian.probe_many(fens)
    for i, fen in enumerate(fens):
        one = russian.probe(fen)
        assert (one.wdl, one.dtw, one.best_move) == (
            many["wdl"][i], many["dtw"][i], many["best_move"][i]
        )
    assert russian.probe_many([]) == {"wdl": [], "dtw": [], "best_move": []}


def test_probe_many_names_the_first_bad_position(russian):
    fens = ["W:WKa1:BKh8", "W:Wz9:Bh8", "W:WKa1,Kc1,Ke1:BKh2,Kh8"]
    with pytest.raises(ValueError, match=r"position 1 \(`W:Wz9:Bh8`\): bad FEN"):
        russian.probe_many(fens)
    with pytest.raises(damka.NotCoveredError, match="position 1"):
        russian.probe_many([fens[0], fens[2]])


def random_international(count, seed):
    """`count` distinct legal International positions of 2 or 3 pieces."""
    rng = random.Random(seed)
    fens = set()
    while len(fens) < count:
        squares = rng.sample(range(1, 51), rng.randint(2, 3))
        sides = {"W": [], "B": []}
        for i, square in enumerate(squares):
            color = "W" if i == 0 else "B" if i == 1 else rng.choice("WB")
            promotion_row = range(1, 6) if color == "W" else range(46, 51)
            king = rng.random() < 0.4 or square in promotion_row
            sides[color].append(("K" if king else "") + str(square))
        fens.add(f"{rng.choice('WB')}:W{','.join(sides['W'])}:B{','.join(sides['B'])}")
    return sorted(fens)


def test_probe_many_agrees_with_the_command_line_in_international(tables, cli):
    fens = random_international(300, seed=17)
    got = damka.Tablebase(tables, "international").probe_many(fens)
    names = {1: "win", 0: "draw", -1: "loss"}
    for i, line in enumerate(cli.probe_json(tables, "international", fens)):
        assert (names[got["wdl"][i]], got["dtw"][i], got["best_move"][i]) == (
            line["wdl"], line["dtw"], line["best_move"]
        ), fens[i]
    assert any(w != 0 for w in got["wdl"])
