"""Frozen records that repositories return: plain data, safe to keep after the session ends."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits at a seat: a platform user, or an AI seat (``ai`` names its strength).

    A seat a person left (or was kicked from) keeps that person's ``player_id``, so the match
    roster and the scores stay with them; ``ai`` then names the strength playing it and ``why``
    says how it changed hands."""

    player_id: str
    name: str
    ai: str | None = None
    why: str | None = None  # an AI playing a person's seat: "left", "kicked" or "away"
    missed: int = 0  # the person's turns in a row that ran out (absent players)

    @property
    def is_ai(self) -> bool:
        return self.ai is not None

    @property
    def counts_for_person(self) -> bool:
        """Whether the game counts in the person's statistics: a human seat, or one an AI
        plays only while its person is away (their scores stay theirs)."""
        return self.ai is None or self.why == "away"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player_id": self.player_id, "name": self.name, "ai": self.ai}
        if self.why is not None:
            data["why"] = self.why
        if self.missed:
            data["missed"] = self.missed
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            player_id=str(data["player_id"]),
            name=str(data["name"]),
            ai=data.get("ai"),
            why=data.get("why"),
            missed=int(data.get("missed", 0)),
        )


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as last committed.

    ``actions`` is the whole action log, or ``None`` when it was not loaded (listing many games
    for resume does not need it; ``action_count`` is always there).
    """

    id: int
    platform: str
    channel_id: str
    seats: tuple[Seat, ...]
    seed: int
    setup: str
    snapshot: str
    actions: tuple[str, ...] | None
    action_count: int
    draft: tuple[str, ...]
    status: str
    turn: int
    deadline: datetime | None
    result: dict[str, Any] | None
    version: int
    match_id: int | None
    game_index: int | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    @property
    def active(self) -> bool:
        return self.finished_at is None


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in a match table."""

    player_id: str
    name: str
    games_won: int
    total_score: int


@dataclass(frozen=True, slots=True)
class MatchGameResult:
    """Scores of one game of a match, in the match's player order."""

    game_index: int
    game_id: int | None
    scores: tuple[int, ...]
    winner: int | None
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class StoredMatch:
    id: int
    platform: str
    channel_id: str
    players: tuple[Seat, ...]
    games_planned: int
    games_played: int
    results: tuple[MatchGameResult, ...]
    standings: tuple[Standing, ...]
    version: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    @property
    def active(self) -> bool:
        return self.finished_at is None

    @property
    def winners(self) -> tuple[Standing, ...]:
        """Leaders by games won, then total score (several only on a perfect tie)."""
        if not self.standings:
            return ()
        top = self.standings[0]
        return tuple(
            s
            for s in self.standings
            if (s.games_won, s.total_score) == (top.games_won, top.total_score)
        )


@dataclass(frozen=True, slots=True)
class ChannelSettings:
    """What a channel has chosen; a channel that never chose gets these defaults."""

    opening_threshold: int = 30
    turn_seconds: int = 60
    edition: str = "classic"
    hints: bool = True
    language: str = "en"
    async_mode: bool = False
    match_games: int | None = None
    version: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    player_id: str
    name: str
    games_played: int
    games_won: int
    total_score: int
    best_score: int | None
    matches_played: int
    matches_won: int


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's record over several channels (a Discord server's channels, a Telegram
    group): finished games only, AI seats never; ``best_game_id`` is the game of the best score
    (the newest such game) when it is still stored."""

    player_id: str
    name: str
    channels: int
    games_played: int
    games_won: int
    total_score: int
    best_score: int | None
    matches_played: int
    matches_won: int
    best_game_id: int | None = None
    best_game_at: datetime | None = None

    @property
    def average_score(self) -> float | None:
        return self.total_score / self.games_played if self.games_played else None
