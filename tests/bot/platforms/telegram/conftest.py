"""Fixtures of the Telegram adapter tests: the fake Bot API with its world (Ann, who started
the bot and administers the group; Bob, who never started it) and an adapter running on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.api import GameService
from bot.platforms.telegram import TelegramAdapter
from tests.bot.platforms.telegram.support import ANN, BOB, GROUP, TinyGame, telegram_config
from tests.fakes.telegram_api import FakeTelegram

StartAdapter = Callable[..., Awaitable[TelegramAdapter]]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    """The fake Bot API: Ann (started, the group's admin), Bob (never started), one group."""
    async with FakeTelegram() as server:
        server.add_user(ANN, "Ann")
        server.add_user(BOB, "Bob", started=False)
        server.add_group(GROUP, "Friday tiles", admins=[ANN])
        yield server


@pytest.fixture
async def start_adapter(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[StartAdapter]:
    """``await start_adapter(service, **settings)``: an adapter on the fake, started; every
    one started here is stopped at the end of the test."""
    started: list[TelegramAdapter] = []

    async def start(service: GameService, **extra: Any) -> TelegramAdapter:
        adapter = TelegramAdapter(service, telegram_config(fake, tmp_path, **extra))
        await adapter.start()
        started.append(adapter)
        return adapter

    yield start
    for adapter in reversed(started):
        await adapter.stop()


@pytest.fixture
async def running(start_adapter: StartAdapter) -> tuple[TelegramAdapter, TinyGame]:
    """An adapter with its own pacing and retries, in front of a ``TinyGame``."""
    game = TinyGame()
    return await start_adapter(game), game
