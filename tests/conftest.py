"""Fixtures of the tests that run the real ``rummikub run`` (tests/test_operating.py and the
files that use its helpers)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.test_operating import Fakes


@pytest.fixture
def fakes() -> Iterator[Fakes]:
    """The fake Telegram and Discord servers in a process of their own."""
    running = Fakes()
    try:
        yield running
    finally:
        running.close()
