"""A match: as many games as players (or as set), won by games won, ties by total score."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.scoring import GameResult


@dataclass(frozen=True, slots=True)
class Standing:
    seat: int
    games_won: int
    total: int
    rank: int


@dataclass
class Match:
    """Results of the games of one match between the same seats."""

    players: int
    games: int
    results: list[GameResult] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return len(self.results) >= self.games

    @property
    def game_number(self) -> int:
        """1-based number of the game being played (or the last one when finished)."""
        return min(len(self.results) + 1, self.games)

    def record(self, result: GameResult) -> None:
        if self.finished:
            raise ValueError("the match is already over")
        if len(result.scores) != self.players:
            raise ValueError("result has the wrong number of players")
        self.results.append(result)

    def totals(self) -> list[int]:
        return [sum(r.scores[s] for r in self.results) for s in range(self.players)]

    def wins(self) -> list[int]:
        return [sum(1 for r in self.results if r.winner == s) for s in range(self.players)]

    def standings(self) -> list[Standing]:
        """Seats best first: most games won, then highest total; equal rows share a rank."""
        wins, totals = self.wins(), self.totals()
        order = sorted(range(self.players), key=lambda s: (-wins[s], -totals[s], s))
        rows: list[Standing] = []
        for position, seat in enumerate(order, start=1):
            rank = position
            if rows:
                prev = rows[-1]
                if (wins[seat], totals[seat]) == (prev.games_won, prev.total):
                    rank = prev.rank
            rows.append(Standing(seat, wins[seat], totals[seat], rank))
        return rows

    def winners(self) -> list[int]:
        """Seats that share first place (normally one); empty until the match is over."""
        if not self.finished:
            return []
        return [row.seat for row in self.standings() if row.rank == 1]

    def to_text(self) -> str:
        lines = [f"match players={self.players} games={self.games}"]
        lines.extend(f"result {r.to_text()}" for r in self.results)
        return "\n".join(lines)

    @classmethod
    def from_text(cls, text: str) -> Match:
        lines = text.strip().splitlines()
        head = dict(p.split("=") for p in lines[0].split()[1:])
        match = cls(int(head["players"]), int(head["games"]))
        for line in lines[1:]:
            match.results.append(GameResult.from_text(line.removeprefix("result ")))
        return match
