"""What the Telegram adapter must remember across restarts, in one small SQLite file.

Three things, none of them game state: the message ids behind edit-in-place slots (so the table
and the private panel keep being edited after a restart), the long button commands hidden
behind short callback codes (Telegram allows 64 bytes of callback data), and each user's
current game chat (so text typed in the private chat reaches the right game).
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

CODE_LIFETIME = 60 * 24 * 3600.0  # a button code older than this is forgotten at start-up


class TelegramState:
    """A namespaced key-value store on SQLite (``path=None`` keeps it in memory)."""

    def __init__(self, path: str | Path | None = None) -> None:
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(":memory:" if path is None else str(path))
        # Written on the event loop after every edit, so no fsync per commit: losing the last
        # writes in a power cut only means a fresh message instead of an edit.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS kv (ns TEXT NOT NULL, key TEXT NOT NULL, "
            "value TEXT NOT NULL, updated REAL NOT NULL, PRIMARY KEY (ns, key))"
        )
        self._db.execute(
            "DELETE FROM kv WHERE ns = 'code' AND updated < ?", (time.time() - CODE_LIFETIME,)
        )
        self._db.commit()
        self._cache: dict[tuple[str, str], Any] = {}

    def get(self, ns: str, key: str) -> Any:
        if (ns, key) in self._cache:
            return self._cache[(ns, key)]
        row = self._db.execute("SELECT value FROM kv WHERE ns = ? AND key = ?", (ns, key))
        found = row.fetchone()
        value = json.loads(found[0]) if found else None
        self._cache[(ns, key)] = value
        return value

    def put(self, ns: str, key: str, value: Any) -> None:
        if self._cache.get((ns, key), ...) == value and value is not None:
            return
        self._cache[(ns, key)] = value
        self._db.execute(
            "INSERT INTO kv (ns, key, value, updated) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, "
            "updated = excluded.updated",
            (ns, key, json.dumps(value), time.time()),
        )
        self._db.commit()

    def delete(self, ns: str, key: str) -> None:
        self._cache.pop((ns, key), None)
        self._db.execute("DELETE FROM kv WHERE ns = ? AND key = ?", (ns, key))
        self._db.commit()

    def keys(self, ns: str) -> list[str]:
        """Every key stored in a namespace."""
        rows = self._db.execute("SELECT key FROM kv WHERE ns = ?", (ns,))
        return [str(row[0]) for row in rows.fetchall()]

    def close(self) -> None:
        self._db.close()
