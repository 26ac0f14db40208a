"""Issue 22: ``auto`` is resolved above the draft, and a stored draft holding an ``auto`` step
still replays exactly after a restart: the old form (``auto``, answered by the solver again)
and the form stored now (``auto => ...``, the answer itself), through the real manager and a
real SQLite file."""

from __future__ import annotations

from pathlib import Path

from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness

RACK = "R9 B9 J K3 K4 K5 O11 O12"


async def _dealt(h: Harness) -> int:
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    seat = h.game.current
    await h.give(seat, RACK)
    return seat


async def _restarted(path: Path, first: Harness) -> Harness:
    await first.close()  # the process stops; only the database remains
    second = await Harness.open(path, scheduler=ManualScheduler(start=first.scheduler.now() + 5))
    assert await second.manager.resume() == 1
    return second


def _melds(h: Harness) -> list[str]:
    draft = h.manager.tables[CHANNEL.key].draft
    assert draft is not None
    return sorted(slot.text() for slot in draft.slots if slot.tiles)


async def test_a_stored_draft_with_an_old_auto_step_replays_after_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old-auto.db"
    first = await Harness.open(path)
    await _dealt(first)
    table = first.manager.tables[CHANNEL.key]
    assert table.game_id is not None
    # A draft stored before auto steps carried their answer: the bare command.
    table.version = await first.manager.games.save_draft(
        table.game_id, expected_version=table.version, draft=["play R9 B9", "auto"]
    )
    second = await _restarted(path, first)
    try:
        assert _melds(second) == ["B9 R9 J=9", "K3 K4 K5"]
        draft = second.manager.tables[CHANNEL.key].draft
        assert draft is not None and draft.is_legal
        assert draft.steps[0] == "play R9 B9"
        assert draft.steps[1].startswith("auto => ")  # resolved on the way back in
    finally:
        await second.close()


async def test_auto_typed_in_the_chat_is_stored_with_its_answer_and_replays_as_typed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "auto.db"
    first = await Harness.open(path)
    seat = await _dealt(first)
    mover = ANN if first.seat(ANN) == seat else BOB
    await first.say(mover, "play R9 B9")
    await first.say(mover, "auto")
    shown = _melds(first)
    assert shown == ["B9 R9 J=9", "K3 K4 K5"]
    table = first.manager.tables[CHANNEL.key]
    assert table.game_id is not None
    stored = await first.manager.games.load(table.game_id)
    assert list(stored.draft)[1].startswith("auto => ")
    second = await _restarted(path, first)
    try:
        assert _melds(second) == shown
        turn = second.game.turn
        await second.say(mover, "done")
        assert second.game.turn == turn + 1
        assert sorted(m.text() for m in second.game.table) == shown
    finally:
        await second.close()
