"""Re-sent announcements in turn order (issue 26, defect 2): what a dead process left
unconfirmed in a channel goes out again before anything new of that channel, whether a timer
that was due at the restart or a command comes first."""

from __future__ import annotations

from pathlib import Path

from bot.api import Reply
from bot.scheduler import ManualScheduler
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, Harness
from tests.bot.manager.test_outbox import two_players


def news(sent: list[Reply]) -> list[str]:
    """The channel's public news lines, in the order they went out."""
    return [r.text for r in sent if r.slot is None and r.private_to is None]


def first(lines: list[str], text: str) -> int:
    return next(i for i, line in enumerate(lines) if text in line)


async def test_a_resent_turn_goes_out_before_the_turn_a_timer_due_at_the_restart_ends(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    await h.say(ANN, "draw")  # stored; the process dies before anything reaches a platform
    deadline = h.manager.tables[CHANNEL.key].deadline
    assert deadline is not None
    await h.db.close()
    # It restarts after Bob's time ran out: his timeout is due at once.
    fresh = await Harness.open(path, scheduler=ManualScheduler(start=deadline + 1))
    try:
        await fresh.manager.resume()
        await fresh.scheduler.advance(0)
        await fresh.manager.settle()
        lines = news(fresh.sent)
        assert first(lines, "Ann drew a tile") < first(lines, "Time ran out for Bob"), lines
    finally:
        await fresh.close()


async def test_a_resent_turn_goes_out_before_the_reply_to_the_next_command(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    await h.say(ANN, "draw")
    now = h.scheduler.now()
    await h.db.close()
    fresh = await Harness.open(path, scheduler=ManualScheduler(start=now))
    try:
        await fresh.manager.resume()  # the re-send is under way in the background
        await fresh.say(BOB, "draw")  # and Bob's click arrives at once
        await fresh.manager.settle()
        lines = news(fresh.sent)
        assert first(lines, "Ann drew a tile") < first(lines, "Bob drew a tile"), lines
        assert sum("Ann drew a tile" in line for line in lines) == 1
    finally:
        await fresh.close()
