from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, create_engine, inspect, text

from storage import Database, Seat, StorageError, normalize_url, resolve_url
from storage.migrate import alembic_config, head_revision, upgrade
from storage.models import metadata
from tests.storage.conftest import needs_postgres
from tests.storage.scratch import scratch_schema


def schema_diff(connection: Connection) -> list[Any]:
    return list(compare_metadata(MigrationContext.configure(connection), metadata))


async def test_migrations_produce_exactly_the_models_schema(db: Database) -> None:
    async with db.engine.connect() as connection:
        assert await connection.run_sync(schema_diff) == []
    assert await db.revision() == head_revision()


async def test_start_is_idempotent_and_data_survives_a_new_process(db: Database) -> None:
    game = await db.games.create(
        platform="discord", channel_id="c", seats=[Seat("u", "U")], seed=7, setup="", snapshot="S"
    )
    again = Database(db.url.render_as_string(hide_password=False), schema=db.schema)
    await again.start()
    try:
        assert await again.games.load(game.id) == game
        assert await again.revision() == head_revision()
    finally:
        await again.close()


def test_downgrade_to_nothing_and_up_again(tmp_path: Path) -> None:
    from alembic import command

    engine = create_engine(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        with engine.begin() as connection:
            upgrade(connection)
            command.downgrade(alembic_config(connection), "base")
        assert set(inspect(engine).get_table_names()) == {"alembic_version"}
        with engine.begin() as connection:
            upgrade(connection)
            assert schema_diff(connection) == []
    finally:
        engine.dispose()


async def test_first_run_creates_the_sqlite_file_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "bot.db"
    db = Database(f"sqlite:///{path}")
    await db.start()
    try:
        assert path.exists()
        async with db.engine.connect() as connection:
            pragmas = [
                (await connection.execute(text(f"PRAGMA {name}"))).scalar()
                for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
            ]
        assert pragmas == ["wal", 2, 1, 10000]  # synchronous 2 = FULL
    finally:
        await db.close()


async def test_in_memory_sqlite_works_for_quick_experiments() -> None:
    async with Database("sqlite+aiosqlite:///:memory:") as db:
        await db.settings.update("terminal", "local", hints=True)
        assert (await db.settings.get("terminal", "local")).hints


def test_urls_are_normalised_to_the_async_drivers(monkeypatch: pytest.MonkeyPatch) -> None:
    assert str(normalize_url("postgres://u:p@h/db")) == "postgresql+asyncpg://u:***@h/db"
    assert normalize_url("postgresql+psycopg2://h/db").drivername == "postgresql+asyncpg"
    assert normalize_url("sqlite:///x.db").drivername == "sqlite+aiosqlite"
    with pytest.raises(ValueError, match="neither SQLite nor PostgreSQL"):
        normalize_url("mysql://h/db")
    with pytest.raises(ValueError, match="not a valid URL"):
        normalize_url("not a url")
    monkeypatch.setenv("DATABASE_URL", "postgresql://h/db")
    assert resolve_url() == "sqlite+aiosqlite:///rummikub.db"  # the settings pass the URL in
    assert resolve_url("sqlite:///given.db") == "sqlite:///given.db"
    with pytest.raises(ValueError, match="only be chosen on PostgreSQL"):
        Database("sqlite:///x.db", schema="s")


@pytest.mark.postgres
async def test_processes_starting_together_migrate_once() -> None:
    url = needs_postgres()
    async with scratch_schema(url) as schema:
        dbs = [Database(url, schema=schema) for _ in range(3)]
        try:
            await asyncio.gather(*(d.start() for d in dbs))
            assert {await d.revision() for d in dbs} == {head_revision()}
        finally:
            for d in dbs:
                await d.close()


async def test_a_schema_from_a_newer_release_is_refused_clearly(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'newer.db'}"
    async with Database(url) as db, db.engine.begin() as connection:
        await connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    db = Database(url)
    try:
        with pytest.raises(StorageError, match="has a schema this version does not know"):
            await db.start()
    finally:
        await db.close()
