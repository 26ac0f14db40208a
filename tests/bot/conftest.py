"""Fixtures shared by the bot tests.

Every bot test fails when the manager logs an internal error (an exception that reached one of
its catch-alls): those are bugs, never answers. A test that provokes one on purpose takes the
``expect_internal_errors`` fixture and checks what was logged.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.bot.manager.manager_harness import Harness
from tests.fakes.discord_api import FakeDiscord, running_fake


class InternalErrors(logging.Handler):
    """Collects the log records the manager marks as internal errors."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.expected = False

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "internal_error", False):
            self.records.append(record)


@pytest.fixture(autouse=True)
def internal_errors() -> Iterator[InternalErrors]:
    """Fail the test if any internal error was logged (unless the test expects them)."""
    handler = InternalErrors()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
    if handler.records and not handler.expected:
        first = handler.records[0]
        details = logging.Formatter().format(first)
        pytest.fail(f"{len(handler.records)} internal error(s) were logged; the first:\n{details}")


@pytest.fixture
def expect_internal_errors(internal_errors: InternalErrors) -> InternalErrors:
    """For a test that provokes internal errors on purpose and checks them itself."""
    internal_errors.expected = True
    return internal_errors


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A manager over a fresh SQLite file with a fake clock; text replies only."""
    harness = await Harness.open(tmp_path / "bot.db")
    try:
        yield harness
    finally:
        await harness.close()


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    """The fake Discord API on 127.0.0.1, for the Discord test files (the Telegram ones
    define their own ``fake``, the fake Bot API server)."""
    with running_fake() as server:
        yield server
