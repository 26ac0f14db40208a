"""Per-player language on Telegram (issue 17): a user whose app is Polish (``language_code``
"pl") gets their rack, panel and private answers in Polish, pictures included, while the group
stays English; ``/language en`` in the private chat sets their own language (stored: a restart
keeps it), and in the group it still sets the group's.

Real PTB against the fake Bot API, the real GameManager on a SQLite file, as in
test_telegram_game.py.
"""

from __future__ import annotations

from pathlib import Path

from bot.api import ChannelRef, PlayerRef
from bot.i18n import t
from bot.scheduler import ManualScheduler
from tests.bot.platforms.telegram.whole_game import (
    ANN,
    GROUP,
    MINUTE,
    RunningBot,
    has_button,
    newest,
    settle,
)
from tests.fakes.telegram_api import FakeTelegram

OLA = 3003
CHANNEL = ChannelRef("telegram", str(GROUP))


async def deal(fake: FakeTelegram, bot: RunningBot) -> None:
    fake.send_group(GROUP, ANN, "/new games=1")
    await settle(fake, bot)
    lobby = newest(fake, GROUP, has_button("Deal"))
    fake.press(lobby, OLA, "Join")
    await settle(fake, bot)
    fake.press(lobby, ANN, "Add AI")
    await settle(fake, bot)
    fake.press(lobby, ANN, "Deal")
    await settle(fake, bot)


async def test_a_polish_app_reads_polish_privately_and_the_group_stays_english(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(bot_username="rummikub_group_bot", minute=MINUTE) as fake:
        fake.add_user(ANN, "Ann", language_code="en")
        fake.add_user(OLA, "Ola", language_code="pl")
        fake.add_group(GROUP, "Lunch break tiles", admins=[ANN])
        bot = await RunningBot.boot(fake, tmp_path, ManualScheduler())
        try:
            await deal(fake, bot)
            presenter = bot.manager.presenter
            game = bot.table.game
            assert game is not None and bot.table.seats[1].name == "Ola"
            # her rack in her private chat: a Polish picture with Polish buttons
            rack = newest(fake, OLA, has_button(t("pl", "button_sort_colour")))
            (polish,) = await presenter.rack_images(game, 1, "color", lang="pl")
            (english,) = await presenter.rack_images(game, 1, "color", lang="en")
            assert rack.photo == polish.png != english.png
            # Ann's private chat and the group: English
            assert newest(fake, ANN, has_button(t("en", "button_sort_colour")))
            assert newest(fake, GROUP, has_button(t("en", "button_my_rack")))
            polish_rack = has_button(t("pl", "button_sort_colour"))
            assert not [m for m in fake.chat_messages(GROUP) if polish_rack(m)]  # never public
            assert newest(fake, GROUP, lambda m: (m.text or "").startswith("Game 1 of 1 is dealt"))
            # an error she makes, answered in Polish in her chat
            fake.send_private(OLA, "plya R5")
            await settle(fake, bot)
            said = newest(fake, OLA, lambda m: "plya" in (m.text or ""))
            assert said.text == "Nie znam polecenia 'plya'. Czy chodziło o 'play'?"

            # /language en in her private chat: her own language, not the group's
            fake.send_private(OLA, "/language en")
            await settle(fake, bot)
            assert newest(fake, OLA, lambda m: (m.text or "").startswith("Your language: English."))
            assert await bot.manager.language(CHANNEL) == "en"
            assert not [m for m in fake.chat_messages(GROUP) if "Your language" in (m.text or "")]
            fake.send_private(OLA, "/rack")
            await settle(fake, bot)
            rack = newest(fake, OLA, has_button(t("en", "button_sort_colour")))
            (english,) = await presenter.rack_images(game, 1, "color", lang="en")
            assert rack.photo == english.png
        finally:
            await bot.shutdown()

        # a restart keeps her choice; /language pl in the group still sets the group's
        bot = await RunningBot.boot(fake, tmp_path, ManualScheduler())
        try:
            fake.send_group(GROUP, ANN, "/language pl")
            await settle(fake, bot)
            assert newest(fake, GROUP, lambda m: m.text == "Język: polski.")
            fake.send_private(OLA, "/status")
            await settle(fake, bot)
            assert newest(fake, OLA, lambda m: (m.text or "").startswith("Game 1/1"))
            stored = await bot.manager.player_languages.get("telegram", str(OLA))
            assert (stored.language, stored.client) == ("en", "pl")
            assert (
                bot.manager.tables[f"telegram:{GROUP}"].seat_of(PlayerRef("telegram", str(OLA)))
                == 1
            )
        finally:
            await bot.shutdown()


async def test_an_expired_button_is_explained_in_the_pressers_language_not_the_groups(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(bot_username="rummikub_group_bot", minute=MINUTE) as fake:
        fake.add_user(ANN, "Ann", language_code="en")
        fake.add_user(OLA, "Ola", language_code="pl")
        fake.add_group(GROUP, "Lunch break tiles", admins=[ANN])
        bot = await RunningBot.boot(fake, tmp_path, ManualScheduler())
        try:
            fake.send_group(GROUP, ANN, "/new")
            await settle(fake, bot)
            lobby = newest(fake, GROUP, has_button("Deal"))
            # a long button's code this bot no longer knows (its state was lost)
            hers = fake.press(lobby, OLA, data="~AAAAAAAAAAAAAAAAAAAA")
            his = fake.press(lobby, ANN, data="~AAAAAAAAAAAAAAAAAAAA")
            await settle(fake, bot)
            assert [a.get("text") for a in fake.callback_answers[hers]] == [t("pl", "tg_expired")]
            assert [a.get("text") for a in fake.callback_answers[his]] == [t("en", "tg_expired")]
            assert await bot.manager.language(CHANNEL) == "en"
            assert t("pl", "tg_expired") != t("en", "tg_expired")
        finally:
            await bot.shutdown()
