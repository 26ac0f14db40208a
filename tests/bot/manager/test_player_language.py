"""Per-player language (issue 17, part 3): what the bot sends a person privately (rack, panel,
hints, errors, notes; the pictures too) follows their client's language, or the one they chose
with ``language me``, which survives a restart; the channel keeps its language for public
messages; a locale we do not speak falls back to the channel's.

The real GameManager on a SQLite file with a fake clock, pictures drawn (``images=True``)."""

from __future__ import annotations

from pathlib import Path

from bot.api import PlayerRef, Reply
from bot.i18n import say, t
from engine.hints import hint_text
from tests.bot.manager.manager_harness import ANN, CHANNEL, Harness

OLA = PlayerRef("test", "u-ola", "Ola", locale="pl-PL")  # her app speaks Polish
UDO = PlayerRef("test", "u-udo", "Udo", locale="de-DE")  # a language we do not have


def private(replies: list[Reply], player: PlayerRef, slot: str | None = None) -> list[Reply]:
    return [
        r
        for r in replies
        if r.private_to is not None and r.private_to.same_person(player) and r.slot == slot
    ]


def public(replies: list[Reply]) -> list[Reply]:
    return [r for r in replies if r.private_to is None]


async def open_harness(path: Path) -> Harness:
    return await Harness.open(path, images=True)


async def dealt_with_ola(h: Harness, *settings: str) -> list[Reply]:
    await h.say(ANN, " ".join(("start", "hints=on", *settings)))
    await h.say(OLA, "join")
    return await h.say(ANN, "deal")


async def to_olas_turn(h: Harness) -> list[Reply]:
    """Ann draws if she starts, so that Ola is to move; the replies that began Ola's turn."""
    if h.game.current == h.seat(OLA):
        return list(h.sent)
    return await h.say(ANN, "draw")


async def test_a_polish_client_gets_polish_privately_while_the_channel_stays_english(
    tmp_path: Path,
) -> None:
    h = await open_harness(tmp_path / "bot.db")
    try:
        deal = await dealt_with_ola(h, "threshold=0")  # so a hint has a play to suggest
        presenter = h.manager.presenter
        seat = h.seat(OLA)
        # her rack: the sentence and the picture in Polish
        (rack,) = private(deal, OLA, "rack")
        assert rack.text == presenter.rack_line(h.game, seat, "color", lang="pl")
        polish = await presenter.rack_images(h.game, seat, "color", lang="pl")
        english = await presenter.rack_images(h.game, seat, "color", lang="en")
        assert rack.images == polish != english
        assert rack.buttons[0][0].label == t("pl", "button_sort_colour")
        # Ann's rack and everything public stays English
        (ann_rack,) = private(deal, ANN, "rack")
        ann_seat = h.seat(ANN)
        assert ann_rack.text == presenter.rack_line(h.game, ann_seat, "color", lang="en")
        starter = h.manager.tables[CHANNEL.key].seats[h.game.starter].name
        dealt = t("en", "dealt", number=1, games=2, starter=starter)
        assert dealt in [r.text for r in public(deal)]
        # her panel and its picture, in Polish; the call to play in the channel, in English
        turn = await to_olas_turn(h)
        (panel,) = private(turn, OLA, "panel")
        draft = h.game.draft(seat)
        assert panel.text == presenter.draft_text(draft, lang="pl")
        assert panel.images == await presenter.draft_images(draft, "color", lang="pl")
        assert {b.label for row in panel.buttons for b in row} >= {t("pl", "button_done")}
        call = t("en", "your_turn", mention="Ola", time="1m 00s")
        assert call in [r.text for r in public(turn)]
        # a hint, an error and a note: Polish for her, English for Ann
        expected = hint_text(h.game, seat, None)
        assert expected is not None
        (hint,) = await h.say(OLA, "hint")
        assert hint.text == t("pl", "hint", text=say("pl", expected))
        assert (await h.say(OLA, "plya R5"))[0].text == (
            "Nie znam polecenia 'plya'. Czy chodziło o 'play'?"
        )
        assert (await h.say(ANN, "plya R5"))[0].text == (
            "I don't know the command 'plya'. Did you mean 'play'?"
        )
        assert (await h.say(ANN, "draw"))[0].text == t("en", "not_your_turn", name="Ola")
        assert (await h.say(OLA, "undo"))[0].text == "Nie ma czego cofnąć."
    finally:
        await h.close()


