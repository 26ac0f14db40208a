"""Rematch (issue 17, part 2): the match result carries a Rematch button; pressing it opens a
lobby with the same seats (AI seats included) and settings, which deals once every person who
played confirms, or when the host deals; a player who does not want to play leaves it. Through
``GameManager.handle`` on a real SQLite file, with a restart in the middle."""

from __future__ import annotations

from pathlib import Path

from bot.api import PlayerRef, Reply
from bot.manager import GameManager, describe
from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, EVE, Harness

SETTINGS = "games=1 rack_size=7 threshold=0 timer=300 hints=on"


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


async def reopen(h: Harness, path: Path) -> Harness:
    now = h.scheduler.now()
    await h.close()
    fresh = await Harness.open(path, scheduler=ManualScheduler(start=now))
    await fresh.manager.resume()
    return fresh


async def play_a_match(h: Harness) -> list[Reply]:
    """Ann, Bob and an AI seat play a one-game match; the first human to move goes out."""
    await h.say(ANN, f"start {SETTINGS}")
    await h.say(BOB, "join")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "deal")
    table = h.manager.tables[CHANNEL.key]
    assert table.game is not None
    mover = table.seats[table.game.current].player
    assert mover is not None
    seat = h.seat(mover)
    count = len(h.game.players[seat].rack)
    run = " ".join(f"R{n}" for n in range(1, count + 1))
    await h.give(seat, run)
    await h.say(mover, f"play {run}")
    replies = await h.say(mover, "done")
    assert CHANNEL.key not in h.manager.tables, texts(replies)  # the match is over
    return replies


def seats_of(h: Harness) -> list[tuple[str | None, str | None, str, bool]]:
    table = h.manager.tables[CHANNEL.key]
    return [(s.player.user_id if s.player else None, s.ai, s.name, s.waiting) for s in table.seats]


async def test_the_match_result_carries_a_rematch_button(h: Harness) -> None:
    replies = await play_a_match(h)
    over = [r for r in replies if "The match is over" in r.text]
    assert len(over) == 1 and over[0].private_to is None
    assert [b.command for row in over[0].buttons for b in row] == ["rematch"]
    assert [b.label for row in over[0].buttons for b in row] == ["Rematch"]


async def test_rematch_has_the_same_seats_and_settings_and_deals_when_everyone_confirmed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await play_a_match(h)
    replies = await h.say(BOB, "rematch")
    table = h.manager.tables[CHANNEL.key]
    assert table.phase == "lobby" and table.host.same_person(ANN)
    assert seats_of(h) == [
        ("u-ann", None, "Ann", True),
        ("u-bob", None, "Bob", False),
        (None, "easy", "AI 1 (easy)", False),
    ]
    assert table.rules.rack_size == 7 and table.rules.turn_seconds == 300
    assert table.rules.match_games == 1 and table.rules.hints
    said = texts(replies)
    assert "Bob asks for a rematch" in said and "Waiting for: Ann" in said
    assert "Ann (not confirmed)" in said
    memory = describe(table)
    h = await reopen(h, path)  # the rematch lobby is stored like any lobby
    try:
        assert describe(h.manager.tables[CHANNEL.key]) == memory
        assert "already seated" in texts(await h.say(BOB, "rematch"))
        replies = await h.say(ANN, "join")  # Join confirms as well as Rematch
        said = texts(replies)
        assert "Ann is in for the rematch." in said and "Game 1 of 1 is dealt" in said
        table = h.manager.tables[CHANNEL.key]
        assert table.phase == "playing" and len(table.seats) == 3
        assert [s.ai for s in table.seats] == [None, None, "easy"]
        other = GameManager(h.db, scheduler=ManualScheduler(start=h.scheduler.now()))
        try:
            await other.resume()
            assert describe(other.tables[CHANNEL.key]) == describe(table)
        finally:
            await other.close()
        assert "already a game" in texts(await h.say(BOB, "rematch"))
    finally:
        await h.close()


async def test_a_player_who_does_not_want_to_play_leaves_and_the_others_are_dealt(
    h: Harness,
) -> None:
    await play_a_match(h)
    await h.say(ANN, "rematch")
    said = texts(await h.say(BOB, "leave"))
    assert "Bob left the lobby." in said and "is dealt" in said
    table = h.manager.tables[CHANNEL.key]
    assert table.phase == "playing"
    assert [s.name for s in table.seats] == ["Ann", "AI 1 (easy)"]


async def test_the_host_can_deal_the_rematch_without_waiting(h: Harness) -> None:
    await play_a_match(h)
    await h.say(BOB, "rematch")
    assert "Only the host" in texts(await h.say(BOB, "deal"))
    said = texts(await h.say(ANN, "deal"))
    assert "is dealt" in said
    assert h.manager.tables[CHANNEL.key].phase == "playing"


async def test_a_rematch_needs_a_finished_match_and_one_of_its_players(h: Harness) -> None:
    said = texts(await h.say(ANN, "rematch"))
    assert said == "There is no finished match here to play again; type start to open a table."
    await play_a_match(h)
    said = texts(await h.say(EVE, "rematch"))
    assert said.startswith("Only the players of the last match can ask for a rematch")
    assert CHANNEL.key not in h.manager.tables
    # A cancelled game is not a match to repeat.
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    await h.say(ANN, "cancel")
    await h.say(ANN, "cancel yes")
    assert "no finished match" in texts(await h.say(BOB, "rematch"))


async def test_a_player_alone_with_ai_seats_is_dealt_at_once(h: Harness) -> None:
    solo = PlayerRef("test", "u-sol", "Sol")
    await h.say(solo, "start games=1 rack_size=7 threshold=0")
    await h.say(solo, "addbot easy")
    await h.say(solo, "deal")
    for _ in range(200):
        table = h.manager.tables.get(CHANNEL.key)
        if table is None:
            break
        await h.say(solo, "draw")
    assert CHANNEL.key not in h.manager.tables, "the match did not end"
    said = texts(await h.say(solo, "again"))
    assert "is dealt" in said
