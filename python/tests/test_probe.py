"""Tablebase.probe, pv, probe_rules and max_pieces, the move generator, and the
errors: ValueError for bad input, the TableError family for table problems."""

import pathlib
import shutil

import pytest

import damka

THREE_KINGS = "W:WKa1,Kc1,Ke1:BKh2"
# A win in 3 plies that the Russian rule R2 curses after 4.5 moves played.
TWO_KINGS = "W:WKa1,Kc3:BKh8"
INITIAL = {
    "russian": "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "international": "W:W" + ",".join(map(str, range(31, 51))) + ":B"
    + ",".join(map(str, range(1, 21))),
}


@pytest.fixture(scope="module")
def russian(tables):
    return damka.Tablebase(tables, "russian")


def test_probe_answers_as_the_command_line(russian, tables, cli):
    expected = cli.probe_json(tables, "russian", [THREE_KINGS])[0]
    got = russian.probe(THREE_KINGS)
    assert isinstance(got, damka.Probe)
    assert got.wdl == 1
    assert got.dtw == expected["dtw"] and got.dtw > 0
    assert got.best_move == expected["best_move"]
    assert got == russian.probe(THREE_KINGS)
    assert repr(got).startswith("Probe(wdl=1, dtw=")


def test_a_draw_has_no_distance(russian):
    draw = russian.probe("W:WKc1:BKh2")
    assert (draw.wdl, draw.dtw) == (0, None)
    assert draw.best_move in damka.moves("russian", "W:WKc1:BKh2")


def test_pv_is_the_command_lines(russian, tables, cli):
    line = russian.pv(THREE_KINGS)
    expected = cli.probe_json(tables, "russian", [THREE_KINGS], "--pv")[0]
    assert line == expected["pv"]
    assert len(line) == russian.probe(THREE_KINGS).dtw
    assert line[0] in damka.moves("russian", THREE_KINGS)


def test_max_pieces(russian, tables):
    assert russian.max_pieces == 4
    assert damka.Tablebase(str(tables), "international").max_pieces == 3


def test_rules_answer_as_the_command_line(russian, tables, cli):
    for played, name in [(4, "win"), (4.5, "cursed-win")]:
        got = russian.probe_rules(TWO_KINGS, rule_set="russian", played={"R2": played})
        text = f"R2={played}"
        expected = cli.probe_json(
            tables, "russian", [TWO_KINGS], "--rules", "russian", "--played", text
        )[0]["rules"]
        assert (got.name, got.rule, got.distance, got.best_move) == (
            expected["wdl"], expected["rule"], expected["distance"], expected["best_move"]
        ), text
        assert got.name == name
    assert russian.probe_rules(TWO_KINGS, played={"R2": 4.5}).value == 1
    assert russian.probe_rules(TWO_KINGS).value == 2
    assert russian.probe_rules("W:WKc1:BKh2").value == 0


def test_bad_input_is_a_value_error(russian):
    for fen in ["", "W:Wz9:Bh8", "X:Wa1:Bh8", "W:Wa1,a1:Bh8", "W:Wh8:Ba1"]:
        with pytest.raises(ValueError, match="FEN"):
            russian.probe(fen)
    with pytest.raises(ValueError, match="invalid position"):
        russian.probe("W:WKa1:B")
    with pytest.raises(ValueError, match="variant"):
        damka.Tablebase(".", "chess")
    with pytest.raises(ValueError, match="no-such-set"):
        russian.probe_rules(TWO_KINGS, rule_set="no-such-set")
    with pytest.raises(ValueError, match="R9"):
        russian.probe_rules(TWO_KINGS, played={"R9": 1})
    with pytest.raises(ValueError, match="not in force"):
        russian.probe_rules("W:WKa1:BKh8", played={"R1": 4})
    with pytest.raises(ValueError, match=r"\.5"):
        russian.probe_rules(TWO_KINGS, played={"R2": 4.25})
    with pytest.raises(TypeError):
        russian.probe_many("W:WKa1:BKh8")


def test_table_problems_are_table_errors(russian, tables, tmp_path):
    with pytest.raises(damka.MissingTableError, match="no russian tables"):
        damka.Tablebase(tmp_path, "russian")
    with pytest.raises(damka.NotCoveredError, match="5 pieces"):
        russian.probe("W:WKa1,Kc1,Ke1:BKh2,Kh8")
    assert issubclass(damka.NotCoveredError, damka.TableError)
    assert issubclass(damka.MissingTableError, damka.TableError)
    assert issubclass(damka.CorruptTableError, damka.TableError)

    copy = tmp_path / "copy"
    shutil.copytree(pathlib.Path(tables) / "russian", copy / "russian")
    (copy / "russian" / "0M3K-0M1K.dtw.dkt").unlink()
    with pytest.raises(damka.MissingTableError, match="0M3K-0M1K"):
        damka.Tablebase(copy, "russian").probe(THREE_KINGS)

    corrupt = copy / "russian" / "0M2K-0M1K.dtw.dkt"
    data = corrupt.read_bytes()
    corrupt.write_bytes(data[: len(data) // 2])
    with pytest.raises(damka.CorruptTableError, match="0M2K-0M1K"):
        damka.Tablebase(copy, "russian").probe("W:WKa1,Kc1:BKh2")


@pytest.mark.parametrize("variant", ["russian", "international"])
def test_moves_and_perft_agree_with_the_command_line(cli, variant):
    fen = INITIAL[variant]
    done = cli.run("perft", "--variant", variant, "--depth", "4", "--fen", fen)
    assert done.returncode == 0, done.stderr
    expected = [line.split() for line in done.stdout.splitlines()]
    assert len(expected) == 4
    for _, depth, nodes in expected:
        assert damka.perft(variant, fen, int(depth)) == int(nodes)
    assert damka.perft(variant, fen, 1) == len(damka.moves(variant, fen))


def test_moves_print_the_route_of_a_capture():
    assert damka.moves("russian", "W:Wc3:Bd4,f6") == ["c3:e5:g7"]
    assert sorted(damka.moves("international", "W:W32:B5")) == ["32-27", "32-28"]
    with pytest.raises(ValueError, match="FEN"):
        damka.moves("russian", "W:Wc3:Bz1")
    with pytest.raises(ValueError, match="variant"):
        damka.perft("checkers", "W:Wc3:Bd4", 1)
