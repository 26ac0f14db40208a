"""Kill a bot-like process with SIGKILL at random moments; no committed turn may be lost."""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path

import pytest

from tests.kills import backend_url, errors, killed_at_the_end, report

WORKER = "tests.storage.crash_worker"
ROUNDS = 5


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
        assert child.poll() is None, errors(child)
        assert time.monotonic() < deadline, "the child made no progress in a minute"
        time.sleep(0.02)


def verify(target: list[str], journal: Path) -> dict[str, object]:
    return report(
        WORKER, "verify", *target, "--journal", str(journal), timeout=60, ok=lambda _: True
    )


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
            with killed_at_the_end(
                WORKER, "play", *target, "--journal", str(journal), "--seed", str(round_no)
            ) as child:
                # Kill at a random moment after the child has committed something this round
                # (on a busy machine a fixed sleep can end before its first commit).
                wait_for_commits(journal, done_lines(journal) + 1, child)
                time.sleep(rng.uniform(0.0, 0.7))
            summary = verify(target, journal)
            assert summary["problems"] == [], summary
            done = int(summary["done"])  # type: ignore[call-overload]
            assert done > done_before, "the child made no progress before it was killed"
            done_before = done
            pending_kills += int(summary["pending_at_kill"])  # type: ignore[call-overload]
        assert int(summary["games"]) >= 4  # type: ignore[call-overload]
