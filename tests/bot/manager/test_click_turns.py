"""Clicks that carry their turn (issue 26, defect 6, the manager's side): every button that
acts on the turn in play carries that turn's number; a click made for a turn that is over (a
panel left open, or a platform delivering a click twice after a restart) gets one sentence
and changes nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.api import Reply
from bot.commands import Command, read_command
from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness
from tests.bot.manager.test_outbox import two_players

OVER = "That turn is already over"
TURN_BOUND = {"place", "auto", "undo", "reset", "draw", "done"}


def click(text: str, turn: int) -> Command:
    return replace(read_command(text), turn=turn)


def buttons(reply: Reply) -> dict[str, int | None]:
    return {b.command.split()[0]: b.turn for row in reply.buttons for b in row}


async def test_turn_panel_buttons_carry_the_turn_and_others_none(tmp_path: Path) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        turn = h.game.turn
        panel = next(r for r in await h.say(ANN, "panel") if r.slot == "panel")
        assert buttons(panel) == dict.fromkeys(TURN_BOUND, turn)
        table = next(r for r in await h.say(ANN, "table") if r.slot == "table")
        assert set(buttons(table).values()) == {None}  # reads: good at any time
        rack = next(r for r in await h.say(ANN, "rack") if r.slot == "rack")
        assert set(buttons(rack).values()) == {None}
    finally:
        await h.close()


async def test_a_click_for_a_turn_that_is_over_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        turn = h.game.turn
        await h.manager.handle(ANN, CHANNEL, click("draw", turn))
        await h.manager.handle(BOB, CHANNEL, click("draw", turn + 1))
        table = h.manager.tables[CHANNEL.key]
        version, snapshot = table.version, h.game.to_text()
        # Ann's panel of her last turn is still open: its Draw arrives now, on her next turn.
        said = await h.manager.handle(ANN, CHANNEL, click("draw", turn))
        assert [OVER in r.text for r in said] == [True]
        assert said[0].private_to is not None and said[0].private_to.same_person(ANN)
        assert (table.version, h.game.to_text()) == (version, snapshot)
        typed = await h.manager.handle(ANN, CHANNEL, "draw")  # typed: no turn, it acts
        assert not any(OVER in r.text for r in typed) and h.game.turn == turn + 3
    finally:
        await h.close()


async def test_a_click_delivered_twice_across_a_restart_acts_once(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    turn = h.game.turn
    await h.manager.handle(ANN, CHANNEL, click("draw", turn))  # and the process dies
    now = h.scheduler.now()
    await h.db.close()
    fresh = await Harness.open(path, scheduler=ManualScheduler(start=now))
    try:
        await fresh.manager.resume()
        await fresh.manager.handle(BOB, CHANNEL, click("draw", turn + 1))
        version = fresh.manager.tables[CHANNEL.key].version
        # The platform never saw Ann's click answered and delivers it again.
        said = await fresh.manager.handle(ANN, CHANNEL, click("draw", turn))
        assert any(OVER in r.text for r in said)
        assert fresh.manager.tables[CHANNEL.key].version == version
        assert fresh.game.turn == turn + 2
    finally:
        await fresh.close()


async def test_a_click_for_a_game_that_is_over_is_refused(tmp_path: Path) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        turn = h.game.turn
        await h.say(ANN, "cancel")
        await h.say(ANN, "yes")
        said = await h.manager.handle(ANN, CHANNEL, click("done", turn))
        assert [OVER in r.text for r in said] == [True]
    finally:
        await h.close()
