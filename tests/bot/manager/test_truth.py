"""The stored game is the whole truth (issue 12): one test per defect, through
``GameManager.handle`` on a real SQLite file, plus what a restart must bring back."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.api import PlayerRef, Reply
from bot.manager import GameManager, describe
from bot.manager import turns as manager_module
from bot.scheduler import ManualScheduler
from tests.bot.conftest import InternalErrors
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness

CAT = PlayerRef("test", "u-cat", "Cat")


class Killed(BaseException):
    """Stands for the process dying at this point (nothing below it runs, no handler sees it)."""


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


async def reopen(h: Harness, path: Path) -> Harness:
    """Stop ``h`` (only the database remains) and start a fresh manager on the same file."""
    now = h.scheduler.now()
    await h.close()
    fresh = await Harness.open(path, scheduler=ManualScheduler(start=now))
    await fresh.manager.resume()
    return fresh


async def rebuilt(h: Harness) -> dict[str, object] | None:
    """The channel's table as a second manager rebuilds it from the database alone."""
    other = GameManager(h.db, scheduler=ManualScheduler(start=h.scheduler.now()))
    try:
        await other.resume()
        return describe(other.tables.get(CHANNEL.key))
    finally:
        await other.close()


async def human_to_move(h: Harness, player: PlayerRef) -> None:
    """Draw for the other humans until ``player`` is to move (AI seats move by themselves)."""
    for _ in range(10):
        table = h.manager.tables[CHANNEL.key]
        assert table.game is not None
        current = table.seats[table.game.current].player
        if current is not None and current.same_person(player):
            return
        assert current is not None
        await h.say(current, "draw")
    pytest.fail(f"{player.display_name} never got the turn")


# ----- 1 -------------------------------------------------------------------------------------


async def test_1_leave_or_kick_mid_game_is_stored_and_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(CAT, "join")
    await h.say(ANN, "deal")
    bob_seat = h.seat(BOB)
    await h.say(BOB, "leave")
    await h.say(ANN, "kick Cat")
    memory = describe(h.manager.tables[CHANNEL.key])
    h = await reopen(h, path)
    try:
        table = h.manager.tables[CHANNEL.key]
        assert table.seats[bob_seat].player is None and table.seats[bob_seat].ai is not None
        assert table.seats[bob_seat].why == "left"
        assert [s.why for s in table.seats if s.ai] == ["left", "kicked"]
        assert "not seated" in texts(await h.say(BOB, "rack"))
        assert describe(table) == memory
    finally:
        await h.close()


# ----- 2 -------------------------------------------------------------------------------------


async def test_2_the_next_game_after_a_seat_changed_hands_records_its_result(h: Harness) -> None:
    await h.say(ANN, "start games=2 rack_size=7 threshold=0")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    await h.say(BOB, "leave")
    for _ in range(300):
        if CHANNEL.key not in h.manager.tables:
            break
        if h.game.turn % 7 == 0:  # now and then the timer plays Ann's turn
            await h.scheduler.advance(h.game.rules.turn_seconds)
        else:
            await h.play_like_ai(ANN)
    else:
        pytest.fail("the match did not end")
    everything = texts(h.sent)
    assert "Something went wrong" not in everything
    assert "The match is over" in everything
    stored = await h.manager.matches.load_active(CHANNEL.platform, CHANNEL.chat_id)
    assert stored is None  # the match was closed, with both results
    history = await h.manager.games.history(CHANNEL.platform, CHANNEL.chat_id)
    assert [g.status for g in history] == ["finished", "finished"]
    assert all(g.match_id is not None for g in history)
    match = await h.manager.matches.load(history[0].match_id or 0)
    assert len(match.results) == 2
    assert {p.player_id for p in match.players} == {ANN.user_id, BOB.user_id}


# ----- 3 -------------------------------------------------------------------------------------


async def test_3_a_restart_between_two_ai_turns_runs_the_ai_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await h.say(ANN, "start")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "deal")
    await human_to_move(h, ANN)
    turn = h.game.turn
    real = manager_module.choose_move
    calls = 0

    def dies_on_the_second_ai_turn(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise Killed
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(manager_module, "choose_move", dies_on_the_second_ai_turn)
    with pytest.raises(Killed):
        await h.say(ANN, "draw")
    monkeypatch.setattr(manager_module, "choose_move", real)
    h = await reopen(h, path)
    try:
        assert h.game.turn == turn + 2  # Ann's draw and the first AI turn were stored
        await h.scheduler.advance(0)  # the due AI move runs at once, no human needed
        assert h.game.turn == turn + 3
        assert h.manager.tables[CHANNEL.key].seats[h.game.current].player == ANN
        assert "Time ran out" not in texts(h.sent)
    finally:
        await h.close()


async def test_3_a_restart_before_the_only_ai_moves_does_not_wait_a_turn_timer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await h.say(ANN, "start")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "deal")
    await human_to_move(h, ANN)
    turn = h.game.turn

    def dies(*args: object, **kwargs: object) -> object:
        raise Killed

    monkeypatch.setattr(manager_module, "choose_move", dies)
    with pytest.raises(Killed):
        await h.say(ANN, "draw")
    monkeypatch.undo()
    h = await reopen(h, path)
    try:
        await h.scheduler.advance(0)
        assert h.game.turn == turn + 2
        assert "Time ran out" not in texts(h.sent)
    finally:
        await h.close()


# ----- 4 -------------------------------------------------------------------------------------


