"""Issue 26, defect 6 (adapter side): a button made for one game turn (``Button.turn``) carries
that turn in its callback data, within Telegram's 64 bytes, and a click hands it back as
``Command.turn``; buttons made for no turn, and panels sent before turns were carried, still
work."""

from __future__ import annotations

import pytest

from bot.api import Button, ChannelRef, PlayerRef, Reply
from bot.commands import Command
from bot.platforms.telegram.codes import MAX_CALLBACK, CallbackCodes, Pressed
from bot.platforms.telegram.state import TelegramState
from tests.bot.doubles import StandIn, as_text
from tests.bot.platforms.telegram.conftest import StartAdapter
from tests.bot.platforms.telegram.support import ANN, GROUP, settle
from tests.fakes.telegram_api import FakeTelegram

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

LONGEST = "auto " + " ".join(f"{c}{n}" for c in "RBOK" for n in range(10, 14)) + " J J"
GAME = "-1001234567890123"  # longer than any Telegram chat id


class PanelGame(StandIn):
    """Shows a panel whose buttons were made for turn 7 (and one made for no turn), in the
    group and in the private chat; records every command it is handed."""

    def __init__(self) -> None:
        super().__init__()
        self.commands: list[Command | str] = []

    async def handle(  # type: ignore[override]
        self, player: PlayerRef, channel: ChannelRef, command: str | Command, *, admin: bool = False
    ) -> list[Reply]:
        self.commands.append(command)
        if as_text(command) != "panel":
            return []
        buttons = (
            (Button("Done", "done", turn=7), Button("Auto", LONGEST, turn=7)),
            (Button("Status", "status"),),
        )
        return [
            Reply(channel, "Turn 7: the group's panel.", buttons=buttons, slot="panel"),
            Reply(channel, "Turn 7: yours.", buttons=buttons, private_to=player, slot="mine"),
        ]


async def test_a_button_made_for_turn_7_hands_back_command_turn_7(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    game = PanelGame()
    adapter = await start_adapter(game)
    fake.send_group(GROUP, ANN, "/panel")
    await settle(fake, adapter)
    (group_panel,) = fake.chat_messages(GROUP)
    (private_panel,) = fake.chat_messages(ANN)
    assert group_panel.button("Done")["callback_data"] == "7/done"
    assert private_panel.button("Done")["callback_data"] == f"7@{GROUP} done"
    assert private_panel.button("Auto")["callback_data"].startswith("7~")
    for panel in (group_panel, private_panel):
        for label in ("Done", "Auto", "Status"):
            fake.press(panel, ANN, label)
            await settle(fake, adapter)
    clicks = [c for c in game.commands[1:] if isinstance(c, Command)]
    assert len(clicks) == len(game.commands) - 1 == 6
    assert [(c.verb, c.turn) for c in clicks] == [("done", 7), ("auto", 7), ("status", None)] * 2
    assert clicks[1].args == LONGEST.removeprefix("auto ")
    typed = game.commands[0]
    assert isinstance(typed, Command) and (typed.verb, typed.turn) == ("panel", None)


async def test_panels_sent_before_turns_were_carried_still_work(
    fake: FakeTelegram, start_adapter: StartAdapter
) -> None:
    """Callback data of the old forms (``/done``, ``@<chat> done``, an old ``~code``) decodes
    as before, with no turn."""
    game = PanelGame()
    adapter = await start_adapter(game)
    fake.send_group(GROUP, ANN, "/panel")
    await settle(fake, adapter)
    panel = fake.chat_messages(GROUP)[0]
    old_code = adapter.outgoing.codes.encode("auto R1 " + "R2 " * 30, None)  # stored, no turn
    for data in ("/done", f"@{GROUP} done", old_code):
        fake.press(panel, ANN, data=data)
        await settle(fake, adapter)
    clicks = game.commands[1:]
    assert [(c.verb, c.turn) for c in clicks if isinstance(c, Command)] == [
        ("done", None),
        ("done", None),
        ("auto", None),
    ]


def test_callback_data_stays_within_64_bytes_for_the_longest_commands() -> None:
    codes = CallbackCodes(TelegramState(None))
    commands = [LONGEST, "stats " + "Zażółć gęślą jaźń " * 4, "pick R13", "done", "target new"]
    for command in commands:
        for chat in (None, GAME):
            for turn in (None, 0, 7, 999, 123456789012):
                data = codes.encode(command, chat, turn)
                assert len(data.encode()) <= MAX_CALLBACK, data
                assert codes.decode(data) == Pressed(chat, command, turn)


def test_turns_do_not_multiply_the_stored_codes() -> None:
    """A long command's code names the chat and command only: each turn's panel reuses it."""
    state = TelegramState(None)
    codes = CallbackCodes(state)
    data = [codes.encode(LONGEST, GAME, turn) for turn in range(1, 40)]
    assert len(state.keys("code")) == 1
    assert {d.partition("~")[2] for d in data} == {state.keys("code")[0]}


def test_data_that_is_no_form_is_not_a_press() -> None:
    codes = CallbackCodes(TelegramState(None))
    assert codes.decode("7") is None
    assert codes.decode("x/done") is None
    assert codes.decode("7~unknown") is None
    assert codes.decode("") is None
