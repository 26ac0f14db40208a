"""Deadline claims, version stamps and seats that change hands (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from engine import Game, Rules
from storage import ClaimRepository, Database, Seat

T0 = datetime(2027, 1, 1, 12, 0, tzinfo=UTC)


async def new_game(db: Database, *, match: bool = False) -> tuple[int, int | None]:
    seats = [Seat("ann", "Ann"), Seat("bob", "Bob")]
    match_id = None
    if match:
        stored_match = await db.matches.create(
            platform="t", channel_id="c", players=seats, games_planned=2
        )
        match_id = stored_match.id
    game = Game.new(2, 5, Rules())
    stored = await db.games.create(
        platform="t",
        channel_id="c",
        seats=seats,
        seed=5,
        setup="{}",
        snapshot=game.to_text(),
        match_id=match_id,
        game_index=0 if match else None,
    )
    return stored.id, match_id


async def test_one_of_several_claimants_wins_a_deadline(db: Database) -> None:
    game_id, _ = await new_game(db)
    claims = ClaimRepository(db)
    results = await asyncio.gather(
        *(
            claims.claim(game_id, 3, "expire", owner=f"p{i}", now=T0, until=T0 + timedelta(30))
            for i in range(4)
        )
    )
    assert results.count(True) == 1
    assert all(r == T0 + timedelta(30) for r in results if r is not True)


async def test_a_lease_is_renewed_by_its_owner_and_taken_over_once_expired(db: Database) -> None:
    game_id, _ = await new_game(db)
    claims = ClaimRepository(db)
    lease = timedelta(seconds=30)
    assert await claims.claim(game_id, 1, "ai", owner="a", now=T0, until=T0 + lease) is True
    assert await claims.claim(game_id, 1, "ai", owner="b", now=T0, until=T0 + lease) == T0 + lease
    assert await claims.claim(game_id, 1, "ai", owner="a", now=T0, until=T0 + 2 * lease) is True
    later = T0 + 3 * lease  # a died: its lease ran out
    assert await claims.claim(game_id, 1, "ai", owner="b", now=later, until=later + lease) is True
    assert await claims.claim(game_id, 1, "ai", owner="a", now=later, until=later) == later + lease
    # another turn, another kind: separate claims
    assert await claims.claim(game_id, 2, "ai", owner="a", now=T0, until=T0 + lease) is True
    assert await claims.claim(game_id, 1, "expire", owner="a", now=T0, until=None) is True


async def test_a_reminder_claimed_for_good_is_never_claimed_again(db: Database) -> None:
    game_id, _ = await new_game(db)
    claims = ClaimRepository(db)
    assert await claims.claim(game_id, 4, "warn", owner="a", now=T0, until=None) is True
    far = T0 + timedelta(days=400)
    assert await claims.claim(game_id, 4, "warn", owner="b", now=far, until=None) is None
    await claims.forget(game_id)
    assert await claims.claim(game_id, 4, "warn", owner="b", now=far, until=None) is True


async def test_stamp_reads_the_version_and_whether_the_game_is_over(db: Database) -> None:
    game_id, _ = await new_game(db)
    assert await db.games.stamp(game_id) == (1, False)
    stored = await db.games.load(game_id)
    version = await db.games.save_draft(game_id, expected_version=1, draft=["play R1 R2 R3"])
    assert await db.games.stamp(game_id) == (version, False)
    await db.games.finish(game_id, expected_version=version, snapshot=stored.snapshot)
    assert await db.games.stamp(game_id) == (version + 1, True)
    assert await db.games.stamp(game_id + 1000) is None


async def test_a_seat_that_changed_hands_keeps_its_player_in_the_match(db: Database) -> None:
    game_id, match_id = await new_game(db, match=True)
    assert match_id is not None
    stored = await db.games.load(game_id)
    seats = [Seat("ann", "Ann"), Seat("bob", "Bob (AI)", ai="medium", why="left")]
    version = await db.games.save_turn(
        game_id,
        expected_version=stored.version,
        snapshot=stored.snapshot,
        new_actions=[],
        deadline=T0,
        seats=seats,
    )
    again = await db.games.load(game_id)
    assert again.seats == tuple(seats)
    match = await db.matches.load(match_id)
    assert match.players == tuple(seats)
    # the result is recorded for both match players (the leaver keeps their score)
    await db.games.finish(
        game_id, expected_version=version, snapshot=stored.snapshot, scores=[10, -10], winner=0
    )
    match = await db.matches.load(match_id)
    assert [r.scores for r in match.results] == [(10, -10)]
