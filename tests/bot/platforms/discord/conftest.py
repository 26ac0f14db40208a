"""Fixtures of the Discord tests: the real bot against the fake Discord API (``fake`` is in
tests/bot/conftest.py, for the web board's tests too), behind a scripted service
(``service``, ``harness``) or the real GameManager on a SQLite file (``live``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.platforms.discord.client import RummikubBot
from tests.bot.platforms.discord.playing import Live
from tests.bot.platforms.discord.scripted import ScriptedService
from tests.fakes.discord_api import DiscordHarness, FakeDiscord


@pytest.fixture
async def service() -> ScriptedService:
    return ScriptedService()


@pytest.fixture
async def harness(fake: FakeDiscord, service: ScriptedService) -> AsyncIterator[DiscordHarness]:
    h = DiscordHarness(fake)
    await h.login(RummikubBot(service))
    try:
        yield h
    finally:
        await h.close()


@pytest.fixture
async def live(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Live]:
    """The real bot behind the real discord.py client against ``fake``, on a SQLite file."""
    table = Live(fake, f"sqlite+aiosqlite:///{tmp_path / 'rummikub.db'}")
    await table.boot()
    try:
        yield table
    finally:
        await table.shutdown()
