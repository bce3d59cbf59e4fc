"""Damka's endgame tables of Russian and International draughts, from Python.

Type stubs of the extension module built from this directory's Rust crate.
"""

from os import PathLike
from typing import Dict, List, Mapping, Optional, Union

class TableError(Exception):
    """A problem with the tables: missing, corrupt, unreadable, or too few pieces."""

class MissingTableError(TableError):
    """The directory holds no table of the variant, or not the one a position needs."""

class CorruptTableError(TableError):
    """A table file failed a check, or is of another version, variant or rule set."""

class NotCoveredError(TableError):
    """The position has more pieces than the tables cover."""

class Probe:
    """The answer to `Tablebase.probe`, for the side to move."""

    wdl: int
    """1 win, 0 draw, -1 loss."""
    dtw: Optional[int]
    """Plies to the end of the game under best play; None for a draw."""
    best_move: Optional[str]
    """A best move in the variant's notation; None with no legal move."""

class RulesProbe:
    """The answer to `Tablebase.probe_rules`, for the side to move."""

    value: int
    """2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss, -3 unknown."""
    name: str
    """win, cursed-win, draw, blessed-loss, loss or unknown."""
    rule: Optional[str]
    """For a cursed win or a blessed loss, the counter whose limit draws the game."""
    distance: Optional[int]
    """For a win or a loss, plies to the end of the current phase under best play."""
    best_move: Optional[str]
    """The move that keeps the result under the rules; None if none."""
    reason: Optional[str]
    """For unknown, why the answer could not be made exact."""

class Tablebase:
    """The tables of one variant under a directory (`DIR/<variant>/`)."""

    def __init__(self, dir: Union[str, PathLike[str]], variant: str) -> None:
        """Opens the tables of `variant` ("russian" or "international") under `dir`.

        Raises ValueError for an unknown variant, MissingTableError when there
        are no tables.
        """
    @property
    def max_pieces(self) -> int:
        """The most pieces of any table present."""
    def probe(self, fen: str) -> Probe:
        """The value, distance to win and a best move of the position `fen`."""
    def probe_many(self, fens: List[str]) -> Dict[str, list]:
        """Probes every FEN on all cores, without the GIL.

        Returns {"wdl": [...], "dtw": [...], "best_move": [...]} in the order of
        `fens`; raises for the first position that has no answer, naming it.
        """
    def probe_rules(
        self,
        fen: str,
        rule_set: str = "russian",
        played: Optional[Mapping[str, float]] = None,
    ) -> RulesProbe:
        """The value of `fen` under a rule set of move-limit draw rules.

        `rule_set` is a preset ("russian", "russian-1900", "fmjd", "none") or a
        TOML file; `played` the moves of each counter already played, e.g.
        {"R1": 4} (4.5 for one ply more).
        """
    def pv(self, fen: str) -> List[str]:
        """The principal variation of `fen` in the variant's notation."""

def moves(variant: str, fen: str) -> List[str]:
    """The legal moves of the position `fen`, in the variant's notation."""

def perft(variant: str, fen: str, depth: int) -> int:
    """The number of positions reached after exactly `depth` plies from `fen`."""
