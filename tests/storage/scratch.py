"""Throw-away PostgreSQL schemas for tests and benchmarks that must not touch real data."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from storage.db import normalize_url


@asynccontextmanager
async def scratch_schema(url: str, prefix: str = "rk_test") -> AsyncIterator[str]:
    """Create a uniquely named schema on the PostgreSQL server at ``url``; drop it afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    engine = create_async_engine(normalize_url(url), poolclass=None)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(f'CREATE SCHEMA "{name}"'))
        try:
            yield name
        finally:
            async with engine.begin() as connection:
                await connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
    finally:
        await engine.dispose()
