"""Scoring both endings exactly as the rule texts say."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import Tile


class EndReason(enum.Enum):
    OUT = "out"  # a player played their last tile ("Rummikub!")
    BLOCKED = "blocked"  # pool empty and a full round passed with no play


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: the winner's seat, each seat's score and rack total."""

    reason: EndReason
    winner: int
    scores: tuple[int, ...]
    rack_values: tuple[int, ...]

    def to_text(self) -> str:
        scores = ",".join(str(s) for s in self.scores)
        racks = ",".join(str(v) for v in self.rack_values)
        return f"{self.reason.value} winner={self.winner} scores={scores} racks={racks}"

    @classmethod
    def from_text(cls, text: str) -> GameResult:
        reason, *parts = text.split()
        fields = dict(p.split("=", 1) for p in parts)
        return cls(
            EndReason(reason),
            int(fields["winner"]),
            tuple(int(s) for s in fields["scores"].split(",")),
            tuple(int(s) for s in fields["racks"].split(",")),
        )


def rack_value(rack: Sequence[Tile]) -> int:
    """What a rack costs its owner: face values, 30 for each joker."""
    return sum(t.rack_value for t in rack)


def score_out(racks: Sequence[Sequence[Tile]], winner: int) -> GameResult:
    """Someone went out: each other player scores minus their rack; the winner the sum."""
    values = [rack_value(r) for r in racks]
    scores = [-v for v in values]
    scores[winner] = sum(v for i, v in enumerate(values) if i != winner)
    return GameResult(EndReason.OUT, winner, tuple(scores), tuple(values))


def score_blocked(racks: Sequence[Sequence[Tile]], starter: int) -> GameResult:
    """Pool empty and nobody can play: the lowest rack wins; the others lose the difference.

    Ties for the lowest total go to the player with fewer tiles, then to the one who comes
    first in turn order from the game's starting player (the rule texts leave ties open).
    """
    values = [rack_value(r) for r in racks]
    n = len(racks)
    order = [(starter + k) % n for k in range(n)]
    winner = min(order, key=lambda s: (values[s], len(racks[s]), order.index(s)))
    best = values[winner]
    scores = [-(v - best) for v in values]
    scores[winner] = sum(v - best for i, v in enumerate(values) if i != winner)
    return GameResult(EndReason.BLOCKED, winner, tuple(scores), tuple(values))
