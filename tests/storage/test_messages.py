"""Message slots: a stored message id per channel, slot and owner, across processes."""

from __future__ import annotations

from storage import Database
from storage.messages import MessageSlots


async def test_slots_are_stored_replaced_and_forgotten(db: Database) -> None:
    slots = MessageSlots(db)
    assert await slots.get("discord", "42", "table") is None
    big = 1_300_000_000_000_000_123  # Discord snowflakes need 64 bits
    await slots.put("discord", "42", "table", big)
    await slots.put("discord", "42", "rack", 7, owner="u1")
    await slots.put("discord", "42", "rack", 8, owner="u2")
    assert await slots.get("discord", "42", "table") == big
    assert await slots.get("discord", "42", "rack", "u1") == 7
    assert await slots.get("telegram", "42", "table") is None
    await slots.put("discord", "42", "table", 99)
    again = MessageSlots(db)  # another repository (or process) sees the same ids
    assert await again.get("discord", "42", "table") == 99
    await again.forget("discord", "42", "rack", "u1")
    assert await slots.get("discord", "42", "rack", "u1") is None
    assert await slots.get("discord", "42", "rack", "u2") == 8


async def test_a_slot_shown_as_several_messages_keeps_them_all(db: Database) -> None:
    slots = MessageSlots(db)
    parts = [{"id": 11, "kind": "photo", "image": "ab"}, {"id": 12, "kind": "text"}]
    await slots.put_parts("telegram", "-100", "table", parts)
    await slots.put_parts("telegram", "-100", "panel", [{"id": 5, "kind": "text"}], owner="77")
    assert await slots.get_parts("telegram", "-100", "table") == parts
    assert await slots.get("telegram", "-100", "table") == 11
    assert sorted(await slots.all_parts("telegram")) == [
        ("-100", "panel", "77", [{"id": 5, "kind": "text"}]),
        ("-100", "table", "", parts),
    ]
    await slots.put_parts("telegram", "-100", "table", [])
    assert await slots.get_parts("telegram", "-100", "table") is None
    await slots.put("discord", "9", "table", 3)
    assert await slots.get_parts("discord", "9", "table") == [{"id": 3}]
