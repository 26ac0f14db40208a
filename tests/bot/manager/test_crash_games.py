"""SIGKILL a real bot process running AI and human seats at random moments, 30+ times; every
stored game stays consistent, AI moves that were due when it died run by themselves after the
restart, and every game finishes."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from storage import Database
from tests.bot.manager.crash_game_worker import CHANNELS, inspect_db
from tests.kills import backend_url, killed_at_the_end, report

WORKER = "tests.bot.manager.crash_game_worker"


def target_db(target: list[str]) -> Database:
    options = dict(zip(target[::2], target[1::2], strict=True))
    return Database(options["--url"], schema=options.get("--schema"))


async def inspect(target: list[str]) -> dict[str, object]:
    db = target_db(target)
    await db.start()
    try:
        return await inspect_db(db)
    finally:
        await db.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("backend", "kills"),
    [("sqlite", 32), pytest.param("postgresql", 10, marks=pytest.mark.postgres)],
)
async def test_sigkill_a_bot_with_ai_seats_and_every_game_still_finishes(
    backend: str, kills: int, tmp_path: Path
) -> None:
    rng = random.Random(20261201)
    async with backend_url(backend, tmp_path) as target:
        ai_due_at_kill = 0
        for round_no in range(kills):
            with killed_at_the_end(WORKER, "play", *target, "--seed", str(round_no)):
                time.sleep(rng.uniform(0.05, 0.6))
            seen = await inspect(target)
            assert seen["problems"] == [], seen
            ai_due_at_kill += int(seen["ai_due"])  # type: ignore[call-overload]
        assert ai_due_at_kill > 0, "no kill fell while an AI move was due"
        summary = report(WORKER, "finish", *target, "--seed", "999")
        assert summary["ai_waiting_after_resume"] == [], summary
        assert summary["unfinished"] == [], summary
        assert summary["internal_errors"] == 0, summary
        assert int(summary["finished_games"]) >= len(CHANNELS), summary  # type: ignore[call-overload]
