"""Issue 15, defect 4: a ``rummikub run`` process is killed (SIGKILL) just after a turn is
stored and before any of its announcements reached Telegram; the restarted process sends them,
and afterwards the group and the player see exactly the stored turn.

The window is hit deterministically: the fake Bot API holds every call that would change a
chat (``hold_sends``) before the command is typed, so when the first one arrives the turn is
committed (the manager stores it before it hands back a reply) and nothing of it is shown yet.
The held calls are then dropped, as a dead process's requests are.
"""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.presenter import Presenter
from engine import Game
from tests.test_operating import WAIT, Fakes, start_bot

USER_NAME = "Ann"


@pytest.fixture
def apis() -> Iterator[Fakes]:
    running = Fakes()
    try:
        yield running
    finally:
        running.close()


def messages(apis: Fakes) -> dict[str, list[dict[str, Any]]]:
    apis.send("messages")
    return apis.expect("messages")


def wait_until(
    apis: Fakes, test: Callable[[dict[str, list[dict[str, Any]]]], bool], what: str
) -> dict[str, list[dict[str, Any]]]:
    deadline = time.monotonic() + WAIT
    seen = messages(apis)
    while time.monotonic() < deadline:
        if test(seen):
            return seen
        time.sleep(0.2)
        seen = messages(apis)
    raise AssertionError(f"never saw {what}; the chats show:\n{json.dumps(seen, indent=1)}")


def said(chat: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    return [m for m in chat if text in m["text"]]


def with_button(chat: list[dict[str, Any]], label: str) -> list[dict[str, Any]]:
    return [m for m in chat if label in m["buttons"]]


def ann_to_play(seen: dict[str, list[dict[str, Any]]]) -> bool:
    """Ann's turn is shown everywhere: the call in the group, her panel in private."""
    group, private = seen["group"], seen["private"]
    calls = said(group, "it's your turn")
    return bool(calls and USER_NAME in calls[-1]["text"] and with_button(private, "Done"))


def stored_game(db: Path) -> tuple[Game, list[str], int, int]:
    """The channel's game as stored: the position, seat names, version, unsent entries."""
    with sqlite3.connect(db) as connection:
        snapshot, seats, version = connection.execute(
            "SELECT snapshot, seats, version FROM game WHERE finished_at IS NULL"
        ).fetchone()
        (unsent,) = connection.execute(
            "SELECT count(*) FROM outbox WHERE delivered_at IS NULL"
        ).fetchone()
    names = [seat["name"] for seat in json.loads(seats)]
    return Game.from_text(snapshot), names, version, unsent


def confirmed(apis: Fakes) -> bool:
    apis.send("report")
    report = apis.expect("report")
    return bool(report["telegram_confirmed"] > report["telegram_last_update"])


def kill_once_stored(apis: Fakes, bot: subprocess.Popen[str], command: str = "/draw") -> None:
    """Type ``command`` in the Telegram group with every send held: once the turn is stored
    (the first send arrives and is held) and the update confirmed (so it is not delivered
    again), SIGKILL the bot; Telegram has shown nothing of the turn."""
    apis.send("hold_sends")
    apis.send("telegram_group", text=command)
    apis.expect("held")
    deadline = time.monotonic() + WAIT
    while not confirmed(apis):  # the update itself is done with: no replay on restart
        assert time.monotonic() < deadline, f"the {command} update was never confirmed"
        time.sleep(0.1)
    bot.send_signal(signal.SIGKILL)
    bot.wait(WAIT)


def test_a_turn_stored_before_a_sigkill_is_shown_everywhere_after_the_restart(
    tmp_path: Path, apis: Fakes
) -> None:
    db = tmp_path / "bot.db"
    bot, log = start_bot(tmp_path, apis)
    try:
        apis.expect("telegram_polling")
        apis.send("telegram_group", text="/new timer=600 games=1")
        wait_until(apis, lambda s: bool(with_button(s["group"], "Deal")), "the lobby")
        apis.send("telegram_group", text="/addbot easy")
        wait_until(apis, lambda s: bool(said(s["group"], "AI")), "the AI seat")
        apis.send("telegram_group", text="/deal")
        before = wait_until(apis, ann_to_play, "Ann's turn")
        [table] = with_button(before["group"], "My rack")
        game, _names, version, _unsent = stored_game(db)
        drew_before = len(said(before["group"], "Ann drew a tile"))

        kill_once_stored(apis, bot)  # the turn is stored; Telegram has shown nothing of it
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    apis.send("drop_held")
    killed_output = log.rest()

    game, names, killed_version, unsent = stored_game(db)
    assert killed_version > version, "the turn was not stored before the kill"
    assert unsent > 0, "nothing was left to send: the kill came too late"
    stale = messages(apis)
    assert len(said(stale["group"], "Ann drew a tile")) == drew_before, killed_output[-3000:]

    bot, log = start_bot(tmp_path, apis)
    try:
        wait_until(
            apis,
            lambda s: (
                len(said(s["group"], "Ann drew a tile")) == drew_before + 1 and ann_to_play(s)
            ),
            "the stored turn's news after the restart",
        )
        deadline = time.monotonic() + WAIT
        while stored_game(db)[3] > 0:  # everything it sent again is confirmed
            assert time.monotonic() < deadline, "the outbox was not emptied"
            time.sleep(0.2)
        now = messages(apis)
    finally:
        bot.send_signal(signal.SIGTERM)
        code = bot.wait(WAIT)
    output = log.rest()
    assert code == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]

    game, names, final_version, _ = stored_game(db)
    assert final_version == killed_version  # nothing was played again
    presenter = Presenter(images=False)
    # the group's table message, edited in place, shows the stored position
    [shown] = with_button(now["group"], "My rack")
    assert shown["id"] == table["id"] and shown["edits"] > table["edits"]
    untimed = re.sub(r" · [\d:]+ left", "", shown["text"])  # the clock has moved on
    assert untimed == presenter.table_text(game, names, None), shown["text"]
    # the news came once; Ann's rack and panel show her rack as stored
    assert len(said(now["group"], "Ann drew a tile")) == drew_before + 1
    seat = names.index(USER_NAME)
    rack = presenter.rack_line(game, seat, "color")
    assert said(now["private"], rack), (rack, now["private"])
    [panel] = with_button(now["private"], "Done")
    tiles = " ".join(str(tile) for tile in game.draft(seat).rack)
    assert all(code in panel["text"] for code in tiles.split()), (tiles, panel["text"])


