"""Keys the bot makes for itself: written once, then the same for every caller and process."""

from __future__ import annotations

import asyncio
import itertools

from storage import Database


async def test_a_secret_is_made_once_and_then_read_as_it_was(db: Database) -> None:
    made = itertools.count()
    first = await db.secrets.get_or_create("board_link_key", lambda: f"key-{next(made)}")
    again = await db.secrets.get_or_create("board_link_key", lambda: f"key-{next(made)}")
    other = await db.secrets.get_or_create("another", lambda: "other-key")
    assert first == again == "key-0" and other == "other-key"


async def test_callers_making_the_same_secret_at_once_agree_on_one(db: Database) -> None:
    made = itertools.count()
    found = await asyncio.gather(
        *(db.secrets.get_or_create("board_link_key", lambda: f"key-{next(made)}") for _ in range(8))
    )
    assert len(set(found)) == 1
