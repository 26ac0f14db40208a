"""Seat changes in a game under way and a cancelled game go through the outbox (issue 15,
defect 4): a player who leaves (an AI takes the seat), a player who comes back, the host's
cancel. What they announce is stored with the change and carries its keys; what no platform
confirmed is sent again after a restart. The real manager on a SQLite file."""

from __future__ import annotations

from pathlib import Path

from bot.api import Reply
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness
from tests.bot.manager.test_away import miss_turns
from tests.bot.manager.test_outbox import keys, restarted, two_players

LEFT = "Bob left; an AI (medium) plays their seat from now on."


async def confirm_all(h: Harness) -> None:
    await h.manager.delivered(keys(h.sent))
    await h.manager.flush_confirmed()
    h.sent.clear()


def texts(replies: list[Reply]) -> list[str]:
    return [r.text for r in replies if r.slot is None]


async def test_a_seat_an_ai_takes_over_is_announced_again_after_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)  # Ann is to move; everything so far confirmed
    left = await h.say(BOB, "leave")  # stored; the process dies before anything is sent
    assert LEFT in texts(left)
    assert left and all(len(r.delivers) == 1 for r in left)
    stored = await h.db.games.load_active(CHANNEL.platform, CHANNEL.chat_id)
    assert stored is not None and stored.seats[1].is_ai
    pending = await h.db.outbox.pending()
    assert [e.key for e in pending] == keys(left)
    assert {e.version for e in pending} == {stored.version}  # written with the seat change
    table_now = next(r for r in left if r.slot == "table")
    assert "Bob (AI)" in table_now.text
    fresh = await restarted(h, path)
    try:
        assert LEFT in texts(fresh.sent)
        again = next(r for r in fresh.sent if r.slot == "table")
        assert again.text == table_now.text
        assert ("panel", ANN.user_id) in {
            (r.slot, r.private_to.user_id) for r in fresh.sent if r.private_to
        }
        assert not [r for r in fresh.sent if r.private_to and r.private_to.same_person(BOB)]
        assert {e.key for e in await fresh.db.outbox.pending()} == set(keys(fresh.sent))
    finally:
        await fresh.close()


async def test_a_player_coming_back_is_announced_again_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await h.say(ANN, "start away_after=1")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    bob_seat = h.seat(BOB)
    await miss_turns(h, BOB, 1, 61)
    table = h.manager.tables[CHANNEL.key]
    assert table.seats[bob_seat].why == "away"
    await confirm_all(h)
    back = await h.say(BOB, "status")  # any command brings Bob back; then the process dies
    announced = next(r for r in back if "Bob is back" in r.text)
    assert announced.delivers
    fresh = await restarted(h, path)
    try:
        assert "Bob is back and plays their own seat again." in texts(fresh.sent)
        racks = {r.private_to.user_id for r in fresh.sent if r.slot == "rack" and r.private_to}
        assert BOB.user_id in racks
        assert {e.key for e in await fresh.db.outbox.pending()} == set(keys(fresh.sent))
    finally:
        await fresh.close()


async def test_a_cancelled_game_is_announced_again_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    asked = await h.say(ANN, "cancel")  # a question, kept in memory only: nothing to store
    assert not any(r.delivers for r in asked) and await h.db.outbox.pending() == []
    cancelled = await h.say(ANN, "cancel yes")
    [closed] = [r for r in cancelled if r.slot == "table"]
    assert closed.text == "The game was cancelled by Ann." and closed.delivers
    fresh = await restarted(h, path)
    try:
        [again] = fresh.sent  # the line as it was, in the table's place; nothing redrawn
        assert (again.text, again.slot, again.delivers) == (
            closed.text,
            "table",
            closed.delivers,
        )
        await fresh.manager.delivered(keys(fresh.sent))
        await fresh.manager.flush_confirmed()
        assert await fresh.db.outbox.pending() == []
    finally:
        await fresh.close()


async def test_the_last_person_leaving_ends_the_game_and_its_line_is_sent_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    await h.say(BOB, "leave")
    await confirm_all(h)
    await h.say(ANN, "leave")  # asks first
    gone = await h.say(ANN, "leave yes")
    ended = "Ann left, the last person at the table: the game is over, with no result."
    assert [(r.text, r.slot) for r in gone] == [(ended, "table")]
    assert all(r.delivers for r in gone)
    fresh = await restarted(h, path)
    try:
        assert [(r.text, r.slot) for r in fresh.sent] == [(r.text, r.slot) for r in gone]
    finally:
        await fresh.close()


async def test_a_player_coming_back_with_a_mistaken_command_is_still_announced_back(
    tmp_path: Path,
) -> None:
    h = await Harness.open(tmp_path / "bot.db")
    try:
        await h.say(ANN, "start away_after=1")
        await h.say(BOB, "join")
        await h.say(ANN, "deal")
        bob_seat = h.seat(BOB)
        await miss_turns(h, BOB, 1, 61)
        await confirm_all(h)
        said = await h.say(BOB, "sort sideways")  # back at once; the command itself is refused
        table = h.manager.tables[CHANNEL.key]
        assert table.seats[bob_seat].why is None
        back = [r for r in said if r.text == "Bob is back and plays their own seat again."]
        assert back and back[0].private_to is None and back[0].delivers
        assert said[-1].private_to == BOB and "sort" in said[-1].text.lower()
        pending = {e.key for e in await h.db.outbox.pending()}
        assert pending == set(keys(said))  # nothing stored is left unsent
    finally:
        await h.close()