def discord_messages(apis: Fakes) -> dict[str, Any]:
    apis.send("discord_messages")
    return apis.expect("discord_messages")


def discord_until(apis: Fakes, test: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    seen = discord_messages(apis)
    while not test(seen):
        if time.monotonic() > deadline:
            raise AssertionError(f"never saw {what}; Discord shows:\n{json.dumps(seen, indent=1)}")
        time.sleep(0.2)
        seen = discord_messages(apis)
    return seen


def table_of(seen: dict[str, Any]) -> dict[str, Any] | None:
    tables = with_button(seen["channel"], "My rack")
    return tables[-1] if tables else None


def stored_version(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        row = connection.execute("SELECT version FROM game WHERE finished_at IS NULL").fetchone()
    return int(row[0]) if row else 0


def test_a_discord_turn_stored_before_a_sigkill_is_shown_after_the_restart(
    tmp_path: Path, apis: Fakes
) -> None:
    db = tmp_path / "bot.db"
    bot, log = start_bot(tmp_path, apis)
    try:
        apis.expect("discord_identified")
        apis.send("discord_slash", path="start")
        discord_until(apis, lambda s: bool(with_button(s["channel"], "Deal")), "the lobby")
        apis.send("discord_slash", path="addbot")
        discord_until(apis, lambda s: bool(said(s["channel"], "AI")), "the AI seat")
        apis.send("discord_slash", path="deal")

        def bo_to_play(seen: dict[str, Any]) -> bool:
            table = table_of(seen)
            return table is not None and "Bo to play" in table["text"]

        before = discord_until(apis, bo_to_play, "Bo's turn")
        table = table_of(before)
        assert table is not None
        version = stored_version(db)
        drew_before = len(said(before["channel"], "Bo drew a tile"))

        apis.send("discord_hold_sends")
        apis.send("discord_slash", path="draw")
        apis.expect("discord_held")  # the answer waits; the turn is stored before it
        deadline = time.monotonic() + WAIT
        while stored_version(db) == version:
            assert time.monotonic() < deadline, "the turn was never stored"
            time.sleep(0.05)
        bot.send_signal(signal.SIGKILL)
        bot.wait(WAIT)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    apis.send("discord_drop_held")
    log.rest()
    game, names, killed_version, unsent = stored_game(db)
    assert unsent > 0, "nothing was left to send: the kill came too late"
    assert len(said(discord_messages(apis)["channel"], "Bo drew a tile")) == drew_before

    bot, log = start_bot(tmp_path, apis)
    try:
        discord_until(
            apis,
            lambda s: len(said(s["channel"], "Bo drew a tile")) == drew_before + 1,
            "the stored turn's news after the restart",
        )
        deadline = time.monotonic() + WAIT
        while stored_game(db)[3] > 0:
            assert time.monotonic() < deadline, "the outbox was not emptied"
            time.sleep(0.2)
        now = discord_messages(apis)
    finally:
        bot.send_signal(signal.SIGTERM)
        code = bot.wait(WAIT)
    output = log.rest()
    assert code == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]

    game, names, final_version, _ = stored_game(db)
    assert final_version == killed_version
    presenter = Presenter(images=False)
    shown = table_of(now)
    assert shown is not None and shown["id"] == table["id"] and shown["edits"] > table["edits"]
    untimed = re.sub(r" · [\d:]+ left", "", shown["text"])
    for line in presenter.table_text(game, names, None).splitlines():
        assert line.strip() in untimed, (line, shown["text"])
    seat = names.index("Bo")
    rack = presenter.rack_line(game, seat, "color")
    assert said(now["dms"], rack), (rack, now["dms"])
    assert len(said(now["channel"], "Bo drew a tile")) == drew_before + 1
