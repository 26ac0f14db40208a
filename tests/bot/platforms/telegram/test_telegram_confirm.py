"""Issue 21 on Telegram, through real PTB and the fake Bot API: a command that would end the
game asks first, in the asker's private chat (never in the group), and only its answer acts
(defect 1); a command with words it does not take is answered, not ignored (defect 15).

The real GameManager on a SQLite file, as in test_telegram_game.py: Ann (the host) and Bob
and an AI seat in a group.
"""

from __future__ import annotations

from pathlib import Path

from bot.scheduler import ManualScheduler
from tests.bot.platforms.telegram.test_telegram_match_verbs import deal
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
    says,
    settle,
)
from tests.fakes.telegram_api import FakeTelegram


async def test_cancel_and_leave_ask_first_in_the_private_chat(tmp_path: Path) -> None:
    async with FakeTelegram(bot_username="rummikub_group_bot", minute=MINUTE) as fake:
        fake.add_user(ANN, "Ann")
        fake.add_user(BOB, "Bob")
        fake.add_group(GROUP, "Lunch break tiles", admins=[ANN])
        bot = await RunningBot.boot(fake, tmp_path, ManualScheduler())
        try:
            await deal(fake, bot, "games=1 timer=3600")
            in_group = len(fake.chat_messages(GROUP))
            fake.send_group(GROUP, ANN, "/cancel")
            await settle(fake, bot)
            asked = newest(fake, ANN, has_button("Cancel the game"))
            assert (asked.text or "").startswith("Cancelling ends this game for everyone")
            assert "type cancel yes, within 2m 00s" in (asked.text or "")
            assert [b["text"] for b in asked.buttons] == ["Cancel the game", "Keep playing"]
            assert len(fake.chat_messages(GROUP)) == in_group  # nothing said in the group
            assert KEY in bot.manager.tables
            query = fake.press(asked, ANN, "Keep playing")
            await settle(fake, bot)
            (answer,) = fake.callback_answers[query]
            assert answer["text"] == "Nothing was changed; the game goes on."
            assert KEY in bot.manager.tables

            # Defect 15: trailing words are refused in one sentence, in private, not ignored.
            mover = current_user(bot)
            turn = bot.table.game.turn  # type: ignore[union-attr]
            fake.send_group(GROUP, mover, "/draw it")
            await settle(fake, bot)
            refused = newest(fake, mover, says("does not take 'it'"))
            assert (refused.text or "").startswith("'draw' does not take 'it'; nothing was")
            assert bot.table.game.turn == turn  # type: ignore[union-attr]

            fake.send_group(GROUP, BOB, "/leave")  # Ann still plays: no question for Bob
            await settle(fake, bot)
            newest(fake, GROUP, says("Bob left; an AI (medium) plays their seat from now on."))
            fake.send_group(GROUP, ANN, "/leave")
            await settle(fake, bot)
            asked = newest(fake, ANN, has_button("Leave and end the game"))
            assert (asked.text or "").startswith("You are the last person at this table")
            assert KEY in bot.manager.tables
            fake.send_private(ANN, "leave yes")  # the typed answer, in the private chat
            await settle(fake, bot)
            assert KEY not in bot.manager.tables
            ended = "Ann left, the last person at the table: the game is over, with no result."
            newest(fake, GROUP, says(ended))
            group_texts = [m.text or "" for m in fake.chat_messages(GROUP)]
            assert not any("last person at this table" in text for text in group_texts)
        finally:
            await bot.shutdown()
