"""The outbox: a turn's announcements are stored with the turn, or not at all; they stay
pending until marked delivered, and old ones are pruned."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.exc import StatementError

from storage import ConflictError, Database, Seat, outbox_key
from storage.models import utcnow
from tests.storage.test_games import SEATS, new_game

NEWS = [{"text": "Ann played R5 R6 R7."}, {"slot": "table"}, {"text": "Bob, your turn"}]


async def save(db: Database, game_id: int, version: int, announce: list[dict[str, object]]) -> int:
    return await db.games.save_turn(
        game_id,
        expected_version=version,
        snapshot="S1",
        new_actions=["play R5 R6 R7"],
        deadline=None,
        turn=1,
        announce=announce,
    )


async def test_a_turns_announcements_are_stored_with_the_turn_under_its_version(
    db: Database,
) -> None:
    game = await new_game(db)
    version = await save(db, game.id, game.version, NEWS)
    pending = await db.outbox.pending()
    assert [e.payload for e in pending] == NEWS
    assert [e.key for e in pending] == [outbox_key(game.id, version, i) for i in range(3)]
    assert {(e.platform, e.channel_id, e.game_finished) for e in pending} == {
        ("discord", "c1", False)
    }
    assert await db.outbox.pending(platform="telegram") == []


async def test_a_turn_refused_by_its_version_check_stores_no_announcement(db: Database) -> None:
    game = await new_game(db)
    await save(db, game.id, game.version, [])
    with pytest.raises(ConflictError):
        await save(db, game.id, game.version, NEWS)  # a stale writer
    with pytest.raises(ConflictError):
        await db.games.finish(game.id, expected_version=game.version, snapshot="S9", announce=NEWS)
    assert await db.outbox.pending() == []
    assert (await db.games.load(game.id)).snapshot == "S1"


async def test_a_finished_games_last_news_is_pending_until_delivered(db: Database) -> None:
    game = await new_game(db)
    version = await db.games.finish(
        game.id,
        expected_version=game.version,
        snapshot="S9",
        announce=[{"text": "Ann won."}],
        scores=[10, -5, -5],
        winner=0,
        result={"text": "won"},
    )
    [entry] = await db.outbox.pending()
    assert entry.key == outbox_key(game.id, version, 0)
    assert entry.game_finished


async def test_delivered_entries_are_no_longer_pending_and_unknown_keys_are_ignored(
    db: Database,
) -> None:
    game = await new_game(db)
    await save(db, game.id, game.version, NEWS)
    first, second, third = await db.outbox.pending()
    assert await db.outbox.mark_delivered([first.key, third.key, "9:9:9", "junk", "1:x:2"]) == 2
    assert await db.outbox.mark_delivered([first.key]) == 0  # once is enough
    assert [e.key for e in await db.outbox.pending()] == [second.key]
    assert [e.key for e in await db.outbox.pending(game_id=game.id)] == [second.key]


async def test_old_delivered_and_long_undeliverable_entries_are_pruned(db: Database) -> None:
    game = await new_game(db)
    await save(db, game.id, game.version, NEWS)
    first, second, _third = await db.outbox.pending()
    await db.outbox.mark_delivered([first.key])
    assert await db.outbox.prune() == 0  # delivered just now: kept for an hour
    later = utcnow() + timedelta(hours=2)
    assert await db.outbox.prune(now=later) == 1
    assert [e.key for e in await db.outbox.pending()] == [second.key, _third.key]
    assert await db.outbox.prune(now=utcnow() + timedelta(days=3)) == 2
    assert await db.outbox.pending() == []


async def test_a_new_games_deal_is_stored_with_it(db: Database) -> None:
    game = await new_game(db, announce=[{"text": "Dealt."}, {"slot": "rack", "to": "u1"}])
    pending = await db.outbox.pending()
    assert [(e.key, e.payload) for e in pending] == [
        (outbox_key(game.id, game.version, 0), {"text": "Dealt."}),
        (outbox_key(game.id, game.version, 1), {"slot": "rack", "to": "u1"}),
    ]


LEFT = [{"text": "Bob left; an AI (medium) plays their seat from now on."}, {"slot": "table"}]


async def test_a_seat_change_and_its_announcements_are_one_transaction(db: Database) -> None:
    """What ``_save_seats`` writes: the seats, the match roster and the outbox rows, under one
    version; a seat change refused half-way (the roster does not match, or an entry cannot be
    written) leaves all three as they were."""
    match = await db.matches.create(
        platform="discord", channel_id="c1", players=list(SEATS), games_planned=2
    )
    game = await new_game(db, match_id=match.id, game_index=0)
    ai_bob = Seat("u2", "Bob (AI)", ai="medium", why="left")
    seats = [SEATS[0], ai_bob, SEATS[2]]

    async def change(to: list[Seat], announce: list[dict[str, object]]) -> int:
        return await db.games.save_turn(
            game.id,
            expected_version=game.version,
            snapshot="S0",
            new_actions=[],
            deadline=None,
            seats=to,
            announce=announce,
        )

    stranger = [SEATS[0], Seat("u9", "Zed"), SEATS[2]]
    with pytest.raises(ValueError, match="roster"):
        await change(stranger, LEFT)
    with pytest.raises(StatementError, match="not JSON serializable"):  # an unstorable entry
        await change(seats, [LEFT[0], {"text": object()}])
    unchanged = await db.games.load(game.id)
    assert (unchanged.version, unchanged.seats) == (game.version, SEATS)
    assert (await db.matches.load(match.id)).players == SEATS
    assert await db.outbox.pending() == []

    version = await change(seats, LEFT)
    stored = await db.games.load(game.id)
    assert (stored.version, stored.seats) == (version, tuple(seats))
    assert (await db.matches.load(match.id)).players == tuple(seats)
    pending = await db.outbox.pending()
    assert [(e.key, e.payload) for e in pending] == [
        (outbox_key(game.id, version, i), p) for i, p in enumerate(LEFT)
    ]


async def test_pending_by_age_lists_only_entries_written_in_the_window(db: Database) -> None:
    game = await new_game(db)
    await save(db, game.id, game.version, NEWS)
    minute = timedelta(minutes=1)
    assert await db.outbox.pending(older_than=minute) == []  # just written: too young
    later = utcnow() + 5 * minute
    old = await db.outbox.pending(older_than=minute, now=later)
    assert [e.payload for e in old] == NEWS
    assert await db.outbox.pending(older_than=minute, younger_than=2 * minute, now=later) == []
    kept = await db.outbox.pending(older_than=minute, younger_than=10 * minute, now=later)
    assert [e.key for e in kept] == [e.key for e in old]
