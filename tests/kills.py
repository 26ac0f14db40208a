"""Real processes killed with real signals, shared by the crash tests: a worker module started
as a child, killed with SIGKILL at a chosen moment, and its one-line JSON reports read back;
the databases those tests run on (a SQLite file, or a scratch PostgreSQL schema)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from tests.storage.conftest import needs_postgres
from tests.storage.scratch import scratch_schema

ROOT = Path(__file__).resolve().parents[1]


def command(module: str, *args: str) -> list[str]:
    """The command line that runs a worker module with this interpreter."""
    return [sys.executable, "-m", module, *args]


@asynccontextmanager
async def backend_url(backend: str, tmp_path: Path) -> AsyncIterator[list[str]]:
    """The ``--url`` (and ``--schema``) options of a fresh database of this backend."""
    if backend == "sqlite":
        yield ["--url", f"sqlite+aiosqlite:///{tmp_path / 'crash.db'}"]
        return
    url = needs_postgres()
    async with scratch_schema(url) as schema:
        yield ["--url", url, "--schema", schema]


def errors(child: subprocess.Popen[str]) -> str:
    """What a child wrote to stderr (for an assertion's message)."""
    return child.stderr.read() if child.stderr else ""


@contextmanager
def killed_at_the_end(module: str, *args: str) -> Iterator[subprocess.Popen[str]]:
    """Start a worker, wait for its ``ready`` line, hand it over while it runs and SIGKILL it
    when the block ends (however it ends), closing its pipes."""
    child = subprocess.Popen(
        command(module, *args),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready = child.stdout.readline() if child.stdout else ""
        assert ready.strip() == "ready", errors(child)
        yield child
        assert child.poll() is None, errors(child)  # it was still running when it was killed
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for stream in (child.stdout, child.stderr):
            if stream:
                stream.close()


def report(
    module: str, *args: str, timeout: float = 300, ok: Callable[[int], bool] = lambda rc: rc == 0
) -> dict[str, object]:
    """Run a worker to its end and read the JSON object on its last line."""
    done = subprocess.run(
        command(module, *args), cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    assert ok(done.returncode) and done.stdout, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
