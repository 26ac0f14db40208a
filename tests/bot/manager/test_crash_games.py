"""SIGKILL a real bot process running AI and human seats at random moments, 30+ times; every
stored game stays consistent, AI moves that were due when it died run by themselves after the
restart, and every game finishes."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import Database
from tests.bot.manager.crash_game_worker import CHANNELS, inspect_db
from tests.storage.test_crash import backend_url

ROOT = Path(__file__).resolve().parents[3]


def worker(*args: str) -> list[str]:
    return [sys.executable, "-m", "tests.bot.manager.crash_game_worker", *args]


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


def run(*args: str) -> dict[str, object]:
    done = subprocess.run(worker(*args), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


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
            child = subprocess.Popen(
                worker("play", *target, "--seed", str(round_no)),
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            try:
                ready = child.stdout.readline() if child.stdout else ""
                assert ready.strip() == "ready", child.stderr.read() if child.stderr else ""
                time.sleep(rng.uniform(0.05, 0.6))
                assert child.poll() is None, child.stderr.read() if child.stderr else ""
            finally:
                os.kill(child.pid, signal.SIGKILL)
                child.wait()
                for stream in (child.stdout, child.stderr):
                    if stream:
                        stream.close()
            report = await inspect(target)
            assert report["problems"] == [], report
            ai_due_at_kill += int(report["ai_due"])  # type: ignore[call-overload]
        assert ai_due_at_kill > 0, "no kill fell while an AI move was due"
        summary = run("finish", *target, "--seed", "999")
        assert summary["ai_waiting_after_resume"] == [], summary
        assert summary["unfinished"] == [], summary
        assert summary["internal_errors"] == 0, summary
        assert int(summary["finished_games"]) >= len(CHANNELS), summary  # type: ignore[call-overload]
