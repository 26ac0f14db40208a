"""Where Telegram updates go: commands in groups and private chats, replies to the bot, the
command menu, webhook mode, the outbox, and groups that become supergroups (real PTB against
the fake Bot API, a scripted ``TinyGame`` behind it)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import pytest

from bot.api import ChannelRef, PlayerRef, Reply
from bot.commands import ALL_VERBS, parse_command
from bot.platforms.telegram import TelegramAdapter, TelegramConfig, run_telegram
from bot.platforms.telegram.app import GROUP_COMMANDS
from bot.platforms.telegram.config import api_urls
from bot.platforms.telegram.handlers import command_text
from bot.platforms.telegram.render import split_text, to_html
from tests.bot.platforms.telegram.support import (
    ANN,
    BOB,
    GROUP,
    TinyGame,
    settle,
    telegram_config,
)
from tests.fakes.telegram_api import FakeTelegram

# PTB 22 flags RetryAfter.retry_after as changing type when it is read.
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_commands_registered_and_routed(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, game = running
    assert [c["command"] for c in fake.commands["all_group_chats"]] == [
        n for n, _ in GROUP_COMMANDS
    ]
    assert "start" in [c["command"] for c in fake.commands["all_private_chats"]]
    polish = fake.commands["all_group_chats:pl"]
    assert [c["command"] for c in polish] == [
        c["command"] for c in fake.commands["all_group_chats"]
    ]
    assert polish[0]["description"].startswith("otwórz tu poczekalnię gry")
    fake.send_group(GROUP, ANN, f"/new@{fake.bot_username}")
    fake.send_group(GROUP, BOB, "/rummikub play R5 R6 R7")
    fake.send_group(GROUP, BOB, "/weather@other_bot now")
    await settle(fake, adapter)
    assert game.calls == [
        (str(ANN), str(GROUP), "new", True),
        (str(BOB), str(GROUP), "play R5 R6 R7", False),
    ]
    lobby = fake.chat_messages(GROUP)[0]
    assert lobby.text == "Lobby open." and lobby.button("Join")["callback_data"] == "/join"


async def test_group_reply_is_a_command_and_slow_presses_stop_spinning(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, game = running
    fake.send_group(GROUP, ANN, "/new")
    await settle(fake, adapter)
    lobby = fake.chat_messages(GROUP)[0]
    fake.send_group(GROUP, ANN, "play R5 R6 R7", reply_to=lobby)
    await settle(fake, adapter)
    assert game.calls[-1] == (str(ANN), str(GROUP), "play R5 R6 R7", True)
    # A press whose command takes longer than answer_within: answered at once, reply later.
    query = fake.press(lobby, ANN, data="/slow")
    await settle(fake, adapter)
    assert fake.callback_answers[query] == [{"callback_query_id": query}]
    assert fake.chat_messages(ANN)[-1].text == "Sorry, that took a while."


async def test_webhook_mode(fake: FakeTelegram, tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    game = TinyGame()
    config = telegram_config(
        fake,
        tmp_path,
        webhook_url="https://bot.example.org/tg-hook",
        webhook_listen="127.0.0.1",
        webhook_port=port,
        webhook_secret="s3cret",
    )
    adapter = TelegramAdapter(game, config)
    await adapter.start()
    try:
        assert fake.webhook_url == "https://bot.example.org/tg-hook"
        update = {
            "update_id": 1,
            "message": {
                "message_id": 1,
                "date": 0,
                "chat": fake.chats[GROUP],
                "from": fake.users[ANN],
                "text": "/new",
                "entities": [{"type": "bot_command", "offset": 0, "length": 4}],
            },
        }
        url = f"http://127.0.0.1:{port}/tg-hook"
        async with aiohttp.ClientSession() as session:
            bad = await session.post(
                url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "x"}
            )
            assert bad.status == 403
            good = await session.post(
                url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
            )
            assert good.status == 200
        await fake.wait_message(GROUP, lambda m: m.text == "Lobby open.")
        assert game.calls == [(str(ANN), str(GROUP), "new", True)]
    finally:
        await adapter.stop()


async def test_outbox_replies_reach_their_chats(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    _, game = running
    assert game.outbox is not None
    channel = ChannelRef("telegram", str(GROUP))
    ann = PlayerRef("telegram", str(ANN), "Ann")
    await asyncio.gather(
        game.outbox(Reply(channel, "Ann, 1 hour left on your turn.", private_to=ann)),
        game.outbox(Reply(channel, "Time is up for Ann: she draws 3.")),
    )
    mark = fake.mark()
    await game.outbox(Reply(ChannelRef("discord", "42"), "Not for Telegram."))
    assert fake.calls[mark:] == []
    assert fake.chat_messages(ANN)[-1].text == "Ann, 1 hour left on your turn."
    assert fake.chat_messages(GROUP)[-1].text == "Time is up for Ann: she draws 3."


async def test_run_telegram_until_stopped(fake: FakeTelegram, tmp_path: Path) -> None:
    """The entry ``rummikub run`` uses: runs until the stop event, then shuts down cleanly."""
    game = TinyGame()
    stop = asyncio.Event()
    config = TelegramConfig(
        token=fake.token,
        api_base_url=fake.base_url,
        state_path=str(tmp_path / "state.sqlite3"),
        poll_timeout=5,
    )
    task = asyncio.create_task(run_telegram(game, fake.token, config=config, stop=stop))
    fake.send_group(GROUP, ANN, "/new")
    await fake.wait_message(GROUP, lambda m: m.text == "Lobby open.")
    stop.set()
    await asyncio.wait_for(task, 10)
    assert game.outbox is not None and task.exception() is None


async def test_a_group_upgraded_to_a_supergroup_keeps_its_game(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, game = running
    old, new = -4001, -1004001
    fake.add_group(old, "Basic group", admins=[ANN], kind="group")
    fake.send_group(old, ANN, "/new")
    await settle(fake, adapter)
    fake.upgrade_group(old, new, by=ANN)
    await settle(fake, adapter)
    since = fake.mark()
    fake.send_group(new, ANN, "/join")
    await settle(fake, adapter)
    # The game is still the old group's (its storage key); Ann is still its admin.
    assert game.calls[-1] == (str(ANN), str(old), "join", True)
    assert [m.text for m in fake.chat_messages(new)] == ["Lobby: Ann"]
    # Messages caused by timers and AI turns go to the supergroup too.
    assert game.outbox is not None
    await game.outbox(Reply(ChannelRef("telegram", str(old)), "Time ran out."))
    assert fake.chat_messages(new)[-1].text == "Time ran out."
    assert fake.calls_to(old, since=since) == []  # nothing tried the old id after the notice


async def test_an_upgrade_the_bot_missed_is_learnt_from_the_first_failed_send(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, game = running
    old, new = -4002, -1004002
    fake.add_group(old, "Basic group", admins=[ANN], kind="group")
    fake.send_group(old, ANN, "/new")
    await settle(fake, adapter)
    fake.upgrade_group(old, new, by=ANN, announce=False)  # e.g. while the bot was down
    assert game.outbox is not None
    await game.outbox(Reply(ChannelRef("telegram", str(old)), "Your turn, Ann."))
    assert fake.chat_messages(new)[-1].text == "Your turn, Ann."
    fake.send_group(new, ANN, "/status")
    await settle(fake, adapter)
    assert game.calls[-1] == (str(ANN), str(old), "status", True)


def test_menu_has_every_verb_of_the_command_language() -> None:
    menu = {name for name, _ in GROUP_COMMANDS}
    assert set(ALL_VERBS) - {"start"} <= menu
    assert {parse_command(f"/{name}").verb for name in menu - {"rummikub"}} == set(ALL_VERBS)


def test_pure_helpers() -> None:
    assert command_text("/play@bot R5 R6") == ("play", "play R5 R6")
    assert command_text("/rummikub") == ("rummikub", "help")
    assert command_text("/RUMMIKUB score") == ("rummikub", "score")
    assert api_urls(None) is None
    assert api_urls("http://127.0.0.1:8081") == (
        "http://127.0.0.1:8081/bot",
        "http://127.0.0.1:8081/file/bot",
    )
    assert api_urls("http://h/bot/") == ("http://h/bot", "http://h/file/bot")
    ann = PlayerRef("telegram", "5", "Ann <3")
    assert to_html("Ann <3 & Bo", (ann,)) == '<a href="tg://user?id=5">Ann &lt;3</a> &amp; Bo'
    assert to_html("no names", (ann,)) == 'no names\n<a href="tg://user?id=5">Ann &lt;3</a>'
    assert split_text("a\nb\nc", 3) == ["a", "b\nc"]
    assert split_text("é" * 5, 2) == ["éé", "éé", "é"]
