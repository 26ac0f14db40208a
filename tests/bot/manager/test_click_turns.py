"""Clicks that carry their turn (issue 26, defect 6, the manager's side): every button that
acts on the turn in play carries a number naming that game and turn (and, for the draft's
buttons, the draft's step); a click made for a turn that is over, for an earlier game of the
match or for an earlier step (a panel left open, or a platform delivering a click twice after
a restart) gets one sentence and changes nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.api import Reply
from bot.commands import Command, read_command
from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness
from tests.bot.manager.test_outbox import two_players

OVER = "That turn is already over"
EARLIER_STEP = "That button was for an earlier step of your turn"
TURN_BOUND = {"place", "auto", "undo", "reset", "draw", "done"}


def click(text: str, turn: int) -> Command:
    return replace(read_command(text), turn=turn)


def buttons(reply: Reply) -> dict[str, int | None]:
    return {b.command.split()[0]: b.turn for row in reply.buttons for b in row}


async def test_turn_panel_buttons_carry_the_turn_and_others_none(tmp_path: Path) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        table = h.manager.tables[CHANNEL.key]
        panel = next(r for r in await h.say(ANN, "panel") if r.slot == "panel")
        marks = buttons(panel)
        assert marks == {verb: table.click_mark(verb) for verb in TURN_BOUND}
        assert None not in marks.values()
        assert marks["draw"] == marks["done"] != marks["undo"] == marks["place"]
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
        table = h.manager.tables[CHANNEL.key]
        anns = table.click_mark("draw")
        assert anns is not None
        await h.manager.handle(ANN, CHANNEL, click("draw", anns))
        await h.manager.handle(BOB, CHANNEL, click("draw", anns + 1))
        version, snapshot = table.version, h.game.to_text()
        # Ann's panel of her last turn is still open: its Draw arrives now, on her next turn.
        said = await h.manager.handle(ANN, CHANNEL, click("draw", anns))
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
    anns = h.manager.tables[CHANNEL.key].click_mark("draw")
    assert anns is not None
    await h.manager.handle(ANN, CHANNEL, click("draw", anns))  # and the process dies
    now = h.scheduler.now()
    await h.db.close()
    fresh = await Harness.open(path, scheduler=ManualScheduler(start=now))
    try:
        await fresh.manager.resume()
        assert fresh.manager.tables[CHANNEL.key].click_mark("draw") == anns + 1  # same game
        await fresh.manager.handle(BOB, CHANNEL, click("draw", anns + 1))
        version = fresh.manager.tables[CHANNEL.key].version
        # The platform never saw Ann's click answered and delivers it again.
        said = await fresh.manager.handle(ANN, CHANNEL, click("draw", anns))
        assert any(OVER in r.text for r in said)
        assert fresh.manager.tables[CHANNEL.key].version == version
        assert fresh.game.turn == turn + 2
    finally:
        await fresh.close()


async def test_a_click_for_a_game_that_is_over_is_refused(tmp_path: Path) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        mark = h.manager.tables[CHANNEL.key].click_mark("done")
        assert mark is not None
        await h.say(ANN, "cancel")
        await h.say(ANN, "yes")
        said = await h.manager.handle(ANN, CHANNEL, click("done", mark))
        assert [OVER in r.text for r in said] == [True]
    finally:
        await h.close()


async def test_an_undo_delivered_twice_undoes_one_step(tmp_path: Path) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        table = h.manager.tables[CHANNEL.key]
        tiles = [str(tile) for tile in h.game.players[h.game.current].rack[:2]]
        await h.say(ANN, f"play {tiles[0]}")
        await h.say(ANN, f"play {tiles[1]}")
        assert table.draft is not None and len(table.draft.history) == 2
        undo = table.click_mark("undo")
        assert undo is not None and table.click_mark("done") is not None
        first = await h.manager.handle(ANN, CHANNEL, click("undo", undo))
        assert not any(EARLIER_STEP in r.text or OVER in r.text for r in first)
        assert len(table.draft.history) == 1
        rack = table.draft.rack
        again = await h.manager.handle(ANN, CHANNEL, click("undo", undo))  # the same click
        assert [EARLIER_STEP in r.text for r in again] == [True]
        assert len(table.draft.history) == 1 and table.draft.rack == rack
        # The panel drawn after that undo carries the new step: its Reset acts.
        reset = await h.manager.handle(ANN, CHANNEL, click("reset", table.click_mark("reset") or 0))
        assert not any(EARLIER_STEP in r.text for r in reset)
        assert table.draft.rack == table.draft.base_rack
    finally:
        await h.close()


async def test_a_panel_of_a_cancelled_game_does_not_act_in_the_next_one(tmp_path: Path) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        old = h.manager.tables[CHANNEL.key]
        mark, turn = old.click_mark("draw"), h.game.turn
        assert mark is not None
        await h.say(ANN, "cancel")
        await h.say(ANN, "yes")
        await h.say(ANN, "start")
        await h.say(BOB, "join")
        await h.say(ANN, "deal")
        table = h.manager.tables[CHANNEL.key]
        assert table.game is not None and table.game_id != old.game_id
        while table.game.turn < turn:  # the new game reaches the same turn number
            current = table.seats[table.game.current].player
            assert current is not None
            await h.manager.handle(current, CHANNEL, "draw")
        assert table.game.turn == turn
        player = table.seats[table.game.current].player
        assert player is not None
        version, snapshot = table.version, table.game.to_text()
        said = await h.manager.handle(player, CHANNEL, click("draw", mark))
        assert [OVER in r.text for r in said] == [True]
        assert (table.version, table.game.to_text()) == (version, snapshot)
    finally:
        await h.close()
