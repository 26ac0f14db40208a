from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database
from tests.storage.scratch import scratch_schema

PG_URL = os.environ.get("TEST_DATABASE_URL")


def needs_postgres() -> str:
    if not PG_URL:
        pytest.skip("TEST_DATABASE_URL is not set (no PostgreSQL for this run)")
    return PG_URL


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database: a fresh SQLite file, or a fresh schema on PostgreSQL."""
    if request.param == "sqlite":
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
        await database.start()
        try:
            yield database
        finally:
            await database.close()
        return
    url = needs_postgres()
    async with scratch_schema(url) as schema:
        database = Database(url, schema=schema)
        await database.start()
        try:
            yield database
        finally:
            await database.close()
