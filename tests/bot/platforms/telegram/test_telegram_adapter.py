"""The Telegram adapter on its own: real PTB against the fake Bot API, a small game behind it.

These tests pin the adapter's duties (routing, privacy, edit in place, deep links, flood
control, button codes, webhook mode) with a tiny ``GameService`` written here; the full game
with the real manager is in test_telegram_game.py.
"""

from __future__ import annotations

import asyncio
import io
import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from PIL import Image as PILImage

from bot.api import Button, ChannelRef, Image, Outbox, PlayerRef, Reply, Select, SelectOption
from bot.commands import ALL_VERBS, Command, parse_command
from bot.platforms.telegram import TelegramAdapter, TelegramConfig, run_telegram
from bot.platforms.telegram.app import GROUP_COMMANDS
from bot.platforms.telegram.codes import MAX_CALLBACK
from bot.platforms.telegram.config import api_urls
from bot.platforms.telegram.handlers import command_text
from bot.platforms.telegram.pacing import Limits
from bot.platforms.telegram.render import split_text, to_html
from tests.bot.doubles import StandIn, as_text
from tests.fakes.telegram import FakeTelegram

# PTB 22 flags RetryAfter.retry_after as changing type when it is read.
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GROUP = -1001234567890
ANN, BOB = 1001, 1002


def png(color: str) -> bytes:
    buffer = io.BytesIO()
    PILImage.new("RGB", (40, 20), color).save(buffer, format="PNG")
    return buffer.getvalue()


