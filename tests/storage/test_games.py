from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from storage import ChannelBusyError, ConflictError, Database, NotFoundError, Seat

SEATS = (Seat("u1", "Ann"), Seat("u2", "Bob"), Seat("ai:1", "Robo", ai="easy"))


async def new_game(db: Database, channel: str = "c1", **extra: object):  # type: ignore[no-untyped-def]
    fields: dict[str, object] = {
        "platform": "discord",
        "channel_id": channel,
        "seats": SEATS,
        "seed": 2**63 - 1,
        "setup": "players=3 edition=classic",
        "snapshot": "S0",
        "actions": ["deal"],
    }
    fields.update(extra)
    return await db.games.create(**fields)  # type: ignore[arg-type]


async def test_a_created_game_loads_back_exactly(db: Database) -> None:
    deadline = datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    game = await new_game(db, deadline=deadline, draft=["play R5 R6 R7"])
    loaded = await db.games.load(game.id)
    assert loaded == game
    assert loaded.version == 1
    assert loaded.seats == SEATS and loaded.seats[2].is_ai
    assert loaded.seed == 2**63 - 1
    assert loaded.actions == ("deal",) and loaded.action_count == 1
    assert loaded.draft == ("play R5 R6 R7",)
    assert loaded.deadline == deadline and loaded.deadline.tzinfo is not None
    assert loaded.active


async def test_save_turn_appends_to_the_log_and_bumps_the_version(db: Database) -> None:
    game = await new_game(db)
    deadline = datetime.now(UTC) + timedelta(seconds=60)
    v2 = await db.games.save_turn(
        game.id,
        expected_version=1,
        snapshot="S1",
        new_actions=["play R5 R6 R7", "done"],
        deadline=deadline,
        turn=1,
        status="playing",
    )
    v3 = await db.games.save_turn(
        game.id, expected_version=v2, snapshot="S2", new_actions=["draw"], deadline=None, turn=2
    )
    assert (v2, v3) == (2, 3)
    loaded = await db.games.load(game.id)
    assert loaded.snapshot == "S2"
    assert loaded.actions == ("deal", "play R5 R6 R7", "done", "draw")
    assert (loaded.turn, loaded.status, loaded.version, loaded.deadline) == (2, "playing", 3, None)


async def test_a_stale_version_is_a_conflict_and_writes_nothing(db: Database) -> None:
    game = await new_game(db)
    await db.games.save_turn(
        game.id, expected_version=1, snapshot="S1", new_actions=["draw"], deadline=None
    )
    with pytest.raises(ConflictError) as caught:
        await db.games.save_turn(
            game.id, expected_version=1, snapshot="LOST", new_actions=["x"], deadline=None
        )
    assert caught.value.current_version == 2
    with pytest.raises(ConflictError):
        await db.games.save_draft(game.id, expected_version=1, draft=["play B1 B2 B3"])
    loaded = await db.games.load(game.id)
    assert (loaded.snapshot, loaded.actions, loaded.version) == ("S1", ("deal", "draw"), 2)