async def test_4_a_double_click_against_ai_seats_does_not_play_your_next_turn(
    h: Harness,
) -> None:
    await h.say(ANN, "start")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "deal")
    await human_to_move(h, ANN)
    rack = len(h.game.players[h.seat(ANN)].rack)
    turn = h.game.turn
    first, second = await asyncio.gather(h.say(ANN, "draw"), h.say(ANN, "draw"))
    assert len(h.game.players[h.seat(ANN)].rack) == rack + 1
    assert h.game.turn == turn + 3
    assert "That turn is already over" in texts(first + second)
    again = await asyncio.gather(h.say(ANN, "done"), h.say(ANN, "done"))
    assert len(h.game.players[h.seat(ANN)].rack) == rack + 2
    assert "That turn is already over" in texts(again[0] + again[1])


# ----- 5 -------------------------------------------------------------------------------------


async def test_5_a_second_process_never_answers_from_a_stale_copy(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    one = await Harness.open(path)
    two = await Harness.open(path)
    try:
        await one.say(ANN, "start")
        await two.say(BOB, "join")  # the second process sees the lobby the first opened
        await one.say(ANN, "deal")
        first = one.game.current
        mover = ANN if one.seat(ANN) == first else BOB
        other = BOB if mover is ANN else ANN
        assert "not your turn" in texts(await two.say(other, "draw"))
        await one.say(mover, "draw")
        # process two never wrote since, yet it must not answer from its old copy
        status = texts(await two.say(other, "status"))
        assert f"{other.display_name} to play" in status
        replies = await two.say(other, "draw")
        assert "not your turn" not in texts(replies)
        assert f"{other.display_name} drew a tile" in texts(replies)
        assert "not your turn" not in texts(await one.say(mover, "rack"))
        assert describe(one.manager.tables[CHANNEL.key]) == describe(
            two.manager.tables[CHANNEL.key]
        )
    finally:
        await one.close()
        await two.close()


# ----- 6 -------------------------------------------------------------------------------------


async def test_6_superscripts_and_huge_numbers_get_one_sentence_and_change_nothing(
    h: Harness,
) -> None:
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    for text in ("kick ²", "kick 1" + "0" * 5000):
        reply = texts(await h.say(ANN, text))
        assert "Something went wrong" not in reply and len(reply) < 300
    assert [s.name for s in h.manager.tables[CHANNEL.key].seats] == ["Ann", "Bob"]
    assert "Bob joined" not in texts(await h.say(BOB, "leave"))  # the lobby is still here
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    mover = ANN if h.seat(ANN) == h.game.current else BOB
    before = h.game.to_text()
    huge = "1" + "0" * 5000
    for text in (
        "target ²",
        "target ３",
        f"target {huge}",
        f"play R5 to {huge}",
        f"move R5 from {huge} to new",
        f"split {huge} at R5",
        f"swap J in {huge} with R5",
        f"pick R{huge}",
        "play R5 to ²",
    ):
        replies = await h.say(mover, text)
        reply = texts(replies)
        assert "Something went wrong" not in reply, text
        assert len(reply) < 300, text
        assert len(replies) == 1 and replies[0].private_to == mover
    assert h.game.to_text() == before
    big = texts(await h.say(mover, "play " + "x" * 1_000_000))
    assert len(big) < 300
    assert h.game.to_text() == before


# ----- 7 -------------------------------------------------------------------------------------


async def test_7_internal_errors_are_logged_counted_and_never_escape_a_timer(
    h: Harness,
    monkeypatch: pytest.MonkeyPatch,
    expect_internal_errors: InternalErrors,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("a bug in the table view")

    monkeypatch.setattr(h.manager.presenter, "table_text", broken)
    with caplog.at_level(logging.ERROR, logger="bot.manager"):
        reply = texts(await h.say(ANN, "table"))
    assert "Something went wrong" in reply
    assert h.manager.internal_errors == 1
    record = next(r for r in caplog.records if getattr(r, "internal_error", False))
    assert record.exc_info is not None and "a bug in the table view" in caplog.text
    turn = h.game.turn
    await h.scheduler.advance(h.game.rules.turn_seconds)  # the timeout's table view fails too
    assert h.manager.internal_errors == 2
    assert len(expect_internal_errors.records) == 2
    monkeypatch.undo()
    # the failed timeout changed nothing in storage; the game still moves on afterwards
    assert await rebuilt(h) == describe(h.manager.tables[CHANNEL.key])
    await h.scheduler.advance(h.game.rules.turn_seconds)
    assert h.game.turn > turn


async def test_3_an_ai_move_due_at_start_up_is_announced_once_an_adapter_connects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await h.say(ANN, "start")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "deal")
    await human_to_move(h, ANN)

    def dies(*args: object, **kwargs: object) -> object:
        raise Killed

    monkeypatch.setattr(manager_module, "choose_move", dies)
    with pytest.raises(Killed):
        await h.say(ANN, "draw")
    monkeypatch.undo()
    now = h.scheduler.now()
    await h.close()
    # The bot starts: the manager resumes before any adapter has registered its outbox.
    from storage import Database

    db = Database(f"sqlite+aiosqlite:///{path}")
    await db.start()
    clock = ManualScheduler(start=now)
    manager = GameManager(db, scheduler=clock)
    try:
        await manager.resume()
        await clock.advance(0)  # the due AI move runs before the adapters are connected
        sent: list[Reply] = []

        async def outbox(reply: Reply) -> None:
            sent.append(reply)

        manager.set_outbox(outbox, platform=CHANNEL.platform)
        for _ in range(5):
            await asyncio.sleep(0)
        said = texts(sent)
        assert "AI 1 (easy)" in said and "it's your turn" in said
    finally:
        await manager.close()
        await db.close()