async def test_language_me_overrides_the_client_and_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    h = await open_harness(path)
    try:
        await dealt_with_ola(h)
        (said,) = await h.say(OLA, "language me en")
        assert said.private_to == OLA and said.text.startswith("Your language: English.")
        assert (await h.say(OLA, "plya"))[0].text.startswith("I don't know the command")
        await h.say(ANN, "language me pl")  # Ann's app says nothing; she chooses Polish
        (rack,) = await h.say(ANN, "rack")
        assert rack.text == h.manager.presenter.rack_line(h.game, h.seat(ANN), "color", lang="pl")
        (channel_lang,) = await h.say(ANN, "status")
        assert channel_lang.text.startswith("Gra ")  # her own answers, Polish
    finally:
        await h.close()
    # a new process: both choices come back from the database
    h = await open_harness(path)
    try:
        await h.manager.resume()
        (rack,) = await h.say(OLA, "rack")
        presenter = h.manager.presenter
        assert rack.text == presenter.rack_line(h.game, h.seat(OLA), "color", lang="en")
        (rack,) = await h.say(ANN, "rack")
        assert rack.text == presenter.rack_line(h.game, h.seat(ANN), "color", lang="pl")
        # the channel stays English; auto gives Ola her app's Polish back
        assert (await h.manager.language(CHANNEL)) == "en"
        (said,) = await h.say(OLA, "language me auto")
        assert said.text.startswith("Znów używasz języka swojej aplikacji")
        (shown,) = await h.say(OLA, "language me")
        assert shown.text.startswith("Twój język: polski, z aplikacji")
    finally:
        await h.close()


async def test_a_restart_keeps_the_clients_language_for_what_timers_and_turns_send(
    tmp_path: Path,
) -> None:
    """Ola's Polish app was seen before the restart: the panel a turn change sends her after
    it, before she says anything, is Polish."""
    path = tmp_path / "bot.db"
    h = await open_harness(path)
    try:
        await dealt_with_ola(h)
        if h.game.current == h.seat(OLA):
            await h.say(OLA, "draw")
    finally:
        await h.close()
    h = await open_harness(path)
    try:
        await h.manager.resume()
        assert h.game.current == h.seat(ANN)
        turn = await h.say(ANN, "draw")
        (panel,) = private(turn, OLA, "panel")
        draft = h.game.draft(h.seat(OLA))
        assert panel.text == h.manager.presenter.draft_text(draft, lang="pl")
        # the reminder before her deadline: Polish to her, English in the channel
        await h.scheduler.advance(50)
        endings = (" left in your turn.", " na twój ruch.")
        warned = [r for r in h.sent if r.text.endswith(endings)]
        (mine,), (theirs,) = private(warned, OLA), public(warned)
        assert mine.text.startswith("Ola, zostało ") and mine.text.endswith(" na twój ruch.")
        assert theirs.text.endswith(" left in your turn.")
    finally:
        await h.close()


async def test_an_unknown_locale_follows_the_channel_and_a_bad_choice_changes_nothing(
    h: Harness,
) -> None:
    await h.say(ANN, "language pl")  # typed in the channel: the channel's language, as before
    assert (await h.say(UDO, "plya"))[0].text.startswith("Nie znam polecenia")  # de: channel's
    await h.say(ANN, "language en")
    assert (await h.say(UDO, "plya"))[0].text.startswith("I don't know the command")
    (refused,) = await h.say(UDO, "language me de")
    assert refused.private_to == UDO
    assert refused.text == t("en", "my_languages", codes="en, pl")
    assert (await h.manager.player_languages.get("test", "u-udo")).language == ""
    assert (await h.manager.language(CHANNEL)) == "en"
