"""Issue 21, defect 1: a command that would end a game for everybody asks first, and says what
actually happened. ``cancel`` of a game under way, ``leave`` by the last person at the table
and ``kick`` of that person answer privately with one sentence of what would happen, a button
and the typed answer (``cancel yes``); only the answer acts, in the same turn and within two
minutes. The real manager on a SQLite file (the Discord and Telegram paths are in their own
test files)."""

from __future__ import annotations

from pathlib import Path

from bot.api import PlayerRef, Reply
from bot.manager.state import describe
from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, EVE, Harness

ASK_CANCEL = (
    "Cancelling ends this game for everyone at the table, with no result and no scores: press "
    "Cancel the game, or type cancel yes, within 2m 00s."
)
ASK_LEAVE = (
    "You are the last person at this table, so leaving ends the game for everyone, with no "
    "result: press Leave and end the game, or type leave yes, within 2m 00s."
)
STALE = "There is no open question to confirm"
KEPT = "Nothing was changed; the game goes on."


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


def commands(reply: Reply) -> list[str]:
    return [b.command for row in reply.buttons for b in row]


async def alone_with_an_ai(h: Harness, *settings: str) -> None:
    await h.say(ANN, " ".join(["start", *settings]))
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "deal")


async def ann_and_bob(h: Harness) -> None:
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")


async def stored_state(h: Harness) -> tuple[object, ...]:
    """What memory and the database say about the channel, to show nothing changed."""
    stored = await h.db.games.load_active(CHANNEL.platform, CHANNEL.chat_id)
    assert stored is not None
    table = describe(h.manager.tables.get(CHANNEL.key))
    return table, stored.version, stored.status, len(stored.actions or ())


async def test_leave_mid_game_asks_before_it_ends_the_match(h: Harness) -> None:
    await alone_with_an_ai(h)
    before = await stored_state(h)
    (asked,) = await h.say(ANN, "leave")
    assert asked.private_to == ANN and asked.text == ASK_LEAVE
    assert commands(asked) == ["leave yes", "leave no"]
    assert [b.label for row in asked.buttons for b in row] == [
        "Leave and end the game",
        "Keep playing",
    ]
    assert await stored_state(h) == before  # asking changed nothing, here or stored
    (kept,) = await h.say(ANN, "leave no")
    assert kept.text == KEPT and await stored_state(h) == before
    await h.say(ANN, "leave")
    said = await h.say(ANN, "leave yes")
    assert [(r.text, r.slot, r.private_to) for r in said] == [
        ("Ann left, the last person at the table: the game is over, with no result.", "table", None)
    ]
    assert CHANNEL.key not in h.manager.tables
    (game,) = await h.db.games.history(CHANNEL.platform, CHANNEL.chat_id)
    assert game.status == "cancelled"
    assert "lobby" not in texts(h.sent)


async def test_leave_by_someone_who_is_not_the_last_says_an_ai_took_the_seat(
    h: Harness,
) -> None:
    await ann_and_bob(h)
    said = await h.say(BOB, "leave")  # Ann still plays: nothing ends, so nothing is asked
    assert said[0].text == "Bob left; an AI (medium) plays their seat from now on."
    assert said[0].private_to is None and not said[0].buttons
    assert "lobby" not in texts(said) and "yes" not in texts(said)
    table = h.manager.tables[CHANNEL.key]
    assert [s.name for s in table.seats] == ["Ann", "Bob (AI)"]


async def test_cancel_asks_first_and_only_its_confirmation_acts(h: Harness) -> None:
    await ann_and_bob(h)
    before = await stored_state(h)
    (asked,) = await h.say(ANN, "cancel")
    assert asked.private_to == ANN and asked.text == ASK_CANCEL
    assert commands(asked) == ["cancel yes", "cancel no"]
    assert asked.buttons[0][0].style == "danger"
    assert "Only the host" in texts(await h.say(BOB, "cancel yes"))  # not Bob's to confirm
    (other,) = await h.say(EVE, "cancel yes", admin=True)  # an admin who was not asked
    assert other.text.startswith(STALE) and other.private_to == EVE
    assert await stored_state(h) == before
    said = await h.say(ANN, "cancel yes")
    assert [(r.text, r.slot) for r in said] == [("The game was cancelled by Ann.", "table")]
    assert CHANNEL.key not in h.manager.tables


