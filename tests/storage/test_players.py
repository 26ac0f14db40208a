"""Per-player language: the chosen language and the client's, per platform, across processes."""

from __future__ import annotations

import asyncio

from storage import Database, PlayerLanguage, PlayerLanguageRepository


async def test_a_players_language_is_stored_changed_and_kept_apart(db: Database) -> None:
    langs = PlayerLanguageRepository(db)
    assert await langs.get("discord", "1") == PlayerLanguage("", "")
    await langs.put("discord", "1", client="pl")
    assert await langs.put("discord", "1", language="en") == PlayerLanguage("en", "pl")
    await langs.put("telegram", "1", language="pl")
    again = PlayerLanguageRepository(db)  # another repository (or process) reads the same
    assert await again.get("discord", "1") == PlayerLanguage("en", "pl")
    assert await again.get("telegram", "1") == PlayerLanguage("pl", "")
    await again.put("discord", "1", language="")  # back to following the client
    assert await langs.get("discord", "1") == PlayerLanguage("", "pl")


async def test_two_first_writes_at_once_both_land(db: Database) -> None:
    langs = PlayerLanguageRepository(db)
    await asyncio.gather(
        langs.put("discord", "7", language="pl"), langs.put("discord", "7", client="en")
    )
    assert await langs.get("discord", "7") == PlayerLanguage("pl", "en")
