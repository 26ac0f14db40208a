"""Private content stays private on Telegram: a player who never started the bot gets a deep
link in the group (never their rack), a blocked one is not knocked on again, and the
adapter's own sentences (notices, apologies) follow the chat's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.api import ChannelRef
from bot.platforms.telegram import TelegramAdapter
from tests.bot.platforms.telegram.support import (
    ANN,
    BOB,
    GROUP,
    TinyGame,
    group_texts,
    settle,
    telegram_config,
)
from tests.fakes.telegram_api import FakeTelegram

# PTB 22 flags RetryAfter.retry_after as changing type when it is read.
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_deep_link_for_a_player_who_never_started_the_bot(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, game = running
    fake.send_group(GROUP, ANN, "/new")
    await settle(fake, adapter)
    lobby = fake.chat_messages(GROUP)[0]
    fake.press(lobby, BOB, "Join")
    await settle(fake, adapter)
    # Bob's rack could not be sent: the group gets a link, never the rack.
    notice = await fake.wait_message(GROUP, lambda m: "private" in (m.text or ""))
    assert notice.text is not None and notice.text.startswith("Bob, I can't send you")
    assert "tg://user?id=1002" in (notice.raw or "")
    url = notice.button("Open my private chat")["url"]
    assert url == f"https://t.me/{fake.bot_username}?start=gm1001234567890"
    assert "SECRET" not in group_texts(fake)
    assert fake.chat_messages(BOB) == []
    # Bob taps the link and presses Start: the game chat comes from the payload.
    calls = len(game.calls)
    fake.open_deep_link(BOB, url)
    await settle(fake, adapter)
    # The rack and panel are asked for afresh (a kept copy could be stale by now).
    assert game.calls[calls:] == [
        (str(BOB), str(GROUP), "rack", False),
        (str(BOB), str(GROUP), "panel", False),
    ]
    panel = fake.chat_messages(BOB)[-1]
    assert panel.photo is not None and f"SECRET-{BOB}" in (panel.text or "")
    done = panel.button("Done")["callback_data"]
    assert done == f"@{GROUP} done"
    # Text typed in the private chat now reaches the group's game.
    fake.send_private(BOB, "play R1 R2 R3")
    await settle(fake, adapter)
    assert game.calls[-1] == (str(BOB), str(GROUP), "play R1 R2 R3", False)


async def test_blocked_player_and_retry_after(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, game = running
    fake.send_private(BOB, "/start")
    fake.send_group(GROUP, ANN, "/join")
    await settle(fake, adapter)
    fake.send_group(GROUP, BOB, "/join")
    await settle(fake, adapter)
    fake.block(BOB)
    fake.retry_after_once("sendPhoto", 1)
    mark = fake.mark()
    fake.send_group(GROUP, ANN, "/done")
    await settle(fake, adapter)
    # The table still arrived after Telegram's 429 (the limiter waited and retried).
    calls = [c for c in fake.calls[mark:] if c.method == "sendPhoto"]
    assert [c.status for c in calls][:2] == [429, 200]
    notice = await fake.wait_message(GROUP, lambda m: "Bob, I can't send you" in (m.text or ""))
    assert "SECRET" not in group_texts(fake)
    # Bob plays from the group; the game goes on without his private chat.
    fake.send_group(GROUP, BOB, "/done")
    await settle(fake, adapter)
    assert game.turn == 2
    assert [m for m in fake.chat_messages(GROUP) if "can't send" in (m.text or "")] == [notice]
    # Bob unblocks and writes: his panel is edited to how it is now (turn 2), not to the
    # turn-1 panel that could not be sent while he was away.
    fake.unblock(BOB)
    fake.send_private(BOB, "status")
    await settle(fake, adapter)
    panel = next(m for m in fake.chat_messages(BOB) if m.photo is not None)
    assert f"Turn 2. Your rack: SECRET-{BOB}" in (panel.text or "") and panel.edits == 1
    assert game.calls[-1] == (str(BOB), str(GROUP), "status", False)


class PolishGame(TinyGame):
    """A game whose chats speak Polish (``GameManager.language`` does this for real)."""

    async def language(self, channel: ChannelRef) -> str:
        return "pl"


async def test_the_adapter_s_own_sentences_follow_the_chat_language(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    adapter = TelegramAdapter(PolishGame(), telegram_config(fake, tmp_path))
    await adapter.start()
    try:
        fake.send_group(GROUP, ANN, "/new")
        await settle(fake, adapter)
        fake.press(fake.chat_messages(GROUP)[0], BOB, "Join")
        await settle(fake, adapter)
        notice = await fake.wait_message(GROUP, lambda m: "prywatnie" in (m.text or ""))
        assert notice.text is not None
        assert notice.text.startswith("Bob, nie mogę jeszcze pisać do ciebie prywatnie.")
        assert notice.button("Otwórz mój czat prywatny")["url"].startswith("https://t.me/")
    finally:
        await adapter.stop()


async def test_failures_are_one_sentence_and_long_texts_split(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, _ = running
    fake.send_private(ANN, "boom")
    fake.send_group(GROUP, ANN, "/rummikub long")
    await settle(fake, adapter)
    assert fake.chat_messages(ANN)[-1].text == (
        "Something went wrong on my side while running that command; please try again."
    )
    pieces = [m.text or "" for m in fake.chat_messages(GROUP)]
    assert len(pieces) == 3 and "".join(pieces) == "x" * 9000