async def test_two_racing_writers_one_wins_one_conflicts(db: Database) -> None:
    game = await new_game(db)

    for _ in range(5):
        game = await db.games.load(game.id)
        results = await asyncio.gather(
            *(
                db.games.save_turn(
                    game.id,
                    expected_version=game.version,
                    snapshot=f"S{game.version}-{tag}",
                    new_actions=[f"{game.version}-{tag}"],
                    deadline=None,
                )
                for tag in ("a", "b")
            ),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["ConflictError", "int"]
    loaded = await db.games.load(game.id)
    assert loaded.version == 6 and loaded.action_count == 6
    # each saved version's action is the one its snapshot names: no half-applied write
    for version, action in enumerate(loaded.actions[1:], start=1):
        assert action.startswith(f"{version}-")
    assert loaded.snapshot.endswith(loaded.actions[-1][-1])


async def test_the_draft_survives_and_a_committed_turn_clears_it(db: Database) -> None:
    game = await new_game(db)
    v2 = await db.games.save_draft(game.id, expected_version=1, draft=["play R5 R6 R7"])
    v3 = await db.games.save_draft(
        game.id, expected_version=v2, draft=["play R5 R6 R7", "move R7 from 1 to new"]
    )
    assert (await db.games.load(game.id)).draft == ("play R5 R6 R7", "move R7 from 1 to new")
    await db.games.save_turn(
        game.id, expected_version=v3, snapshot="S1", new_actions=["done"], deadline=None
    )
    assert (await db.games.load(game.id)).draft == ()


async def test_one_unfinished_game_per_channel(db: Database) -> None:
    game = await new_game(db)
    with pytest.raises(ChannelBusyError, match="already has an unfinished game"):
        await new_game(db)
    other = await new_game(db, channel="c2")
    await db.games.finish(game.id, expected_version=1, snapshot="END", status="cancelled")
    again = await new_game(db)
    assert again.id not in (game.id, other.id)
    active = await db.games.load_active("discord", "c1")
    assert active is not None and active.id == again.id


async def test_list_active_is_what_a_restart_resumes(db: Database) -> None:
    games = [await new_game(db, channel=f"c{i}") for i in range(4)]
    await db.games.finish(games[1].id, expected_version=1, snapshot="END")
    await db.games.save_turn(
        games[2].id, expected_version=1, snapshot="S1", new_actions=["draw"], deadline=None
    )
    light = await db.games.list_active()
    assert [g.id for g in light] == [games[0].id, games[2].id, games[3].id]
    assert all(g.actions is None for g in light)
    assert [g.action_count for g in light] == [1, 2, 1]
    full = await db.games.list_active(with_actions=True)
    assert [g.actions for g in full] == [("deal",), ("deal", "draw"), ("deal",)]
    assert await db.games.list_active(platform="telegram") == []


async def test_finished_games_cannot_be_written_and_show_in_history(db: Database) -> None:
    first = await new_game(db)
    v = await db.games.finish(
        first.id,
        expected_version=1,
        snapshot="END1",
        new_actions=["play K1 K2 K3", "done"],
        result={"reason": "rummikub"},
        scores=[30, -20, -10],
        winner=0,
    )
    with pytest.raises(ConflictError, match="already finished"):
        await db.games.save_turn(
            first.id, expected_version=v, snapshot="X", new_actions=[], deadline=None
        )
    second = await new_game(db)
    await db.games.finish(second.id, expected_version=1, snapshot="END2", status="cancelled")
    history = await db.games.history("discord", "c1")
    assert [g.id for g in history] == [second.id, first.id]
    assert history[1].result == {"reason": "rummikub"}
    assert history[1].status == "finished" and not history[1].active
    assert (await db.games.load(first.id)).actions == ("deal", "play K1 K2 K3", "done")


async def test_errors_say_what_is_wrong(db: Database) -> None:
    with pytest.raises(NotFoundError, match="Game 999 does not exist"):
        await db.games.load(999)
    with pytest.raises(NotFoundError):
        await db.games.save_draft(999, expected_version=1, draft=[])
    with pytest.raises(ValueError, match="64 signed bits"):
        await new_game(db, seed=2**64)
    game = await new_game(db)
    with pytest.raises(ValueError, match="3 seats but got 2 scores"):
        await db.games.finish(game.id, expected_version=1, snapshot="E", scores=[1, 2])
    with pytest.raises(ValueError, match="no timezone"):
        await db.games.save_turn(
            game.id,
            expected_version=1,
            snapshot="S",
            new_actions=[],
            deadline=datetime(2026, 1, 1),
        )
    # nothing of the failed writes was kept
    assert (await db.games.load(game.id)).version == 1


async def test_a_finish_racing_a_turn_counts_the_game_once_or_not_at_all(db: Database) -> None:
    for round_no in range(4):
        game = await new_game(db, channel=f"race-{round_no}")
        finish = db.games.finish(
            game.id, expected_version=1, snapshot="END", scores=[10, -5, -5], winner=0
        )
        turn = db.games.save_turn(
            game.id, expected_version=1, snapshot="S1", new_actions=["draw"], deadline=None
        )
        results = await asyncio.gather(finish, turn, return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == ["ConflictError", "int"]
        loaded = await db.games.load(game.id)
        ann = await db.stats.player("discord", f"race-{round_no}", "u1")
        if isinstance(results[0], int):  # the finish won: counted once, turn not applied
            assert not loaded.active and ann is not None and ann.games_played == 1
            assert loaded.actions == ("deal",)
        else:  # the turn won: no statistics from the lost finish
            assert loaded.active and ann is None
            assert loaded.actions == ("deal", "draw")


async def test_a_load_returns_the_log_that_belongs_to_the_snapshot_it_read(db: Database) -> None:
    from storage.models import GameActionRow

    game = await new_game(db)
    # what a reader sees if another writer commits between reading the row and reading the log
    async with db.transaction() as session:
        session.add(GameActionRow(game_id=game.id, seq=1, action="0 draw"))
    assert (await db.games.load(game.id)).actions == ("deal",)
    assert [g.actions for g in await db.games.list_active(with_actions=True)] == [("deal",)]
