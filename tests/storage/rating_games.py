"""Finished games for the rating tests: stored and finished through the real repositories,
the way the bot finishes them (result text, scores and winner in one ``finish``)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from engine import Rules
from engine.scoring import EndReason, GameResult
from storage import Database, Seat

PLATFORM = "test"


def person(user: str, name: str | None = None) -> Seat:
    return Seat(user, name or user.title())


def ai(seat: int, level: str) -> Seat:
    return Seat(f"ai-{seat}", f"AI {seat + 1} ({level})", ai=level)


def setup(edition: str = "classic") -> str:
    rules = Rules().with_setting("edition", edition)
    return json.dumps({"rules": rules.to_text(), "lang": "en", "players": 0})


async def finish_game(
    db: Database,
    channel: str,
    seats: Sequence[Seat],
    winner: int,
    racks: Sequence[int],
    *,
    edition: str = "classic",
    platform: str = PLATFORM,
) -> int:
    """Store a game with ``seats`` and finish it: ``winner`` went out, the others were left
    holding ``racks`` (the winner's entry is ignored). Returns the game id."""
    values = [0 if i == winner else int(v) for i, v in enumerate(racks)]
    scores = [-v for v in values]
    scores[winner] = sum(values)
    result = GameResult(EndReason.OUT, winner, tuple(scores), tuple(values))
    game = await db.games.create(
        platform=platform,
        channel_id=channel,
        seats=list(seats),
        seed=1,
        setup=setup(edition),
        snapshot="S",
    )
    await db.games.finish(
        game.id,
        expected_version=game.version,
        snapshot="S",
        result={"text": result.to_text()},
        scores=scores,
        winner=winner,
    )
    return game.id


async def seeded_series(db: Database, rng: random.Random, games: int, channel: str) -> None:
    """A mixed history: 2-6 seats, people and AI levels, classic and XP, some ties."""
    people = [person(u) for u in ("ann", "bob", "cleo", "dan", "eve")]
    for _ in range(games):
        edition = rng.choice(("classic", "classic", "xp"))
        most = 4 if edition == "classic" else 6
        count = rng.randint(2, most)
        humans = rng.sample(people, rng.randint(1, min(count, len(people))))
        seats: list[Seat] = list(humans)
        while len(seats) < count:
            seats.append(ai(len(seats), rng.choice(("easy", "medium", "hard"))))
        rng.shuffle(seats)
        racks = [rng.choice((0, 5, 5, 12, 30, 41)) for _ in seats]
        await finish_game(db, channel, seats, rng.randrange(count), racks, edition=edition)
