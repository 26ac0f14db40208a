"""Kill a bot-like process with SIGKILL at random moments; no committed turn may be lost."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from tests.storage.conftest import needs_postgres
from tests.storage.scratch import scratch_schema

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 5


def worker(*args: str) -> list[str]:
    return [sys.executable, "-m", "tests.storage.crash_worker", *args]


@asynccontextmanager
async def backend_url(backend: str, tmp_path: Path) -> AsyncIterator[list[str]]:
    if backend == "sqlite":
        yield ["--url", f"sqlite+aiosqlite:///{tmp_path / 'crash.db'}"]
        return
    url = needs_postgres()
    async with scratch_schema(url) as schema:
        yield ["--url", url, "--schema", schema]


def done_lines(journal: Path) -> int:
    """How many commits the journal records so far."""
    if not journal.exists():
        return 0
    return journal.read_text().count('"kind": "done"')


def wait_for_commits(
    journal: Path, count: int, child: subprocess.Popen[str], limit: float = 60.0
) -> None:
    """Until the journal records ``count`` commits (the child is alive and making progress)."""
    deadline = time.monotonic() + limit
    while done_lines(journal) < count:
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        assert time.monotonic() < deadline, "the child made no progress in a minute"
        time.sleep(0.02)


def verify(target: list[str], journal: Path) -> dict[str, object]:
    done = subprocess.run(
        worker("verify", *target, "--journal", str(journal)),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout, done.stderr
    summary: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return summary


@pytest.mark.slow
@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
async def test_sigkill_at_random_moments_never_loses_a_committed_turn(
    backend: str, tmp_path: Path
) -> None:
    rng = random.Random(20261130)
    journal = tmp_path / "journal.jsonl"
    async with backend_url(backend, tmp_path) as target:
        done_before = 0
        pending_kills = 0
        for round_no in range(ROUNDS):
            child = subprocess.Popen(
                worker("play", *target, "--journal", str(journal), "--seed", str(round_no)),
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            try:
                ready = child.stdout.readline() if child.stdout else ""
                assert ready.strip() == "ready", child.stderr.read() if child.stderr else ""
                # Kill at a random moment after the child has committed something this round
                # (on a busy machine a fixed sleep can end before its first commit).
                wait_for_commits(journal, done_lines(journal) + 1, child)
                time.sleep(rng.uniform(0.0, 0.7))
                assert child.poll() is None, child.stderr.read() if child.stderr else ""
            finally:
                os.kill(child.pid, signal.SIGKILL)
                child.wait()
                for stream in (child.stdout, child.stderr):
                    if stream:
                        stream.close()
            summary = verify(target, journal)
            assert summary["problems"] == [], summary
            done = int(summary["done"])  # type: ignore[call-overload]
            assert done > done_before, "the child made no progress before it was killed"
            done_before = done
            pending_kills += int(summary["pending_at_kill"])  # type: ignore[call-overload]
        assert int(summary["games"]) >= 4  # type: ignore[call-overload]
