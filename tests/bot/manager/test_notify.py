"""``notify on|off`` through ``GameManager.handle`` on a real SQLite file: the sentences, one
notice per subscriber when a lobby opens (never to the player who opened it, nor to anyone
already seated), the off switch on the notice itself, both ways of telling (a mention line in
the lobby message; a private notice each), and the notice line surviving a restart."""

from __future__ import annotations

from pathlib import Path

from bot.api import PlayerRef, Reply
from bot.manager.notices import MOST_MENTIONED
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, EVE, Harness
from tests.bot.manager.test_stats import one_game_match

CARL = PlayerRef("test", "u-carl", "Carl")  # never subscribes
OLA = PlayerRef("test", "u-ola", "Ola", locale="pl")
LINE = "🔔 A game is opening here: join below."


def lobby_of(replies: list[Reply]) -> Reply:
    (lobby,) = [r for r in replies if r.slot == "lobby" and not r.is_private]
    return lobby


def commands(reply: Reply) -> list[list[str]]:
    return [[b.command for b in row] for row in reply.buttons]


async def test_notify_on_off_and_its_state_answer_privately(h: Harness) -> None:
    said = [(await h.say(EVE, text))[0] for text in ("notify", "notify on", "notify on")]
    said += [(await h.say(EVE, text))[0] for text in ("notify", "notify off", "notify off")]
    said += [(await h.say(EVE, "notify sometimes"))[0]]
    assert all(r.private_to == EVE for r in said)
    assert [r.text for r in said] == [
        "Your notices for this channel are off; notify on turns them on.",
        "Notices on: when a game opens in this channel, its lobby message mentions you. "
        "notify off stops them.",
        "Your notices for this channel were already on; notify off stops them.",
        "Your notices for this channel are on; notify off stops them.",
        "Notices off: you will not be told when a game opens here.",
        "You had no notices for this channel; notify on turns them on.",
        "'notify' does not take 'sometimes'; nothing was changed. Write it like: notify on|off "
        "(be told when a game opens in this channel).",
    ]
    (polish,) = await h.say(OLA, "notify on")
    assert polish.text.startswith("Powiadomienia włączone: gdy na tym kanale otworzy się gra")


async def test_a_lobby_mentions_each_subscriber_once_and_never_its_opener(h: Harness) -> None:
    for player in (ANN, BOB, EVE):
        await h.say(player, "notify on")
    lobby = lobby_of(await h.say(ANN, "start"))
    assert lobby.text.startswith(LINE) and "\n🀄 Ann opened a Rummikub table." in lobby.text
    assert [p.user_id for p in lobby.mentions] == ["u-bob", "u-eve"]  # not Ann, not Carl
    assert commands(lobby)[-1] == ["notify off"]  # the off switch, on the notice itself
    # Later edits of the lobby keep the line (an edit mentions nobody anew): still the same
    joined = lobby_of(await h.say(BOB, "join"))
    assert joined.text.startswith(LINE) and joined.mentions == lobby.mentions
    carl = lobby_of(await h.say(CARL, "join"))
    assert [p.user_id for p in carl.mentions] == ["u-bob", "u-eve"]
    # the lobby's own messages are the only ones that mention subscribers
    assert all(not r.mentions for r in h.sent if r.slot != "lobby" and r.mentions)


async def test_stop_notices_on_the_lobby_message_turns_them_off(h: Harness) -> None:
    await h.say(EVE, "notify on")
    lobby = lobby_of(await h.say(ANN, "start"))
    (stop,) = commands(lobby)[-1]
    (answer,) = await h.say(EVE, stop)  # pressing the button is typing its command
    assert answer.private_to == EVE and answer.text.startswith("Notices off")
    await h.say(ANN, "cancel")
    again = lobby_of(await h.say(ANN, "start"))
    assert not again.mentions and LINE not in again.text
    assert ["notify off"] not in commands(again)


async def test_a_lobby_mentions_at_most_fifty_subscribers(h: Harness) -> None:
    people = [PlayerRef("test", f"u-{i:02d}", f"P{i:02d}") for i in range(MOST_MENTIONED + 10)]
    for person in people:
        await h.say(person, "notify on")
    lobby = lobby_of(await h.say(ANN, "start"))
    assert [p.user_id for p in lobby.mentions] == [p.user_id for p in people[:MOST_MENTIONED]]


async def test_private_notices_go_to_each_subscriber_once_in_their_language(h: Harness) -> None:
    h.manager.set_notice_style("test", "private")
    for player in (ANN, EVE, OLA):
        await h.say(player, "notify on")
    (on,) = await h.say(BOB, "notify on")
    assert on.text.startswith("Notices on: when a game opens in this group, I write to you")
    opened = await h.say(ANN, "start")
    lobby = lobby_of(opened)
    assert not lobby.mentions and LINE not in lobby.text  # the group sees no notice
    notices = [r for r in opened if r.notice]
    assert {r.private_to.user_id for r in notices if r.private_to} == {"u-eve", "u-ola", "u-bob"}
    for notice in notices:
        assert notice.channel == CHANNEL and notice.slot is None
        assert commands(notice) == [["join", "notify off"]]
    (eve,) = [r for r in notices if r.private_to == EVE]
    assert eve.text == (
        "🔔 Ann opened a Rummikub table where you asked to be told. Seats: Ann. Join it, or "
        "stop these notices."
    )
    (ola,) = [r for r in notices if r.private_to == OLA]
    assert ola.text.startswith("🔔 Ann otwiera stół Rummikub") and ola.buttons[0][0].label == (
        "Dołącz"
    )
    # a second lobby message (someone joins) tells nobody again
    assert not any(r.notice for r in await h.say(EVE, "join"))
    assert not any(r.notice for r in await h.say(BOB, "join"))


async def test_a_rematch_tells_only_subscribers_who_were_not_at_the_table(h: Harness) -> None:
    await one_game_match(h, CHANNEL, ANN)
    for player in (ANN, BOB, EVE):
        await h.say(player, "notify on")
    lobby = lobby_of(await h.say(BOB, "rematch"))
    assert [p.user_id for p in lobby.mentions] == ["u-eve"]  # Ann is seated, Bob opened it


async def test_the_lobby_keeps_its_notice_after_a_restart(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path / "bot.db")
    try:
        await h.say(EVE, "notify on")
        await h.say(ANN, "start")
    finally:
        await h.close()
    again = await Harness.open(tmp_path / "bot.db")
    try:
        await again.manager.resume()
        lobby = lobby_of(await again.say(BOB, "join"))
        assert lobby.text.startswith(LINE) and [p.user_id for p in lobby.mentions] == ["u-eve"]
    finally:
        await again.close()
