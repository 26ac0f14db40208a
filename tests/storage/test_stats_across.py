"""A player's record over all the channels of a server or group: games, wins, average score and
the best game, from the same statistics the per-channel leaderboard uses."""

from __future__ import annotations

from engine.scoring import EndReason, GameResult
from storage import Database, Seat

ANN, BOB, ROBO = Seat("u1", "Ann"), Seat("u2", "Bob"), Seat("ai:1", "Robo", ai="hard")


async def finished(
    db: Database, channel: str, seats: tuple[Seat, ...], scores: list[int], winner: int
) -> int:
    game = await db.games.create(
        platform="discord", channel_id=channel, seats=seats, seed=1, setup="", snapshot="S"
    )
    result = GameResult(EndReason.OUT, winner, tuple(scores), tuple(0 for _ in scores))
    await db.games.finish(
        game.id,
        expected_version=game.version,
        snapshot="END",
        result={"text": result.to_text()},
        scores=scores,
        winner=winner,
    )
    return game.id


async def test_a_players_record_adds_up_over_the_servers_channels_only(db: Database) -> None:
    await finished(db, "general", (ANN, BOB), [30, -30], 0)
    best = await finished(db, "games", (BOB, ANN, ROBO), [-20, 55, -35], 1)
    await finished(db, "games", (ANN, ROBO), [-12, 12], 1)
    await finished(db, "elsewhere", (ANN, BOB), [90, -90], 0)  # another server's channel
    ann = await db.stats.across_channels("discord", ["general", "games", "empty"], "u1")
    assert ann is not None
    assert (ann.name, ann.channels, ann.games_played, ann.games_won) == ("Ann", 2, 3, 2)
    assert (ann.total_score, ann.best_score, ann.best_game_id) == (73, 55, best)
    assert ann.average_score is not None and round(ann.average_score, 2) == 24.33
    assert ann.best_game_at is not None
    bob = await db.stats.across_channels("discord", ["general", "games"], "u2")
    assert bob is not None and (bob.games_played, bob.games_won, bob.best_score) == (2, 0, -20)


async def test_no_record_for_ai_seats_strangers_or_no_channels(db: Database) -> None:
    await finished(db, "games", (ANN, ROBO), [-12, 12], 1)
    assert await db.stats.across_channels("discord", ["games"], "ai:1") is None
    assert await db.stats.across_channels("discord", ["games"], "nobody") is None
    assert await db.stats.across_channels("discord", [], "u1") is None
    assert await db.stats.across_channels("telegram", ["games"], "u1") is None
