"""After a match on Telegram (issue 17): /replay as an animation (sendAnimation, so it moves),
/stats, and the Rematch button on the result, through real PTB and the fake Bot API.

The real GameManager on a SQLite file, as in test_telegram_game.py. A short match: a
seven-tile rack, no opening threshold, one game, two people and an AI seat.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image as PILImage

from bot.scheduler import ManualScheduler
from engine.record import parse_record, replay_game
from tests.bot.platforms.telegram.whole_game import (
    ANN,
    BOB,
    GROUP,
    KEY,
    MINUTE,
    RunningBot,
    current_user,
    has_button,
    newest,
    settle,
    turn_in_group,
)
from tests.fakes.telegram_api import FakeTelegram

MAX_TURNS = 300


async def deal(fake: FakeTelegram, bot: RunningBot, settings: str) -> None:
    """Ann opens a lobby in the group with ``settings``, Bob joins, an AI seat, Ann deals."""
    fake.send_group(GROUP, ANN, f"/new {settings}")
    await settle(fake, bot)
    lobby = newest(fake, GROUP, has_button("Deal"))
    fake.press(lobby, BOB, "Join")
    await settle(fake, bot)
    fake.press(lobby, ANN, "Add AI")
    await settle(fake, bot)
    fake.press(lobby, ANN, "Deal")
    await settle(fake, bot)


async def short_match(fake: FakeTelegram, bot: RunningBot) -> None:
    await deal(fake, bot, "games=1 threshold=0 rack_size=7")
    for _ in range(MAX_TURNS):
        if KEY not in bot.manager.tables:
            return
        await turn_in_group(fake, bot, current_user(bot))
    pytest.fail("the match did not end")


@pytest.mark.slow
async def test_replay_stats_and_rematch_after_a_match(tmp_path: Path) -> None:
    async with FakeTelegram(bot_username="rummikub_group_bot", minute=MINUTE) as fake:
        fake.add_user(ANN, "Ann")
        fake.add_user(BOB, "Bob")
        fake.add_group(GROUP, "Lunch break tiles", admins=[ANN])
        bot = await RunningBot.boot(fake, tmp_path, ManualScheduler())
        try:
            await short_match(fake, bot)
            await after_the_match(fake, bot)
        finally:
            await bot.shutdown()


async def after_the_match(fake: FakeTelegram, bot: RunningBot) -> None:
    over = newest(fake, GROUP, has_button("Rematch"))

    # /replay: one animation (not a photo, which would show one frame), then the record as the
    # document game.rkr (sendDocument), which parses and replays to the stored game
    mark = fake.mark()
    fake.send_group(GROUP, BOB, "/replay")
    await settle(fake, bot)
    methods = [call.method for call in fake.calls[mark:]]
    assert methods.count("sendAnimation") == 1 and methods.count("sendDocument") == 1
    assert "sendPhoto" not in methods and "sendMessage" not in methods
    after = [m for m in fake.chat_messages(GROUP) if m.message_id > over.message_id]
    shown, document = after
    assert shown.animation is not None and shown.file_name == "replay.gif"
    assert (shown.text or "").startswith("Replay of the game of")
    assert document.animation is None and document.file_name == "game.rkr"
    record = parse_record((document.document or b"").decode("utf-8"))
    (stored,) = await bot.manager.games.history("telegram", str(GROUP), limit=1)
    assert replay_game(record).to_text() == stored.snapshot
    with PILImage.open(io.BytesIO(shown.animation)) as image:
        assert image.format == "GIF"
        assert image.n_frames == len(record.turns) + 1 > 2

    # /stats: Ann's record, privately
    fake.send_group(GROUP, ANN, "/stats Bob")
    await settle(fake, bot)
    answer = newest(fake, ANN, lambda m: (m.text or "").startswith("Bob"))
    assert re.search(r"channels: 1; games won: [01] of 1; ", answer.text or ""), answer.text
    # the answer is the picture of Bob's last match, captioned with his record
    assert answer.photo is not None
    with PILImage.open(io.BytesIO(answer.photo)) as image:
        assert image.format == "PNG" and image.size[0] == 960
    assert not any("games won" in (m.text or "") for m in fake.chat_messages(GROUP))

    # Rematch: Ann presses it on the result; a new lobby at the bottom waits for Bob, whose
    # Rematch deals it with the same seats and settings
    fake.press(over, ANN, "Rematch")
    await settle(fake, bot)
    lobby = newest(fake, GROUP, has_button("Join"))
    assert lobby.message_id > shown.message_id  # a new message, not the first lobby edited
    assert "Waiting for: Bob" in (lobby.text or ""), lobby.text
    assert bot.table.game is None
    fake.press(over, BOB, "Rematch")
    await settle(fake, bot)
    game = bot.table.game
    assert game is not None and len(game.players) == 3
    assert bot.table.seats[2].player is None  # the AI seat came back
    assert [len(game.players[seat].rack) for seat in (0, 1)] == [7, 7]  # the people's racks
    photos = [m for m in fake.chat_messages(GROUP) if m.photo is not None]
    assert photos[-1].message_id > lobby.message_id  # the new game's table is new too


async def test_the_fake_takes_animations_and_documents_as_the_bot_api_does() -> None:
    """sendAnimation and sendDocument through PTB's own Bot: a GIF becomes an animation,
    other bytes a plain document, an empty file is refused, a GIF sent as a photo stills."""
    from telegram import Bot, InputFile
    from telegram.error import BadRequest

    frames = [PILImage.new("RGB", (40, 30), colour) for colour in ("red", "blue", "green")]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:])
    gif = out.getvalue()
    async with FakeTelegram() as fake:
        fake.add_user(ANN, "Ann")
        async with Bot(fake.token, base_url=fake.base_url) as bot:
            sent = await bot.send_animation(ANN, InputFile(gif, filename="a.gif"), caption="x")
            assert sent.animation is not None and sent.animation.width == 40
            assert sent.document is not None and sent.caption == "x"
            plain = await bot.send_animation(ANN, InputFile(b"not a gif", filename="a.txt"))
            assert plain.animation is None and plain.document is not None
            assert plain.document.file_name == "a.txt"
            record = await bot.send_document(ANN, InputFile(b"turn 1", filename="game.rkr"))
            assert record.document is not None and record.document.file_name == "game.rkr"
            with pytest.raises(BadRequest, match=r"(?i)file must be non-empty"):
                await bot.send_document(ANN, InputFile(b"", filename="empty.rkr"))
            photo = await bot.send_photo(ANN, InputFile(gif, filename="a.gif"))
            assert photo.photo and photo.animation is None
        stored = fake.chat_messages(ANN)
        assert stored[0].animation == gif and stored[1].animation is None
        with PILImage.open(io.BytesIO(stored[-1].photo or b"")) as still:
            assert still.format == "PNG" and getattr(still, "n_frames", 1) == 1