async def test_a_confirmation_is_bound_to_the_turn_it_was_asked_in(h: Harness) -> None:
    await alone_with_an_ai(h)
    await h.say(ANN, "cancel")
    await h.say(ANN, "draw")  # the turn moves on (the AI plays too): the question is stale
    before = await stored_state(h)
    (stale,) = await h.say(ANN, "cancel yes")
    assert stale.text == (
        "There is no open question to confirm (a question lasts 2m 00s, within one turn, and "
        "a restart forgets it), so nothing was changed; type cancel to be asked again."
    )
    assert await stored_state(h) == before
    (asked,) = await h.say(ANN, "cancel")  # asked again, in this turn
    assert asked.text == ASK_CANCEL


async def test_a_confirmation_expires_after_two_minutes(h: Harness) -> None:
    await alone_with_an_ai(h, "timer=3600")
    await h.say(ANN, "leave")
    await h.scheduler.advance(121)
    before = await stored_state(h)
    assert (await h.say(ANN, "leave yes"))[0].text.startswith(STALE)
    assert await stored_state(h) == before
    await h.say(ANN, "leave")
    await h.scheduler.advance(119)
    assert "the game is over" in texts(await h.say(ANN, "leave yes"))


async def test_a_restart_forgets_the_question_so_its_answer_changes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await alone_with_an_ai(h)
    await h.say(ANN, "cancel")
    now = h.scheduler.now()
    await h.close()
    h = await Harness.open(path, scheduler=ManualScheduler(start=now))
    try:
        await h.manager.resume()
        assert (await h.say(ANN, "cancel yes"))[0].text.startswith(STALE)
        assert CHANNEL.key in h.manager.tables
    finally:
        await h.close()


async def test_kicking_the_last_person_asks_first_and_a_kick_says_an_ai_took_the_seat(
    h: Harness,
) -> None:
    await ann_and_bob(h)
    said = await h.say(ANN, "kick Bob")  # Ann still plays: nothing ends
    assert (
        said[0].text
        == "Bob was removed from the table; an AI (medium) plays their seat from now on."
    )
    (asked,) = await h.say(EVE, "kick 1", admin=True)  # Ann is the last person left
    assert asked.private_to == EVE and asked.text == (
        "Ann is the last person at this table, so removing them ends the game for everyone, "
        "with no result: press Remove and end the game, or type kick 1 yes, within 2m 00s."
    )
    assert commands(asked) == ["kick 1 yes", "kick 1 no"]
    said = await h.say(EVE, "kick 2 yes", admin=True)  # the AI seat: it ends nothing
    assert texts(said) == "Bob (AI) is an AI seat; it plays on until the game ends."
    assert CHANNEL.key in h.manager.tables
    said = await h.say(EVE, "kick Ann yes", admin=True)  # by name or number alike
    assert [r.text for r in said] == [
        "Ann, the last person at the table, was removed: the game is over, with no result."
    ]
    assert CHANNEL.key not in h.manager.tables


async def test_a_lobby_closes_at_once_since_no_game_is_under_way(h: Harness) -> None:
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    said = await h.say(ANN, "cancel")
    assert [r.text for r in said] == ["The game was cancelled by Ann."]
    assert CHANNEL.key not in h.manager.tables
    await h.say(ANN, "start")
    assert [r.text for r in await h.say(ANN, "leave")] == ["Ann left the lobby."]


async def test_the_question_is_in_the_askers_language(h: Harness) -> None:
    await alone_with_an_ai(h)
    polish = PlayerRef(ANN.platform, ANN.user_id, ANN.display_name, locale="pl")
    (asked,) = await h.say(polish, "cancel")
    assert asked.text == (
        "Anulowanie kończy tę grę dla wszystkich przy stole, bez wyniku i bez punktów: "
        "naciśnij Anuluj grę albo wpisz cancel yes w ciągu 2m 00s."
    )
    assert [b.label for row in asked.buttons for b in row] == ["Anuluj grę", "Gram dalej"]
    assert (await h.say(polish, "cancel nie"))[0].text == "Nic nie zmieniono; gra toczy się dalej."


async def test_a_bare_yes_answers_the_question_just_asked(h: Harness) -> None:
    """A newcomer asked to "type leave yes" often types just "yes" (or "tak"): it answers the
    open question; "no" keeps playing; a "yes" nobody was asked for changes nothing."""
    await alone_with_an_ai(h)
    before = await stored_state(h)
    (stray,) = await h.say(ANN, "yes")
    assert stray.private_to == ANN and "nothing to confirm" in stray.text
    assert await stored_state(h) == before
    await h.say(ANN, "leave")
    (kept,) = await h.say(ANN, "no")
    assert kept.text == KEPT and await stored_state(h) == before
    await h.say(ANN, "leave")
    said = await h.say(ANN, "tak")
    assert [r.text for r in said] == [
        "Ann left, the last person at the table: the game is over, with no result."
    ]
    assert CHANNEL.key not in h.manager.tables
