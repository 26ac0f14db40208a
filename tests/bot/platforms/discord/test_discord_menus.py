"""The choices in Discord's option menus speak the user's language: a Polish client sees
"według koloru" and "angielski", while the value the bot receives stays the same."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.manager import GameManager
from bot.platforms.discord.client import RummikubBot
from storage import Database
from tests.fakes.discord_api import DiscordHarness, running_fake

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


def options(tree: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for option in tree:
        yield option
        yield from options(option.get("options", []))


async def test_every_menu_choice_has_a_polish_name(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    await db.start()
    manager = GameManager(db)
    with running_fake() as fake:
        h = DiscordHarness(fake)
        await h.login(RummikubBot(manager, sync_commands=True))
        try:
            (command,) = fake.synced_commands
        finally:
            await h.close()
            await manager.close()
            await db.close()
    choices = {
        (option["name"], choice["value"]): choice
        for option in options(command["options"])
        for choice in option.get("choices", [])
    }
    assert choices, "the commands offer no menus"
    for (option, value), choice in choices.items():
        polish = (choice.get("name_localizations") or {}).get("pl")
        assert polish, f"{option}={value}: no Polish name for {choice['name']!r}"
        assert 1 <= len(polish) <= 100
    assert choices[("order", "colour")]["name_localizations"]["pl"] == "według koloru"
    assert choices[("order", "number")]["name_localizations"]["pl"] == "według numeru"
    assert choices[("language", "en")]["name_localizations"]["pl"].startswith("angielski")
    assert choices[("level", "hard")]["name_localizations"]["pl"].startswith("trudny")
    assert choices[("order", "colour")]["name"] == "by colour"  # English clients keep English
