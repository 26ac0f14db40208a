"""Issue 22: a command's text is read once on its way in. Every update's text goes through
``read_command`` exactly once, and the ``Command`` it gives flows on to the game unchanged
(no text is handed to ``GameService.handle``); the package never calls ``parse_command``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import commands
from bot.commands import Command
from bot.platforms.telegram import TelegramAdapter
from bot.platforms.telegram.games import privately
from tests.bot.platforms.telegram.support import ANN, BOB, GROUP, TinyGame, settle
from tests.fakes.telegram_api import FakeTelegram

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

PACKAGE = Path(__file__).resolve().parents[4] / "bot" / "platforms" / "telegram"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the Telegram package hands ``read_command``, in order (the real reader
    still answers: this only counts)."""
    seen: list[str] = []

    def counting(text: str) -> Command:
        seen.append(text)
        return commands.read_command(text)

    patched = 0
    for name, module in list(sys.modules.items()):
        if name.startswith("bot.platforms.telegram") and hasattr(module, "read_command"):
            monkeypatch.setattr(module, "read_command", counting)
            patched += 1
    assert patched >= 2  # the handlers and the games room read commands
    return seen


async def test_every_update_s_text_is_read_once_and_its_command_reaches_the_game(
    fake: FakeTelegram,
    running: tuple[TelegramAdapter, TinyGame],
    reads: list[str],
) -> None:
    adapter, game = running
    fake.send_private(BOB, "/start")
    await settle(fake, adapter)
    fake.send_group(GROUP, ANN, "/new")
    await settle(fake, adapter)
    lobby = fake.chat_messages(GROUP)[0]

    async def one(update: Callable[[], object], text: str, verb: str, args: str) -> None:
        before, handed = len(reads), len(game.commands)
        update()
        await settle(fake, adapter)
        assert reads[before:] == [text]
        (command,) = game.commands[handed:]
        assert isinstance(command, Command), "the game is handed the Command, not text"
        assert (command.verb, command.args) == (verb, args)

    bot = fake.bot_username
    await one(
        lambda: fake.send_group(GROUP, ANN, f"/play@{bot} R5 R6"), "play R5 R6", "play", "R5 R6"
    )
    await one(lambda: fake.send_group(GROUP, ANN, "/rummikub hint"), "hint", "hint", "")
    await one(lambda: fake.send_private(ANN, "draw"), "draw", "draw", "")
    await one(lambda: fake.send_private(ANN, "/undo"), "undo", "undo", "")
    await one(lambda: fake.send_private(ANN, "language pl"), "language pl", "language", "me pl")
    await one(
        lambda: fake.send_group(GROUP, BOB, "play R7 R8 R9", reply_to=lobby),
        "play R7 R8 R9",
        "play",
        "R7 R8 R9",
    )
    await one(lambda: fake.press(lobby, BOB, "Join"), "join", "join", "")
    # A bare command of another bot in the group: read once, found not to be ours, left alone.
    before, handed = len(reads), len(game.commands)
    fake.send_group(GROUP, ANN, "/weather now")
    await settle(fake, adapter)
    assert reads[before:] == ["weather now"] and game.commands[handed:] == []


def test_a_private_language_is_the_speaker_s_own_and_keeps_its_word_count() -> None:
    mine = privately(commands.read_command("language pl"))
    assert (mine.verb, mine.args, mine.problem) == ("language", "me pl", None)
    assert privately(commands.read_command("language me en")).args == "me en"
    too_many = privately(commands.read_command("language en pl"))
    assert too_many.problem is not None  # "me en pl": three words, as typed in full
    assert "does not take 'pl'" in str(too_many.problem)
    other = commands.read_command("play R5 R6 R7")
    assert privately(other) is other


def test_guard_the_package_never_parses_text_itself() -> None:
    """Next to the behavioural test above: no module of the adapter calls ``parse_command``
    (only ``read_command``, once per update)."""
    callers = [p.name for p in PACKAGE.glob("*.py") if "parse_command(" in p.read_text()]
    assert callers == []
