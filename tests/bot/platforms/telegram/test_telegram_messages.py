"""Messages as Telegram takes them: panels and tables edited in place, long button commands
behind short codes, press answers, slots that change shape, and table images replaced with
editMessageMedia as the Bot API accepts it."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest

from bot.platforms.telegram import TelegramAdapter
from bot.platforms.telegram.codes import MAX_CALLBACK
from tests.bot.platforms.telegram.support import (
    ANN,
    BOB,
    GROUP,
    TinyGame,
    png,
    settle,
    telegram_config,
)
from tests.fakes.telegram_api import FakeTelegram

# PTB 22 flags RetryAfter.retry_after as changing type when it is read.
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_panel_edited_in_place_with_long_toggle_commands(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    game = TinyGame()
    adapter = TelegramAdapter(game, telegram_config(fake, tmp_path))
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
    again = TelegramAdapter(game, telegram_config(fake, tmp_path))
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
