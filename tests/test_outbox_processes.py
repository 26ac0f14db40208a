"""Issue 26: two ``rummikub run`` processes, one after the other, on one PostgreSQL database. The
first is killed (SIGKILL) mid-delivery: a turn and the AI's answer are stored and Telegram has
shown none of it. A second process starts on the same database while the first one's lease on
those announcements still runs, so it takes them over only once the lease ran out, as a live
neighbour would: every announcement arrives exactly once, in turn order, and what the second
process announces next comes after them.

The window is hit as in ``tests/test_outbox_crash.py``: the fake Bot API holds every call that
would change a chat before the command is typed, and drops them with the dead process.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from storage.db import normalize_url
from tests.storage.conftest import needs_postgres
from tests.test_operating import WAIT, Fakes, start_bot
from tests.test_outbox_crash import (
    ann_to_play,
    kill_once_stored,
    messages,
    said,
    wait_until,
    with_button,
)

LEASE = "4"  # OUTBOX_LEASE_SECONDS of both processes
TURN_LINE = re.compile(r"^(Ann|AI \d \(easy\)) (drew a tile|played .*)\.?$")

pytestmark = pytest.mark.postgres


@pytest.fixture
def apis() -> Iterator[Fakes]:
    running = Fakes()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def database() -> Iterator[str]:
    """A throw-away database on the test server (a bot process takes no schema), dropped after."""
    server = normalize_url(needs_postgres())
    name = f"rk_outbox_{uuid.uuid4().hex[:10]}"

    async def run(statement: str) -> None:
        engine = create_async_engine(server, isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as connection:
                await connection.execute(text(statement))
        finally:
            await engine.dispose()

    asyncio.run(run(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def turn_lines(chat: list[dict[str, Any]]) -> list[str]:
    """Every turn announced in the group, in the order the news messages were posted (one may
    carry several news lines; the table message, edited in place, shows the last turn too)."""
    news = [m for m in chat if "My rack" not in m["buttons"]]
    lines = [line for m in news for line in m["text"].splitlines()]
    return [line for line in lines if TURN_LINE.match(line)]


def unsent(url: str) -> int:
    async def count() -> int:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as connection:
                found = await connection.execute(
                    text("SELECT count(*) FROM outbox WHERE delivered_at IS NULL")
                )
                return int(found.scalar_one())
        finally:
            await engine.dispose()

    return asyncio.run(count())


@pytest.mark.slow
def test_a_process_killed_mid_delivery_is_taken_over_once_in_turn_order(
    tmp_path: Any, apis: Fakes, database: str
) -> None:
    settings = {"DATABASE_URL": database, "OUTBOX_LEASE_SECONDS": LEASE}
    first, log = start_bot(tmp_path, apis, **settings)
    try:
        apis.expect("telegram_polling")
        apis.send("telegram_group", text="/new timer=600 games=1")
        wait_until(apis, lambda s: bool(with_button(s["group"], "Deal")), "the lobby")
        apis.send("telegram_group", text="/addbot easy")
        wait_until(apis, lambda s: bool(said(s["group"], "AI")), "the AI seat")
        apis.send("telegram_group", text="/deal")
        before = turn_lines(wait_until(apis, ann_to_play, "Ann's turn")["group"])

        # Ann draws and the AI answers at once: both turns are stored, nothing is shown
        kill_once_stored(apis, first)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    apis.send("drop_held")
    log.rest()
    left = unsent(database)
    assert left > 0, "nothing was left to send: the kill came too late"
    assert turn_lines(messages(apis)["group"]) == before

    second, log = start_bot(tmp_path, apis, **settings)
    try:
        seen = wait_until(
            apis,
            lambda s: len(turn_lines(s["group"])) >= len(before) + 2 and ann_to_play(s),
            "the dead process's turns after the restart",
        )
        deadline = time.monotonic() + WAIT
        while unsent(database) > 0:  # everything it took over is confirmed
            assert time.monotonic() < deadline, "the outbox was not emptied"
            time.sleep(0.2)
        resent = turn_lines(messages(apis)["group"])[len(before) :]
        assert [line.split()[0] for line in resent] == ["Ann", "AI"], resent  # once, in order
        apis.send("telegram_group", text="/draw")  # the second process plays on
        seen = wait_until(
            apis,
            lambda s: len(turn_lines(s["group"])) >= len(before) + 4,
            "the next turns from the second process",
        )
        time.sleep(float(LEASE) * 2)  # sweeps come and go: nothing is sent twice
        lines = turn_lines(messages(apis)["group"])
    finally:
        second.send_signal(signal.SIGTERM)
        code = second.wait(WAIT)
    output = log.rest()
    assert code == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    assert seen
    after = lines[len(before) :]
    assert [line.split()[0] for line in after] == ["Ann", "AI", "Ann", "AI"], after
