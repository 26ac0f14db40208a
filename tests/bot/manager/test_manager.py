"""The game manager through its public API, with a real SQLite file and a fake clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.api import PlayerRef, Reply
from bot.scheduler import ManualScheduler
from engine.tiles import sort_tiles, tiles_text
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, EVE, Harness, give


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


async def dealt_two_humans(h: Harness, *extra: str) -> None:
    await h.say(ANN, "start " + " ".join(extra))
    await h.say(BOB, "join")
    await h.say(ANN, "deal")


# ----- lobby --------------------------------------------------------------------------------


async def test_lobby_rules(h: Harness) -> None:
    reply = (await h.say(ANN, "start"))[0]
    assert "Ann opened" in reply.text and reply.private_to is None
    assert [b.command for b in reply.buttons[0]] == ["join", "leave", "addbot", "deal"]
    assert "already a game" in texts(await h.say(BOB, "start"))
    assert "Bob joined" in texts(await h.say(BOB, "join"))
    assert "already seated" in texts(await h.say(BOB, "join"))
    said = texts(await h.say(ANN, "addbot genius"))
    assert "does not take 'genius'" in said and "addbot [easy|medium|hard]" in said
    assert "Added an AI seat (hard)" in texts(await h.say(ANN, "addbot hard"))
    assert "Only the host" in texts(await h.say(BOB, "kick 3"))
    assert "Only the host" in texts(await h.say(BOB, "settings threshold 25"))
    assert "threshold to 25" in texts(await h.say(ANN, "settings threshold 25"))
    assert "between 0 and 100" in texts(await h.say(ANN, "settings threshold 500"))
    assert "removed" in texts(await h.say(ANN, "kick 3"))
    assert "Only the host" in texts(await h.say(BOB, "deal"))
    assert "only while a game is running" in texts(await h.say(ANN, "draw"))
    replies = await h.say(ANN, "deal")
    assert "Game 1 of 2 is dealt" in texts(replies)
    assert h.game.rules.opening_threshold == 25
    racks = [r for r in replies if r.slot == "rack"]
    assert {r.private_to for r in racks} == {ANN, BOB}


async def test_deal_needs_two_seats_and_admin_may_cancel(h: Harness) -> None:
    await h.say(ANN, "start")
    assert "at least 2 seats" in texts(await h.say(ANN, "deal"))
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    assert "Only the host" in texts(await h.say(BOB, "cancel"))
    assert "type cancel yes" in texts(await h.say(EVE, "cancel", admin=True))
    assert "cancelled by Eve" in texts(await h.say(EVE, "cancel yes", admin=True))
    assert CHANNEL.key not in h.manager.tables
    assert "no game" in texts(await h.say(ANN, "draw"))
    history = await h.manager.games.history(CHANNEL.platform, CHANNEL.chat_id)
    assert history[0].status == "cancelled"


async def test_unknown_command_gets_one_sentence_and_a_suggestion(h: Harness) -> None:
    reply = (await h.say(ANN, "plya R5 R6 R7"))[0]
    assert reply.text == "I don't know the command 'plya'. Did you mean 'play'?"
    assert reply.private_to == ANN


# ----- turns --------------------------------------------------------------------------------


async def test_only_the_current_player_may_act(h: Harness) -> None:
    await dealt_two_humans(h)
    current = ANN if h.seat(ANN) == h.game.current else BOB
    other = BOB if current is ANN else ANN
    reply = (await h.say(other, "draw"))[0]
    assert reply.text == f"It is not your turn; it is {current.display_name}'s turn."
    assert reply.private_to == other
    assert "not seated" in texts(await h.say(EVE, "draw"))
    before = h.game.to_text()
    assert "There is no R99" not in texts(await h.say(current, "play R99"))
    assert h.game.to_text() == before


async def test_double_done_at_once_ends_the_turn_once(h: Harness) -> None:
    await dealt_two_humans(h)
    current = ANN if h.seat(ANN) == h.game.current else BOB
    turn = h.game.turn
    first, second = await asyncio.gather(h.say(current, "done"), h.say(current, "done"))
    assert h.game.turn == turn + 1
    assert "not your turn" in texts(first + second)


async def test_draft_steps_are_private_and_commit_is_public(h: Harness) -> None:
    await dealt_two_humans(h)
    seat = h.game.current
    player = ANN if h.seat(ANN) == seat else BOB
    give(h.game, seat, "R10 R11 R12")
    panel = (await h.say(player, "play R10 R11 R12"))[0]
    assert panel.private_to == player and panel.slot == "panel"
    assert "[R10] [R11] [R12]" in panel.text and "done will commit it" in panel.text
    replies = await h.say(player, "done")
    public = [r for r in replies if r.private_to is None]
    assert any("played R10 R11 R12" in r.text for r in public)
    assert [m.text() for m in h.game.table] == ["R10 R11 R12"]


async def test_panel_pick_target_place(h: Harness) -> None:
    await dealt_two_humans(h)
    seat = h.game.current
    player = ANN if h.seat(ANN) == seat else BOB
    give(h.game, seat, "K11 B11 O11")
    await h.say(player, "pick K11 B11")
    panel = (await h.say(player, "pick O11"))[0]
    assert "Selected: K11 B11 O11" in panel.text
    panel = (await h.say(player, "place"))[0]
    assert "[K11] [B11] [O11]" in panel.text
    assert "Pick tiles first" in texts(await h.say(player, "place"))


# ----- the timer ----------------------------------------------------------------------------


async def test_timeout_with_nothing_done_draws_one(h: Harness) -> None:
    await dealt_two_humans(h)
    seat = h.game.current
    await h.scheduler.advance(59)
    assert len(h.game.players[seat].rack) == 14
    await h.scheduler.advance(1)
    assert len(h.game.players[seat].rack) == 15 and h.game.current != seat
    assert any("Time ran out for" in r.text and "draws a tile" in r.text for r in h.sent)
    assert any("left in your turn" in r.text for r in h.sent)  # the warning came first


async def test_timeout_with_a_legal_draft_commits_it(h: Harness) -> None:
    await dealt_two_humans(h)
    seat = h.game.current
    player = ANN if h.seat(ANN) == seat else BOB
    give(h.game, seat, "R10 R11 R12")
    await h.say(player, "play R10 R11 R12")
    await h.scheduler.advance(60)
    assert [m.text() for m in h.game.table] == ["R10 R11 R12"]
    assert any("finished play stands" in r.text for r in h.sent)


async def test_timeout_mid_change_rolls_back_and_draws_three(h: Harness) -> None:
    await dealt_two_humans(h)
    seat = h.game.current
    player = ANN if h.seat(ANN) == seat else BOB
    rack_before = sorted(t.code for t in h.game.players[seat].rack)
    tile = h.game.players[seat].rack[0]
    await h.say(player, f"play {tile.code}")
    await h.scheduler.advance(60)
    rack_after = sorted(t.code for t in h.game.players[seat].rack)
    assert len(rack_after) == 17 and set(rack_before) <= set(rack_after)
    assert h.game.table == []
    assert any("in the middle of a change" in r.text for r in h.sent)


async def test_restart_mid_turn_keeps_draft_and_rearms_the_timer(tmp_path: Path) -> None:
    path = tmp_path / "restart.db"
    first = await Harness.open(path)
    await dealt_two_humans(first)
    seat = first.game.current
    player = ANN if first.seat(ANN) == seat else BOB
    await first.give(seat, "R10 R11 R12")
    await first.say(player, "play R10 R11 R12")
    await first.scheduler.advance(20)
    deadline = first.manager.tables[CHANNEL.key].deadline
    snapshot = first.game.to_text()
    await first.close()  # the process stops; only the database remains

    clock = ManualScheduler(start=first.scheduler.now() + 5)
    second = await Harness.open(path, scheduler=clock)
    try:
        assert await second.manager.resume() == 1
        table = second.manager.tables[CHANNEL.key]
        assert table.deadline == pytest.approx(deadline)
        assert clock.pending()[f"{CHANNEL.key}:expire"] == pytest.approx(deadline)
        assert second.game.to_text() == snapshot
        assert table.draft is not None and table.draft.steps == ["play R10 R11 R12"]
        await clock.advance(35)  # 60 s after the turn began: the kept draft is committed
        assert [m.text() for m in second.game.table] == ["R10 R11 R12"]
    finally:
        await second.close()


# ----- AI seats, a whole match, privacy -----------------------------------------------------


async def test_whole_match_against_ai_with_standings_and_privacy(h: Harness) -> None:
    await h.say(ANN, "start games=2")
    await h.say(ANN, "addbot hard")
    await h.say(ANN, "deal")
    games_seen = 1
    for _ in range(400):
        if CHANNEL.key not in h.manager.tables:
            break
        table = h.manager.tables[CHANNEL.key]
        assert table.game is not None
        if table.match is not None and len(table.match.results) + 1 > games_seen:
            games_seen += 1
        await h.play_like_ai(ANN)
    else:
        pytest.fail("the match did not end")
    all_text = texts(h.sent)
    assert "The match is over. Winner:" in all_text
    assert all_text.count("Standings after") == 2
    board = texts(await h.say(ANN, "leaderboard"))
    assert "Ann" in board and "AI" not in board
    assert "won" in texts(await h.say(ANN, "history"))
    assert_private_racks(h.sent)


def assert_private_racks(replies: list[Reply]) -> None:
    """Rack privacy: a rack or draft goes only to its owner, never to the channel."""
    for reply in replies:
        has_private_view = reply.slot in ("rack", "panel") or "Your rack" in reply.text
        if has_private_view:
            assert reply.private_to is not None, reply.text
        if reply.private_to is None:
            assert "Your rack" not in reply.text
            assert not any(i.filename in ("rack.png", "draft.png") for i in reply.images)


async def test_two_humans_and_an_ai_play_a_game_and_racks_stay_private(h: Harness) -> None:
    await h.say(ANN, "start games=1")
    await h.say(BOB, "join")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "deal")
    owners: dict[int, PlayerRef] = {h.seat(ANN): ANN, h.seat(BOB): BOB}
    for _ in range(600):
        if CHANNEL.key not in h.manager.tables:
            break
        game = h.game
        for reply in h.sent:
            if reply.slot == "rack" and reply.private_to is not None:
                seat = next(s for s, p in owners.items() if p == reply.private_to)
                # the rack text shown is that seat's own tiles (at some point in the game)
                assert reply.private_to == owners[seat]
        player = owners.get(game.current)
        assert player is not None, "an AI seat was left waiting"
        await h.play_like_ai(player)
    else:
        pytest.fail("the game did not end")
    assert_private_racks(h.sent)
    # Each rack message a player got lists exactly tiles they held.
    for reply in h.sent:
        if reply.slot == "rack":
            assert reply.private_to in (ANN, BOB)


async def test_rack_text_matches_the_owner(h: Harness) -> None:
    await dealt_two_humans(h)
    for player in (ANN, BOB):
        reply = (await h.say(player, "rack number"))[0]
        rack = sort_tiles(h.game.players[h.seat(player)].rack, "number")
        assert reply.private_to == player and tiles_text(rack) in reply.text


async def test_leaving_mid_game_hands_the_seat_to_an_ai(h: Harness) -> None:
    await dealt_two_humans(h)
    await h.say(BOB, "leave")
    table = h.manager.tables[CHANNEL.key]
    assert table.seats[h.seat(ANN)].player == ANN
    assert any(s.ai for s in table.seats)
    assert h.game.current == h.seat(ANN)  # the AI already took its turn if it was Bob's


async def test_help_rules_and_language(h: Harness) -> None:
    assert "Usage: play R5 R6 R7" in texts(await h.say(ANN, "help play"))
    assert "Initial meld 30+" in texts(await h.say(ANN, "rules"))
    assert "Język: polski" in texts(await h.say(ANN, "language pl"))
    assert "otworzył stół" in texts(await h.say(ANN, "start"))


async def test_lobby_survives_a_restart_and_is_forgotten_once_dealt(tmp_path: Path) -> None:
    path = tmp_path / "lobby.db"
    first = await Harness.open(path)
    await first.say(ANN, "start")
    await first.say(BOB, "join")
    await first.say(ANN, "addbot hard")
    await first.say(ANN, "settings threshold 25")
    await first.say(ANN, "language pl")
    await first.close()  # the process stops with the table still in its lobby

    second = await Harness.open(path)
    try:
        assert await second.manager.resume() == 1
        table = second.manager.tables[CHANNEL.key]
        assert table.phase == "lobby" and table.lang == "pl"
        assert [s.name for s in table.seats] == ["Ann", "Bob", "AI 1 (hard)"]
        assert table.rules.opening_threshold == 25
        assert "Tylko gospodarz" in texts(await second.say(BOB, "deal"))  # Ann is still host
        await second.say(BOB, "leave")
        stored = await second.manager.lobbies.get(CHANNEL.platform, CHANNEL.chat_id)
        assert stored is not None and [s["name"] for s in stored["seats"]] == ["Ann", "AI 1 (hard)"]
        await second.say(ANN, "deal")
        assert second.manager.tables[CHANNEL.key].phase == "playing"
        assert await second.manager.lobbies.get(CHANNEL.platform, CHANNEL.chat_id) is None
    finally:
        await second.close()


async def test_a_cancelled_lobby_is_not_reopened(tmp_path: Path) -> None:
    path = tmp_path / "lobby.db"
    first = await Harness.open(path)
    await first.say(ANN, "start")
    await first.say(ANN, "cancel")
    await first.close()
    second = await Harness.open(path)
    try:
        assert await second.manager.resume() == 0
        assert CHANNEL.key not in second.manager.tables
    finally:
        await second.close()
