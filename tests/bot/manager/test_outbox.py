"""The durable outbox (issue 15, defect 4) at the manager: a stored turn's replies carry its
outbox keys; what no platform confirmed is sent again after a restart, with the channel's
table and every player's rack and panel drawn from the stored game; nothing is sent twice
once confirmed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.api import Reply
from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness
from tests.bot.manager.test_rematch import play_a_match
from tests.bot.manager.test_truth import human_to_move


async def two_players(path: Path) -> Harness:
    h = await Harness.open(path)
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "deal")
    await h.manager.delivered([k for r in h.sent for k in r.delivers])
    await h.manager.flush_confirmed()
    await human_to_move(h, ANN)
    await h.manager.delivered([k for r in h.sent for k in r.delivers])
    await h.manager.flush_confirmed()
    h.sent.clear()
    return h


async def restarted(h: Harness, path: Path) -> Harness:
    """The process dies (nothing more is confirmed); a new one starts and resumes."""
    now = h.scheduler.now()
    await h.db.close()  # as a kill leaves it: the manager is not closed
    fresh = await Harness.open(path, scheduler=ManualScheduler(start=now))
    await fresh.manager.resume()
    await fresh.manager.settle()  # what it sends again
    return fresh


def keys(replies: list[Reply]) -> list[str]:
    return [k for r in replies for k in r.delivers]


async def test_a_stored_turns_replies_carry_keys_pending_until_a_platform_confirms_them(
    tmp_path: Path,
) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        replies = await h.say(ANN, "draw")
        assert all(len(r.delivers) == 1 for r in replies)
        pending = [e.key for e in await h.db.outbox.pending()]
        assert pending == keys(replies)
        slots = [e.payload.get("slot") for e in await h.db.outbox.pending()]
        assert slots == [None, "rack", "table", None, "panel"]  # drew, rack, table, call, panel
        await h.manager.delivered(keys(replies[:2]))
        await h.manager.flush_confirmed()
        assert [e.key for e in await h.db.outbox.pending()] == keys(replies[2:])
    finally:
        await h.close()


async def test_a_restart_sends_again_what_was_not_confirmed_with_the_stored_views(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    await h.say(ANN, "draw")  # stored; the process dies before anything reaches a platform
    stored = await h.db.games.load_active(CHANNEL.platform, CHANNEL.chat_id)
    assert stored is not None
    fresh = await restarted(h, path)
    try:
        sent = fresh.sent
        assert "Ann drew a tile" in sent[0].text
        assert "Bob" in "\n".join(r.text for r in sent if r.slot is None)  # the call to Bob
        shown = {(r.slot, r.private_to.user_id if r.private_to else None) for r in sent}
        assert {("table", None), ("rack", ANN.user_id), ("rack", BOB.user_id)} <= shown
        assert ("panel", BOB.user_id) in shown and ("panel", ANN.user_id) not in shown
        table = fresh.manager.tables[CHANNEL.key]
        assert table.version == stored.version and table.game is not None
        view = next(r for r in sent if r.slot == "table")
        assert view.text == (await fresh.manager.views.table(table)).text
        # every entry the dead process left is carried by one of the replies sent again
        pending = {e.key for e in await fresh.db.outbox.pending()}
        assert pending and pending == set(keys(sent))
        await fresh.manager.delivered(keys(sent))
        await fresh.manager.flush_confirmed()
        assert await fresh.db.outbox.pending() == []
    finally:
        await fresh.close()
    again = await restarted(fresh, path)
    try:
        assert again.sent == []  # confirmed: never sent a second time
    finally:
        await again.close()


async def test_the_replies_of_a_timer_carry_their_keys_and_are_sent_again_unless_confirmed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    turn = h.game.turn
    await h.scheduler.advance(h.game.rules.turn_seconds)  # Ann's time runs out
    assert h.game.turn == turn + 1
    timed_out = [r for r in h.sent if r.delivers]
    assert timed_out and "Ann" in timed_out[0].text
    assert {e.key for e in await h.db.outbox.pending()} == set(keys(timed_out))
    fresh = await restarted(h, path)
    try:
        assert fresh.sent[0].text == timed_out[0].text
    finally:
        await fresh.close()


async def test_the_end_of_a_match_is_sent_again_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await h.manager.delivered(keys(h.sent))
    replies = await play_a_match(h)  # the match ends; the process dies before sending
    over = next(r for r in replies if "The match is over" in r.text)
    fresh = await restarted(h, path)
    try:
        again = next(r for r in fresh.sent if "The match is over" in r.text)
        assert again.buttons == over.buttons and again.delivers == over.delivers
        assert "Standings after" in "\n".join(r.text for r in fresh.sent)
        final = next(r for r in fresh.sent if r.slot == "table")
        assert final.text == next(r for r in replies if r.slot == "table").text
    finally:
        await fresh.close()


async def test_a_restart_right_after_the_deal_sends_the_deal_and_every_rack(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await Harness.open(path)
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.manager.delivered(keys(h.sent))
    await h.manager.flush_confirmed()
    dealt = await h.say(ANN, "deal")  # the game is stored; nothing reaches a platform
    assert [r for r in dealt if r.delivers] == [r for r in dealt if r.slot != "lobby"]
    fresh = await restarted(h, path)
    try:
        assert "dealt" in fresh.sent[0].text.lower()
        racks = {r.private_to.user_id for r in fresh.sent if r.slot == "rack" and r.private_to}
        assert racks == {ANN.user_id, BOB.user_id}
        assert any(r.slot == "panel" for r in fresh.sent)
    finally:
        await fresh.close()


async def test_two_processes_resuming_at_once_send_an_unconfirmed_turn_once(
    tmp_path: Path,
) -> None:
    # Several processes on one database (shared mode): both find the same unconfirmed turn at
    # start-up, and one of them (the one that claims it) sends it again.
    path = tmp_path / "bot.db"
    h = await two_players(path)
    await h.say(ANN, "draw")  # stored; the process dies before anything reaches a platform
    now = h.scheduler.now()
    await h.db.close()
    first = await Harness.open(path, scheduler=ManualScheduler(start=now), shared=True)
    second = await Harness.open(path, scheduler=ManualScheduler(start=now), shared=True)
    try:
        await asyncio.gather(first.manager.resume(), second.manager.resume())
        await asyncio.gather(first.manager.settle(), second.manager.settle())
        sent = first.sent + second.sent
        news = [r.text for r in sent if r.slot is None]
        assert sum("Ann drew a tile" in text for text in news) == 1, news
        assert sum(r.slot == "table" for r in sent) == 1
    finally:
        await first.close()
        await second.close()


async def test_the_panel_after_a_draft_step_is_stored_with_the_step_and_sent_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    await h.give(h.seat(ANN), "R8 R9 R10")
    stepped = await h.say(ANN, "play R8 R9 R10")  # stored; the process dies at once
    panel = next(r for r in stepped if r.slot == "panel")
    assert panel.delivers  # the refresh is an outbox entry of the step
    assert [e.key for e in await h.db.outbox.pending()] == list(panel.delivers)
    fresh = await restarted(h, path)
    try:
        again = next(r for r in fresh.sent if r.slot == "panel")
        assert again.private_to is not None and again.private_to.user_id == ANN.user_id
        assert "[R8] [R9] [R10]" in again.text  # the draft as the step left it
        assert set(panel.delivers) <= set(keys(fresh.sent))
    finally:
        await fresh.close()
