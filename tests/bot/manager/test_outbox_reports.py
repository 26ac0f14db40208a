"""Send outcomes reported by adapters (issue 26, defect 4, the manager's side): a send that
failed for now is tried again within seconds, then after longer waits, and no more once it is
delivered; one refused for good is marked refused at once and never sent again, by a restart
or a sweep. Nothing waits for the five-minute sweep."""

from __future__ import annotations

from pathlib import Path

from bot.api import Reply, Sent
from bot.manager.outbox import RESEND_AFTER
from bot.manager.retries import RETRY_AFTER
from tests.bot.manager.manager_harness import ANN, CHANNEL
from tests.bot.manager.test_outbox import keys, restarted, two_players


def drew_lines(sent: list[Reply]) -> int:
    return sum("Ann drew a tile" in r.text for r in sent if r.slot is None)


async def test_a_failed_send_is_tried_again_soon_then_after_longer_waits_until_delivered(
    tmp_path: Path,
) -> None:
    h = await two_players(tmp_path / "bot.db")
    try:
        drew = await h.say(ANN, "draw")
        h.sent.clear()
        await h.manager.report(keys(drew), Sent.FAILED)  # the platform answered 5xx
        await h.scheduler.advance(RETRY_AFTER[0] + 1)
        assert drew_lines(h.sent) == 1  # seconds later, not after five minutes
        again = [r for r in h.sent if r.delivers]
        assert set(keys(again)) == set(keys(drew))  # every entry, the views drawn afresh
        await h.manager.report(keys(again), Sent.FAILED)  # and once more
        await h.scheduler.advance(RETRY_AFTER[0] + 1)
        assert drew_lines(h.sent) == 1  # a longer wait this time
        await h.scheduler.advance(RETRY_AFTER[1])
        assert drew_lines(h.sent) == 2
        await h.manager.report(keys(h.sent), Sent.DELIVERED)
        await h.manager.flush_confirmed()
        await h.scheduler.advance(sum(RETRY_AFTER) + RESEND_AFTER)  # turns time out meanwhile
        assert drew_lines(h.sent) == 2
        assert not set(keys(drew)) & {e.key for e in await h.db.outbox.pending()}
    finally:
        await h.close()


async def test_a_refused_send_is_marked_at_once_and_never_sent_again(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    h = await two_players(path)
    drew = await h.say(ANN, "draw")
    h.sent.clear()
    await h.manager.report(keys(drew[:1]), Sent.REFUSED)  # the bot was removed from the chat
    await h.manager.report(keys(drew[1:]), Sent.FAILED)
    await h.manager.report(keys(drew[1:]), Sent.REFUSED)  # refused before its try again
    table = h.manager.tables[CHANNEL.key]
    assert table.game_id is not None
    assert await h.db.outbox.refused(table.game_id) == keys(drew)
    assert await h.db.outbox.pending() == []  # marked at once
    await h.scheduler.advance(sum(RETRY_AFTER))  # Bob's turn times out meanwhile
    assert drew_lines(h.sent) == 0 and not set(keys(h.sent)) & set(keys(drew))
    fresh = await restarted(h, path)
    try:
        assert drew_lines(fresh.sent) == 0 and not set(keys(fresh.sent)) & set(keys(drew))
    finally:
        await fresh.close()
