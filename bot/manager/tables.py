"""The live tables of this process, one per channel, and each channel's lock."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from bot.api import ChannelRef
from bot.manager.state import LiveTable


class Tables:
    """Channel key -> the live table (lobby or game) in memory, and the channel's lock.

    Every command and timer of a table runs under its channel's lock; a reload replaces the
    table but never the lock. Memory is a copy of storage (``Store`` rebuilds it)."""

    def __init__(self) -> None:
        self._tables: dict[str, LiveTable] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, key: str) -> asyncio.Lock:
        """The channel's lock (made on first use, kept for good)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def get(self, key: str) -> LiveTable | None:
        return self._tables.get(key)

    def of(self, channel: ChannelRef) -> LiveTable | None:
        return self._tables.get(channel.key)

    def put(self, table: LiveTable) -> None:
        self._tables[table.channel.key] = table

    def pop(self, key: str) -> LiveTable | None:
        return self._tables.pop(key, None)

    def drop(self, table: LiveTable) -> None:
        """Forget ``table`` if it is still the channel's table."""
        if self._tables.get(table.channel.key) is table:
            del self._tables[table.channel.key]

    def __contains__(self, key: object) -> bool:
        return key in self._tables

    def __getitem__(self, key: str) -> LiveTable:
        return self._tables[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def values(self) -> list[LiveTable]:
        return list(self._tables.values())

    def items(self) -> list[tuple[str, LiveTable]]:
        return list(self._tables.items())

    def keys(self) -> list[str]:
        return list(self._tables)