class TinyGame(StandIn):
    """Join, then take turns with Done; each player has a secret rack shown only privately."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str, str, bool]] = []
        self.players: list[PlayerRef] = []
        self.turn = 0
        self.picked: dict[str, list[str]] = {}
        self.outbox: Outbox | None = None

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        self.outbox = outbox

    def rack(self, player: PlayerRef, channel: ChannelRef) -> Reply:
        picked = self.picked.get(player.user_id, [])
        tiles = ["R1", "R2", "B13", "K10", "O7", "J"] + [f"B{n}" for n in range(1, 10)]
        options = tuple(SelectOption(t, t, t in picked) for t in tiles)
        return Reply(
            channel,
            f"Turn {self.turn}. Your rack: SECRET-{player.user_id} " + " ".join(tiles),
            images=(Image("rack.png", png("blue")),),
            selects=(Select("pick", "tiles", options, max_values=len(options)),),
            buttons=(
                (Button("Auto", "auto " + " ".join(picked)), Button("Done", "done")),
                (Button("Rack", "rack"),),
            ),
            private_to=player,
            slot="panel",
        )

    def table(self, channel: ChannelRef) -> Reply:
        names = ", ".join(p.display_name for p in self.players)
        current = self.players[self.turn % len(self.players)] if self.players else None
        text = f"Table after {self.turn} turns. Players: {names}."
        if current is not None:
            text += f" {current.display_name} to play."
        return Reply(
            channel,
            text,
            images=(Image("table.png", png("green" if self.turn % 2 else "white")),),
            buttons=((Button("Status", "status"),),),
            slot="table",
            mentions=(current,) if current else (),
        )

    async def handle(  # type: ignore[override]  # scripted by the command's text
        self, player: PlayerRef, channel: ChannelRef, text: str | Command, *, admin: bool = False
    ) -> list[Reply]:
        text = as_text(text)
        self.calls.append((player.user_id, channel.chat_id, text, admin))
        verb, _, rest = text.partition(" ")
        if verb == "new":
            return [
                Reply(channel, "Lobby open.", buttons=((Button("Join", "join"),),), slot="lobby")
            ]
        if verb == "join":
            self.players.append(player)
            names = ", ".join(p.display_name for p in self.players)
            lobby = Reply(
                channel, f"Lobby: {names}", buttons=((Button("Join", "join"),),), slot="lobby"
            )
            return [lobby, self.rack(player, channel)]
        if verb == "rack":
            return [self.rack(player, channel)]
        if verb == "pick":  # toggles, like the real game
            picked = self.picked.setdefault(player.user_id, [])
            for tile in rest.split():
                picked.remove(tile) if tile in picked else picked.append(tile)
            return [self.rack(player, channel)]
        if verb == "done":
            if not self.players or not player.same_person(
                self.players[self.turn % len(self.players)]
            ):
                return [Reply(channel, "It's not your turn.", private_to=player)]
            self.turn += 1
            nxt = self.players[self.turn % len(self.players)]
            return [self.table(channel), self.rack(nxt, channel)]
        if verb == "board":  # a slot whose text grows past a caption and shrinks back
            return [
                Reply(
                    channel,
                    "board " * int(rest or 1),
                    images=(Image("board.png", png("red" if int(rest or 1) > 1 else "blue")),),
                    buttons=((Button("Status", "status"),),),
                    slot="board",
                )
            ]
        if verb == "slow":
            await asyncio.sleep(0.3)
            return [Reply(channel, "Sorry, that took a while.", private_to=player)]
        if verb == "long":
            return [Reply(channel, "x" * 9000, slot="long")]
        if verb == "boom":
            raise RuntimeError("the game broke")
        return [Reply(channel, f"You said {text!r}.")]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        server.add_user(ANN, "Ann")
        server.add_user(BOB, "Bob", started=False)
        server.add_group(GROUP, "Friday tiles", admins=[ANN])
        yield server


def make_adapter(
    fake: FakeTelegram, service: TinyGame, tmp_path: Path, **extra: object
) -> TelegramAdapter:
    config = TelegramConfig(
        token=fake.token,
        api_base_url=fake.base_url,
        state_path=str(tmp_path / "telegram-state.sqlite3"),
        poll_timeout=5,
        answer_within=0.1,
        limits=Limits(backoff=0.02),
        **extra,  # type: ignore[arg-type]
    )
    return TelegramAdapter(service, config)  # with its own pacing and retries


@pytest.fixture
async def running(
    fake: FakeTelegram, tmp_path: Path
) -> AsyncIterator[tuple[TelegramAdapter, TinyGame]]:
    game = TinyGame()
    adapter = make_adapter(fake, game, tmp_path)
    await adapter.start()
    try:
        yield adapter, game
    finally:
        await adapter.stop()


async def settle(fake: FakeTelegram, adapter: TelegramAdapter) -> None:
    await fake.delivered()
    await adapter.drain()


def group_texts(fake: FakeTelegram) -> str:
    parts = []
    for message in fake.chat_messages(GROUP):
        parts.append(message.text or "")
        parts += [
            b["text"] + b.get("callback_data", "") + b.get("url", "") for b in message.buttons
        ]
    return "\n".join(parts)


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


async def test_panel_edited_in_place_with_long_toggle_commands(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    game = TinyGame()
    adapter = make_adapter(fake, game, tmp_path)
    await adapter.start()
    fake.send_group(GROUP, ANN, "/join")
    await settle(fake, adapter)
    try:
        (panel,) = fake.chat_messages(ANN)
        tiles = ["R1", "R2", "B13", "K10", "O7", "J", *[f"B{n}" for n in range(1, 10)]]
        for tile in tiles:
            query = fake.press(panel, ANN, tile)
            await settle(fake, adapter)
            assert len(fake.callback_answers[query]) == 1
        assert fake.chat_messages(ANN) == [panel]  # the same message, edited each time
        assert panel.edits == len(tiles)
        picked = [b["text"] for b in panel.buttons if b["text"].startswith("✅")]
        assert picked == [f"✅ {t}" for t in tiles]
        assert game.calls[-1][2] == "pick B9"
        assert game.picked[str(ANN)] == tiles
        assert all(len(b["callback_data"].encode()) <= MAX_CALLBACK for b in panel.buttons)
        assert panel.button("Auto")["callback_data"].startswith("~")
    finally:
        await adapter.stop()
    # The coded button still works after a restart: the code is kept on disk.
    again = make_adapter(fake, game, tmp_path)
    await again.start()
    try:
        fake.press(panel, ANN, "Auto")
        fake.press(panel, ANN, "✅ R1")
        await settle(fake, again)
        assert [call[2] for call in game.calls[-2:]] == ["auto " + " ".join(tiles), "pick R1"]
        assert fake.chat_messages(ANN) == [panel] and panel.edits == len(tiles) + 1
    finally:
        await again.stop()


async def test_double_press_and_toasts(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, game = running
    fake.send_group(GROUP, ANN, "/join")
    fake.send_private(BOB, "/start")
    await settle(fake, adapter)
    fake.send_group(GROUP, BOB, "/join")
    await settle(fake, adapter)
    panel = fake.chat_messages(ANN)[-1]
    first = fake.press(panel, ANN, "Done")
    second = fake.press(panel, ANN, "Done")
    await settle(fake, adapter)
    assert game.turn == 1
    assert fake.callback_answers[first][0].get("text") == "Done ✓"  # the short result
    assert fake.callback_answers[second][0]["text"] == "It's not your turn."
    table = await fake.wait_message(GROUP, lambda m: m.photo is not None)
    assert table.text == "Table after 1 turns. Players: Ann, Bob. Bob to play."
    assert '<a href="tg://user?id=1002">Bob</a>' in (table.raw or "")
    # The next turn edits the same table message (a new photo, same message).
    fake.press(fake.chat_messages(BOB)[-1], BOB, "Done")
    await settle(fake, adapter)
    assert [m for m in fake.chat_messages(GROUP) if m.photo is not None] == [table]
    assert table.edits == 1 and table.text is not None and "Ann to play" in table.text


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


async def test_webhook_mode(fake: FakeTelegram, tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    game = TinyGame()
    adapter = make_adapter(
        fake,
        game,
        tmp_path,
        webhook_url="https://bot.example.org/tg-hook",
        webhook_listen="127.0.0.1",
        webhook_port=port,
        webhook_secret="s3cret",
    )
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


async def test_slot_shape_changes_keep_the_photo(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    adapter, _ = running
    fake.send_group(GROUP, ANN, "/rummikub board 1")
    await settle(fake, adapter)
    (photo,) = fake.chat_messages(GROUP)
    assert photo.photo is not None and photo.button("Status")
    fake.send_group(GROUP, ANN, "/rummikub board 300")  # 1,800 characters: no longer a caption
    await settle(fake, adapter)
    photo_now, text = fake.chat_messages(GROUP)
    assert photo_now is photo and photo.text is None and photo.reply_markup is None
    assert text.text is not None and len(text.text) > 1024 and text.button("Status")
    fake.send_group(GROUP, ANN, "/rummikub board 2")
    await settle(fake, adapter)
    assert fake.chat_messages(GROUP) == [photo] and text.deleted
    assert photo.text == "board board" and photo.edits == 2


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


class PolishGame(TinyGame):
    """A game whose chats speak Polish (``GameManager.language`` does this for real)."""

    async def language(self, channel: ChannelRef) -> str:
        return "pl"


async def test_the_adapter_s_own_sentences_follow_the_chat_language(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    adapter = make_adapter(fake, PolishGame(), tmp_path)
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


# --- issue 15: messages as Telegram expects them ---------------------------------------------


async def test_table_image_edit_is_accepted_by_the_bot_api(
    fake: FakeTelegram, running: tuple[TelegramAdapter, TinyGame]
) -> None:
    """Defect 0: a new table image goes out as editMessageMedia with an attach:// file part,
    which the Bot API accepts, so the photo is replaced in place (no delete and repost)."""
    adapter, _game = running
    fake.send_private(BOB, "/start")
    for user in (ANN, BOB):
        fake.send_group(GROUP, user, "/join")
        await settle(fake, adapter)
    fake.send_group(GROUP, ANN, "/done")
    await settle(fake, adapter)
    table = fake.chat_messages(GROUP)[-1]
    assert table.photo is not None
    first_photo = table.photo
    mark = fake.mark()
    fake.send_group(GROUP, BOB, "/done")
    await settle(fake, adapter)
    edits = [c for c in fake.calls[mark:] if c.method == "editMessageMedia"]
    assert edits and all(c.ok for c in edits), [c.error for c in edits]
    media = edits[0].params["media"]
    assert str(media["media"]).startswith("attach://")
    assert str(media["media"]).removeprefix("attach://") in edits[0].files
    assert not [c for c in fake.calls[mark:] if c.method in ("deleteMessage", "sendPhoto")]
    photos = [m for m in fake.chat_messages(GROUP) if m.photo is not None]
    assert [m.message_id for m in photos] == [table.message_id]
    assert photos[0].photo != first_photo and photos[0].edits == 1


async def test_fake_refuses_input_media_the_bot_api_refuses(fake: FakeTelegram) -> None:
    """The fake reads InputMedia like the Bot API server: no ``media``, or an attach:// name
    that no file part carries, is 400 "can't parse InputMedia: media not found"."""
    url = f"{fake.base_url}{fake.token}"
    async with aiohttp.ClientSession() as session:
        form = aiohttp.FormData()
        form.add_field("chat_id", str(GROUP))
        form.add_field("photo", png("red"), filename="t.png", content_type="image/png")
        async with session.post(f"{url}/sendPhoto", data=form) as response:
            sent = (await response.json())["result"]

        async def edit(media: dict[str, object], file_name: str | None) -> tuple[int, str]:
            form = aiohttp.FormData()
            form.add_field("chat_id", str(GROUP))
            form.add_field("message_id", str(sent["message_id"]))
            form.add_field("media", json.dumps(media))
            if file_name is not None:
                form.add_field(file_name, png("blue"), filename="n.png", content_type="image/png")
            async with session.post(f"{url}/editMessageMedia", data=form) as response:
                body = await response.json()
                return response.status, str(body.get("description", ""))

        media_not_found = (400, "Bad Request: can't parse InputMedia: media not found")
        # PTB's mistake: InputFile without attach=True leaves out "media" and names the part so.
        assert await edit({"type": "photo"}, "media") == media_not_found
        assert await edit({"type": "photo", "media": "attach://other"}, "upload") == media_not_found
        status, _ = await edit({"type": "photo", "media": "attach://upload"}, "upload")
        assert status == 200
