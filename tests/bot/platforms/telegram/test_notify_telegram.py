"""``/notify`` on Telegram, through real PTB and the fake Bot API, on the real game manager:
when a lobby opens in the group, each subscriber who started the private chat gets one
private notice (in their language) with a deep link that joins and a button that stops the
notices; the opener, non-subscribers and subscribers without a private chat get nothing, and
the group sees nothing of it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

from bot.scheduler import ManualScheduler
from tests.bot.platforms.telegram.whole_game import (
    ANN,
    BOB,
    GROUP,
    KEY,
    MINUTE,
    RunningBot,
    has_button,
    newest,
    settle,
)
from tests.fakes.telegram_api import FakeTelegram, StoredMessage

CARL, DAN, OLA = 3003, 3004, 3005  # Carl never started the bot; Dan never subscribes
NOTICE = "🔔 Ann opened a Rummikub table where you asked to be told."


def notices(fake: FakeTelegram, user: int) -> list[StoredMessage]:
    return [m for m in fake.chat_messages(user) if (m.text or "").startswith("🔔")]


async def test_subscribers_are_told_once_privately_and_can_join_or_stop(tmp_path: Path) -> None:
    async with FakeTelegram(bot_username="rummikub_notice_bot", minute=MINUTE) as fake:
        fake.add_user(ANN, "Ann")
        fake.add_user(BOB, "Bob")
        fake.add_user(CARL, "Carl", started=False)
        fake.add_user(DAN, "Dan")
        fake.add_user(OLA, "Ola", language_code="pl")
        fake.add_group(GROUP, "Tile night", admins=[ANN])
        bot = await RunningBot.boot(fake, tmp_path, ManualScheduler())
        try:
            for user in (ANN, BOB, CARL, OLA):
                fake.send_group(GROUP, user, "/notify on")
            await settle(fake, bot)
            said = newest(fake, BOB, lambda m: (m.text or "").startswith("Notices on"))
            assert "I write to you privately with a link to join" in (said.text or "")
            group_before = len(fake.group_sends(GROUP))

            fake.send_group(GROUP, ANN, "/new")
            await settle(fake, bot)
            lobby = newest(fake, GROUP, has_button("Deal"))
            assert "🔔" not in (lobby.text or "")  # the group is not told of the notices
            assert len(fake.group_sends(GROUP)) == group_before + 1  # just the lobby
            assert notices(fake, ANN) == [] and notices(fake, DAN) == []
            assert notices(fake, CARL) == []  # no private chat: nothing, and no link in the group
            (bob,) = notices(fake, BOB)
            assert (bob.text or "").startswith(NOTICE) and "Seats: Ann." in (bob.text or "")
            (ola,) = notices(fake, OLA)
            assert (ola.text or "").startswith("🔔 Ann otwiera stół Rummikub")
            assert [b["text"] for b in ola.buttons] == ["Dołącz", "Wyłącz powiadomienia"]

            # Join is a deep link into the private chat that takes a seat in the group's lobby
            join = bob.button("Join")
            link = urlparse(join["url"])
            assert link.netloc == "t.me" and link.path == "/rummikub_notice_bot"
            assert parse_qs(link.query)["start"] == [f"j{str(GROUP).replace('-', 'm')}"]
            fake.open_deep_link(BOB, join["url"])
            await settle(fake, bot)
            assert [s.name for s in bot.manager.tables[KEY].seats] == ["Ann", "Bob"]
            assert "Bob" in (newest(fake, GROUP, has_button("Deal")).text or "")
            newest(fake, BOB, lambda m: (m.text or "").startswith("You have a seat"))
            assert len(notices(fake, BOB)) == 1  # the lobby changed; nobody is told again
            assert len(notices(fake, OLA)) == 1

            # Stop notices, on the notice itself
            query = fake.press(ola, OLA, "Wyłącz powiadomienia")
            await settle(fake, bot)
            (answer,) = fake.callback_answers[query]
            assert str(answer.get("text", "")).startswith("Powiadomienia wyłączone")
            assert not await bot.manager.db.notices.is_on("telegram", str(GROUP), str(OLA))

            # The next lobby: Bob is told again (a new lobby), Ola no more
            fake.send_group(GROUP, ANN, "/cancel")
            await settle(fake, bot)
            fake.send_group(GROUP, ANN, "/new")
            await settle(fake, bot)
            assert len(notices(fake, BOB)) == 2 and len(notices(fake, OLA)) == 1
            assert notices(fake, CARL) == [] and notices(fake, DAN) == []
        finally:
            await bot.shutdown()
