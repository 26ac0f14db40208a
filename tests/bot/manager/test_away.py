"""Absent players (issue 14, point 6): after ``away_after`` turns in a row run out, an AI plays
the seat until its player sends any command; the host can kick; scores stay with the player.
Through ``GameManager.handle`` on a real SQLite file, with restarts in between."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.api import PlayerRef, Reply
from bot.manager import describe
from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness

HOUR = 3600


def texts(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


async def reopen(h: Harness, path: Path) -> Harness:
    """Stop ``h`` (only the database remains) and start a fresh manager on the same file."""
    now = h.scheduler.now()
    await h.close()
    fresh = await Harness.open(path, scheduler=ManualScheduler(start=now))
    await fresh.manager.resume()
    await fresh.scheduler.advance(0)
    return fresh


def current(h: Harness) -> PlayerRef | None:
    table = h.manager.tables[CHANNEL.key]
    assert table.game is not None
    return table.seats[table.game.current].player


async def miss_turns(h: Harness, absent: PlayerRef, count: int, seconds: int) -> None:
    """Let ``absent``'s turn run out ``count`` times; the others draw when they are to move."""
    missed = 0
    for _ in range(4 * count + 4):
        if missed == count:
            return
        mover = current(h)
        if mover is not None and mover.same_person(absent):
            await h.scheduler.advance(seconds)
            missed += 1
        else:
            assert mover is not None, "an AI seat was left waiting"
            await h.say(mover, "draw")
    assert missed == count


async def open_table(h: Harness, settings: str) -> None:
    await h.say(ANN, f"start {settings}")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")


async def test_three_long_turns_run_out_then_an_ai_plays_the_seat_until_a_command(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await open_table(h, f"timer={HOUR}")
    ann_seat = h.seat(ANN)
    await miss_turns(h, ANN, 2, HOUR)
    assert h.manager.tables[CHANNEL.key].seats[ann_seat].player is not None  # not yet
    before = len(h.sent)
    await miss_turns(h, ANN, 1, HOUR)
    table = h.manager.tables[CHANNEL.key]
    seat = table.seats[ann_seat]
    assert seat.player is None and seat.ai is not None and seat.why == "away"
    told = [r.text for r in h.sent[before:] if "an AI plays their seat" in r.text]
    assert len(told) == 1 and told[0].startswith("Ann let 3 turns in a row run out")
    assert all(r.private_to is None for r in h.sent[before:] if r.text in told)

    # Ann's next turn is played by the AI at once: Bob is to move whenever Bob is asked.
    for _ in range(3):
        assert current(h) == BOB
        await h.say(BOB, "draw")
    memory = describe(table)
    h = await reopen(h, path)
    try:
        table = h.manager.tables[CHANNEL.key]
        assert describe(table) == memory  # stored and rebuilt exactly
        assert table.seats[ann_seat].why == "away"

        # Any command brings Ann back at once; the channel is told in one line.
        replies = await h.say(ANN, "status")
        back = [r for r in replies if "is back" in r.text]
        assert len(back) == 1 and back[0].private_to is None
        seat = table.seats[ann_seat]
        assert seat.player is not None and seat.player.same_person(ANN)
        assert seat.ai is None and seat.why is None and seat.missed == 0
        assert any(r.slot == "rack" and r.private_to == ANN for r in replies)
        await h.say(BOB, "draw")
        assert current(h) == ANN  # Ann plays her own next turn
        assert describe(table) == describe((await reopen(h, path)).manager.tables[CHANNEL.key])
    finally:
        await h.close()


async def test_real_time_tables_never_send_a_player_away_unless_asked(h: Harness) -> None:
    await open_table(h, "")
    await miss_turns(h, ANN, 5, 61)
    table = h.manager.tables[CHANNEL.key]
    assert table.seats[h.seat(ANN)].missed == 5
    assert not [r for r in h.sent if "an AI plays their seat" in r.text]


async def test_away_after_is_a_setting_checked_in_one_sentence_and_kept_in_the_lobby(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await h.say(ANN, "start")
    said = texts(await h.say(ANN, "settings away_after 1000"))
    assert said == "away_after is auto, off, or a number of turns from 1 to 99."
    assert texts(await h.say(ANN, "settings away_after sometimes")) == said
    assert "away_after off" in texts(await h.say(ANN, "settings"))
    await h.say(ANN, "settings away_after 2")
    assert "not the host" not in texts(await h.say(BOB, "join"))
    assert "Only the host" in texts(await h.say(BOB, "settings away_after 5"))
    h = await reopen(h, path)
    try:
        assert "away_after 2" in texts(await h.say(ANN, "settings"))
        await h.say(ANN, "deal")
        ann_seat = h.seat(ANN)
        await miss_turns(h, ANN, 2, 61)  # a real-time table with the setting on
        assert h.manager.tables[CHANNEL.key].seats[ann_seat].why == "away"
    finally:
        await h.close()
    h = await Harness.open(tmp_path / "other.db")
    try:
        assert "bad" not in texts(await h.say(ANN, "start timer=7200 away_after=off"))
        assert "away_after off" in texts(await h.say(ANN, "settings"))
        await h.say(ANN, "cancel")
        assert "away_after is auto" in texts(await h.say(ANN, "start away=x"))
        assert CHANNEL.key not in h.manager.tables  # nothing was opened
    finally:
        await h.close()


async def test_the_host_can_kick_an_away_player_for_good(h: Harness) -> None:
    await open_table(h, "away_after=1")
    bob_seat = h.seat(BOB)
    await miss_turns(h, BOB, 1, 61)
    table = h.manager.tables[CHANNEL.key]
    assert table.seats[bob_seat].why == "away"
    assert "Only the host" in texts(await h.say(BOB, "kick 1"))  # Bob is back, then refused
    assert table.seats[bob_seat].why is None
    await miss_turns(h, BOB, 1, 61)
    assert table.seats[bob_seat].why == "away"
    await h.say(ANN, f"kick {bob_seat + 1}")
    assert table.seats[bob_seat].why == "kicked"
    assert "not seated" in texts(await h.say(BOB, "rack"))
    assert table.seats[bob_seat].why == "kicked"


async def test_the_last_present_player_is_never_sent_away(h: Harness) -> None:
    await h.say(ANN, "start away_after=1")
    await h.say(ANN, "addbot easy")
    await h.say(ANN, "deal")
    await miss_turns(h, ANN, 3, 61)
    table = h.manager.tables[CHANNEL.key]
    assert table.seats[h.seat(ANN)].missed == 3  # the table waits for its only person


@pytest.mark.parametrize("restart", [False, True])
async def test_an_away_players_scores_stay_theirs(tmp_path: Path, restart: bool) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await open_table(h, "away_after=1 games=1 rack_size=7 threshold=0")
    await miss_turns(h, ANN, 1, 61)
    if restart:
        h = await reopen(h, path)
    try:
        assert current(h) == BOB
        run = " ".join(f"R{n}" for n in range(1, len(h.game.players[h.seat(BOB)].rack) + 1))
        await h.give(h.seat(BOB), run)
        await h.say(BOB, f"play {run}")
        said = texts(await h.say(BOB, "done"))
        assert "Rummikub! Bob went out." in said
        board = {e.player_id: e for e in await h.manager.stats.leaderboard("test", "chan-1")}
        assert board[ANN.user_id].games_played == 1 and board[ANN.user_id].name == "Ann"
        assert board[BOB.user_id].games_won == 1
        assert board[ANN.user_id].matches_played == 1
    finally:
        await h.close()
