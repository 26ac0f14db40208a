"""What a player reads after a wrong move, in a Polish channel and in an English one.

Everything goes through the real ``GameManager`` (SQLite file, fake clock), as a chat adapter
would send it: the rules error comes back in the channel's language, nested reasons included.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.api import PlayerRef, Reply
from bot.i18n import say, translator
from engine.errors import IllegalMoveError, InvalidMeldError
from engine.melds import Meld
from engine.messages import Msg, either
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness

WRONG_MOVES = {
    # typed by the player to move, after "give" put R5 R6 R8 on their rack
    "bad run": (
        ["play R5 R6 R8", "done"],
        "Meld 1: R5 R6 R8 is not a valid set: 7 is missing.",
        "Układ 1: R5 R6 R8 to nie jest poprawny układ: brakuje 7.",
    ),
    "no such meld": (
        ["play R5 to 9"],
        "There is no meld 9; the table is empty.",
        "Nie ma układu 9; stół jest pusty.",
    ),
    "bad notation": (
        ["play R5 X9"],
        "'X9' (tile 2, character 4) is not a tile; write a colour letter K, B, O or R and a "
        "number, like R7, or J for a joker.",
        "'X9' (kostka 2, znak 4) to nie jest kostka; napisz literę koloru K, B, O lub R i numer, "
        "np. R7, albo J dla dżokera.",
    ),
    "tile not on the rack": (
        ["play R5 R6 R8 B13 B13"],
        "There is no B13 on your rack.",
        "Nie ma B13 na twoim stojaku.",
    ),
    "usage": (
        ["move R5"],
        "Say which tiles, from which meld and to where. Write it like: move R7 from 2 to 5, or "
        "move R7 from 2 to new.",
        "Podaj, które kostki, z którego układu i dokąd. Napisz tak: move R7 from 2 to 5 albo "
        "move R7 from 2 to new.",
    ),
    "nothing played": (
        ["play R5 R6 R8", "undo", "undo"],
        "There is nothing to undo.",
        "Nie ma czego cofnąć.",
    ),
}


def private_text(replies: list[Reply], player: PlayerRef) -> str:
    return "\n".join(r.text for r in replies if r.private_to == player)


async def dealt(h: Harness, lang: str) -> tuple[PlayerRef, PlayerRef]:
    """A two-seat game in a channel set to ``lang``; returns (to move, waiting)."""
    await h.say(ANN, f"language {lang}")
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    seats = [ANN, BOB]
    mover = seats[h.game.current]
    await h.give(h.game.current, "R5 R6 R8")
    return mover, seats[1 - h.game.current]


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("case", sorted(WRONG_MOVES))
async def test_a_wrong_move_is_answered_in_the_channel_language(
    h: Harness, lang: str, case: str
) -> None:
    steps, english, polish = WRONG_MOVES[case]
    mover, _ = await dealt(h, lang)
    before = h.game.to_text()
    replies: list[Reply] = []
    for step in steps:
        replies = await h.say(mover, step)
    assert [r.text for r in replies] == [english if lang == "en" else polish]
    assert replies[0].private_to == mover
    assert h.game.to_text() == before  # one clear sentence, and nothing changed


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "It is not your turn; it is {name}'s turn."),
        ("pl", "To nie twoja kolej; teraz gra {name}."),
    ],
)
async def test_not_your_turn_in_the_channel_language(h: Harness, lang: str, expected: str) -> None:
    mover, waiting = await dealt(h, lang)
    replies = await h.say(waiting, "play R5 R6 R7")
    assert private_text(replies, waiting) == expected.format(name=mover.display_name)


async def test_the_bot_s_own_input_errors_follow_the_language(h: Harness) -> None:
    await h.say(ANN, "language pl")
    # no table yet: the channel's stored language is used
    assert (await h.say(ANN, "plya R5"))[0].text == (
        "Nie znam polecenia 'plya'. Czy chodziło o 'play'?"
    )
    assert (await h.say(ANN, "help play"))[0].text == (
        "Użycie: play R5 R6 R7 (nowy układ) lub play R8 to 3 (dołóż do układu 3)"
    )
    await h.say(ANN, "start")
    assert (await h.say(ANN, "settings threshold 500"))[0].text == (
        "opening_threshold musi mieć wartość od 0 do 100."
    )
    assert (await h.say(ANN, "language xx"))[0].text.startswith("Języki: en, pl. ")
    await h.say(ANN, "language en")
    assert (await h.say(ANN, "settings threshold 500"))[0].text == (
        "opening_threshold must be between 0 and 100."
    )


async def test_the_panel_buttons_and_rack_speak_polish(h: Harness) -> None:
    mover, _ = await dealt(h, "pl")
    panel = next(r for r in await h.say(mover, "panel") if r.slot == "panel")
    labels = [b.label for row in panel.buttons for b in row]
    assert labels == ["Połóż", "Auto", "Cofnij", "Od nowa", "Dobierz", "Gotowe"]
    assert [s.placeholder for s in panel.selects] == ["Kostki do wyłożenia", "Gdzie"]
    assert panel.selects[1].options[0].label == "Nowy układ"
    rack = next(r for r in await h.say(mover, "rack") if r.slot == "rack")
    assert rack.text.startswith("Twój stojak (14): ")
    assert [b.label for b in rack.buttons[0]] == ["Sortuj wg koloru", "Sortuj wg numeru"]


async def test_the_manager_tells_adapters_the_language(h: Harness) -> None:
    from tests.bot.manager.manager_harness import CHANNEL

    assert await h.manager.language(CHANNEL) == "en"
    await h.say(ANN, "language pl")
    assert await h.manager.language(CHANNEL) == "pl"  # stored setting, no table yet
    await h.say(ANN, "start")
    assert await h.manager.language(CHANNEL) == "pl"


def test_nested_reasons_and_lists_are_translated() -> None:
    with pytest.raises(InvalidMeldError) as caught:
        Meld.parse("K3 K4 K8")
    err = caught.value
    assert str(err) == "K3 K4 K8 is not a valid set: 5, 6 and 7 are missing."
    assert say("pl", err) == "K3 K4 K8 to nie jest poprawny układ: brakuje 5, 6 i 7."
    nested = IllegalMoveError("Meld {number}: {reason}", number=2, reason=err)
    assert say("pl", nested) == "Układ 2: K3 K4 K8 to nie jest poprawny układ: brakuje 5, 6 i 7."
    choice = Msg(
        "The joker in meld {number} stands for {faces}, not {tile}.",
        number=1,
        faces=either(["R7", "B7", "O7"]),
        tile="K9",
    )
    assert str(choice) == "The joker in meld 1 stands for R7 or B7 or O7, not K9."
    assert choice.render(translator("pl")) == (
        "Dżoker w układzie 1 zastępuje R7 lub B7 lub O7, a nie K9."
    )


async def test_the_lobby_speaks_polish(h: Harness) -> None:
    await h.say(ANN, "language pl")
    lobby = (await h.say(ANN, "start"))[0]
    assert [b.label for b in lobby.buttons[0]] == ["Dołącz", "Wyjdź", "Dodaj AI", "Rozdaj"]
    assert [b.command for b in lobby.buttons[0]] == ["join", "leave", "addbot", "deal"]
    settings = (await h.say(ANN, "settings"))[0].text
    assert settings.startswith("Ustawienia: edycja (edition) classic, próg (threshold) 30,")
    assert "gry (games): po jednej na gracza" in settings


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Hint: New set R8 R9 R10 R11 R12 R13. (type: auto R8 R9 R10 R11 R12 R13)"),
        ("pl", "Podpowiedź: Nowy układ R8 R9 R10 R11 R12 R13. (wpisz: auto R8 R9 R10 R11 R12 R13)"),
    ],
)
async def test_a_hint_is_explained_in_the_channels_language(
    h: Harness, lang: str, expected: str
) -> None:
    await h.say(ANN, f"language {lang}")
    await h.say(ANN, "start hints=on")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    mover = [ANN, BOB][h.game.current]
    await h.give(h.seat(mover), "R8 R9 R10 R11 R12 R13")
    assert private_text(await h.say(mover, "hint"), mover) == expected


async def test_the_bots_default_language_holds_until_a_channel_chooses(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path / "default.db", language="pl")
    try:
        assert "otworzył stół" in private_or_public(await h.say(ANN, "start"))
        assert "Tylko gospodarz" in private_or_public(await h.say(BOB, "settings threshold 25"))
        await h.say(ANN, "settings threshold 25")  # stores the channel's settings
        await h.say(ANN, "cancel")
        assert await h.manager.language(CHANNEL) == "pl"  # changing a rule kept the language
        await h.say(ANN, "language en")
        assert "opened a Rummikub table" in private_or_public(await h.say(ANN, "start"))
    finally:
        await h.close()


def private_or_public(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)
