"""Fixtures shared by the manager-level bot tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.manager_harness import Harness


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    """A manager over a fresh SQLite file with a fake clock; text replies only."""
    harness = await Harness.open(tmp_path / "bot.db")
    try:
        yield harness
    finally:
        await harness.close()
