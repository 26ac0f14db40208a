"""The manager's side of the board: one player's view read under the lock, and the change
counter a board waits on (a real manager over a real SQLite file, a fake clock)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator

import pytest

from bot.api import BoardState, PlayerRef
from bot.manager import describe
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, EVE, Harness


@pytest.fixture
async def dealt(h: Harness) -> AsyncIterator[Harness]:
    """Ann and Bob at a dealt table; the first player to move has not moved yet."""
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    yield h


def players(h: Harness) -> tuple[PlayerRef, PlayerRef]:
    """(the player to move, the other one)."""
    table = h.manager.tables[CHANNEL.key]
    current = table.seats[h.game.current].player
    assert current is not None
    return current, BOB if current.same_person(ANN) else ANN


def codes(state: BoardState) -> set[str]:
    """Every tile code anywhere in what the board was given."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if "code" in value:
                found.add(str(value["code"]))
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(json.loads(json.dumps(dataclasses.asdict(state))))
    return found


async def test_only_the_seat_owner_gets_their_rack_and_only_on_their_turn_their_draft(
    dealt: Harness,
) -> None:
    h = dealt
    mover, waiting = players(h)
    mover_rack = {t.code for t in h.game.players[h.seat(mover)].rack}
    waiting_rack = {t.code for t in h.game.players[h.seat(waiting)].rack}
    first, second = sorted(mover_rack)[:2]
    await h.say(mover, f"play {first} {second}")  # a private draft, not valid yet

    mine = await h.manager.board(mover, CHANNEL)
    assert mine.can_act and mine.rack is not None
    assert {t.code for m in mine.melds for t in m.tiles} == {first, second}
    assert codes(mine) == mover_rack  # the draft and the rest of their rack, nobody else's

    theirs = await h.manager.board(waiting, CHANNEL)
    assert not theirs.can_act and theirs.melds == ()  # the committed table: still empty
    assert codes(theirs) == waiting_rack

    watcher = await h.manager.board(EVE, CHANNEL)
    assert watcher.rack is None and watcher.seat is None and codes(watcher) == set()
    assert [s.tiles for s in watcher.seats] == [14, 14]  # counts, never tiles


async def test_reading_a_board_changes_nothing(dealt: Harness) -> None:
    h = dealt
    mover, waiting = players(h)
    before = describe(h.manager.tables[CHANNEL.key])
    for player in (mover, waiting, EVE):
        await h.manager.board(player, CHANNEL)
    assert describe(h.manager.tables[CHANNEL.key]) == before
    assert h.manager.tables[CHANNEL.key].draft is None  # no draft made by looking


async def test_an_invalid_meld_carries_the_sentence_done_gives(dealt: Harness) -> None:
    h = dealt
    mover, _ = players(h)
    rack = sorted(t.code for t in h.game.players[h.seat(mover)].rack)
    await h.say(mover, f"play {rack[0]} {rack[1]}")
    state = await h.manager.board(mover, CHANNEL)
    refusal = await h.say(mover, "done")
    assert not state.melds[0].valid
    assert state.melds[0].reason == refusal[0].text  # "Meld 1: K3 K3 is not a valid set: ..."
    assert state.problems[0] == refusal[0].text


async def test_the_board_speaks_the_viewers_own_language(dealt: Harness) -> None:
    h = dealt
    mover, _ = players(h)
    await h.say(mover, "language me pl")
    rack = sorted(t.code for t in h.game.players[h.seat(mover)].rack)
    await h.say(mover, f"play {rack[0]}")
    state = await h.manager.board(mover, CHANNEL)
    assert state.lang == "pl"
    assert "Układ 1" in state.melds[0].reason, state.melds[0].reason


async def next_change(changes: AsyncIterator[int]) -> int:
    return await asyncio.wait_for(anext(changes), timeout=2)


async def test_a_typed_step_a_commit_and_a_timeout_each_move_the_change_counter(
    dealt: Harness,
) -> None:
    h = dealt
    mover, waiting = players(h)
    changes = h.manager.watch(CHANNEL)
    start = await next_change(changes)
    rack = sorted(t.code for t in h.game.players[h.seat(mover)].rack)

    await h.say(mover, f"play {rack[0]}")
    typed = await next_change(changes)
    assert typed > start
    assert (await h.manager.board(mover, CHANNEL)).step == typed
    assert [t.code for t in (await h.manager.board(mover, CHANNEL)).melds[0].tiles] == [rack[0]]

    await h.say(mover, "draw")  # the other player's turn begins
    committed = await next_change(changes)
    assert committed > typed
    state = await h.manager.board(waiting, CHANNEL)
    assert state.can_act and state.current == state.name

    await h.scheduler.advance(h.manager.tables[CHANNEL.key].rules.turn_seconds + 1)
    timed_out = await next_change(changes)
    assert timed_out > committed
    assert (await h.manager.board(mover, CHANNEL)).can_act  # back to the first player


async def test_changes_that_come_together_are_seen_once(dealt: Harness) -> None:
    h = dealt
    mover, _ = players(h)
    changes = h.manager.watch(CHANNEL)
    await next_change(changes)
    for _ in range(3):
        await h.say(mover, "status")
    assert await next_change(changes) == h.manager.boards.step(CHANNEL.key)
    waiting = asyncio.ensure_future(anext(changes))
    await asyncio.sleep(0.05)
    assert not waiting.done()  # nothing new: the board waits
    await h.say(mover, "status")
    assert await asyncio.wait_for(waiting, 2) == h.manager.boards.step(CHANNEL.key)


async def test_a_game_that_ends_moves_the_counter_and_leaves_no_board(dealt: Harness) -> None:
    h = dealt
    changes = h.manager.watch(CHANNEL)
    before = await next_change(changes)
    await h.say(ANN, "cancel", admin=True)  # it asks first
    await h.say(ANN, "cancel yes", admin=True)
    assert await next_change(changes) > before
    state = await h.manager.board(ANN, CHANNEL)
    assert (state.phase, state.rack, state.melds) == ("none", None, ())
