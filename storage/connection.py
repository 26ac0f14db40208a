"""The connection to one database: engine set-up for SQLite or PostgreSQL, sessions and
transactions, migrations at start-up. Repositories take a ``Connection``; ``storage.db`` bundles
them with it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal, Self

from alembic.util import CommandError
from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import StaticPool

from storage.errors import StorageError
from storage.migrate import current_revision, upgrade

DEFAULT_URL = "sqlite+aiosqlite:///rummikub.db"

SqliteSync = Literal["OFF", "NORMAL", "FULL", "EXTRA"]


def resolve_url(url: str | None = None) -> str:
    """The URL to use: the argument, else the SQLite file ``rummikub.db``.

    The environment is not read here: the callers' settings object (``bot.config``) reads
    ``DATABASE_URL`` and ``.env`` once and passes the URL in, so every command agrees.
    """
    return url or DEFAULT_URL


def normalize_url(url: str) -> URL:
    """Accept the common spellings and pick our async drivers.

    ``postgres://``, ``postgresql://`` and ``postgresql+psycopg2://`` become
    ``postgresql+asyncpg://``; ``sqlite://`` becomes ``sqlite+aiosqlite://``.
    """
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    try:
        parsed = make_url(url)
    except Exception as exc:
        raise ValueError(f"Database URL {url!r} is not a valid URL: {exc}.") from exc
    backend = parsed.get_backend_name()
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+asyncpg")
    if backend == "sqlite":
        return parsed.set(drivername="sqlite+aiosqlite")
    raise ValueError(
        f"Database URL {parsed.render_as_string(hide_password=True)!r} is neither SQLite nor "
        "PostgreSQL; use sqlite+aiosqlite:///file.db or postgresql+asyncpg://user@host/db."
    )


class Connection:
    """One database: ``await start()`` creates or upgrades the schema, ``await close()`` ends.

    SQLite (the default) runs in WAL mode with ``synchronous=FULL``: every commit is on disk
    before ``save_turn`` returns, so a reply that announces a turn never outlives the turn, even
    across a power cut. (``NORMAL`` would survive a killed process but may lose the last commits
    on power loss; the benchmark shows the difference is small on an SSD.)
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        schema: str | None = None,
        sqlite_synchronous: SqliteSync = "FULL",
        busy_timeout_ms: int = 10_000,
        echo: bool = False,
    ) -> None:
        self.url = normalize_url(resolve_url(url))
        self.dialect = self.url.get_backend_name()
        if schema is not None and self.dialect != "postgresql":
            raise ValueError("A schema can only be chosen on PostgreSQL.")
        if sqlite_synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"SQLite synchronous mode {sqlite_synchronous!r} is unknown.")
        self.schema = schema
        self._sqlite_synchronous = sqlite_synchronous
        self._busy_timeout_ms = int(busy_timeout_ms)
        self.engine: AsyncEngine = self._create_engine(echo)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock = asyncio.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url.render_as_string(hide_password=True)!r})"

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file, or None for PostgreSQL or an in-memory database."""
        database = self.url.database
        if self.dialect != "sqlite" or not database or database == ":memory:":
            return None
        return Path(database)

    def _create_engine(self, echo: bool) -> AsyncEngine:
        kwargs: dict[str, Any] = {"echo": echo}
        if self.dialect == "postgresql":
            kwargs["pool_pre_ping"] = True  # survive a PostgreSQL restart under a long-lived bot
            if self.schema is not None:
                kwargs["connect_args"] = {"server_settings": {"search_path": self.schema}}
            return create_async_engine(self.url, **kwargs)
        if self.sqlite_path is None:
            kwargs["poolclass"] = StaticPool  # one shared connection keeps the memory database
        engine = create_async_engine(self.url, **kwargs)
        event.listen(engine.sync_engine, "connect", self._on_sqlite_connect)
        return engine

    def _on_sqlite_connect(self, dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            if self.sqlite_path is not None:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={self._sqlite_synchronous}")
            cursor.execute(f"PRAGMA busy_timeout={self._busy_timeout_ms}")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    async def start(self) -> None:
        """Create the SQLite file if needed and bring the schema up to date."""
        path = self.sqlite_path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            async with self.engine.begin() as connection:
                await connection.run_sync(upgrade)
        except DBAPIError as exc:
            raise self._failure("opened or upgraded", exc) from exc
        except CommandError as exc:  # e.g. a revision from a newer release of the bot
            where = self.url.render_as_string(hide_password=True)
            raise StorageError(
                f"The database {where} has a schema this version does not know ({exc}); "
                "it was probably upgraded by a newer release, so run that release."
            ) from exc

    def _failure(self, what: str, exc: DBAPIError) -> StorageError:
        reason = str(exc.orig).rsplit(">: ", 1)[-1].strip().rstrip(".")
        where = self.url.render_as_string(hide_password=True)
        return StorageError(f"The database {where} could not be {what}: {reason}.")

    async def revision(self) -> str | None:
        """The schema revision the database is at (None before the first upgrade)."""
        try:
            async with self.engine.connect() as connection:
                return await connection.run_sync(current_revision)
        except DBAPIError as exc:
            raise self._failure("opened", exc) from exc

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session inside one transaction: committed on success, rolled back on error.

        On SQLite, write transactions of this process queue on one asyncio lock: SQLite has a
        single writer anyway, and waiting our turn in order is far fairer than its busy
        handler's sleep-and-retry (which made the slowest of many concurrent saves take
        seconds). Other processes still meet ``busy_timeout``.
        """
        if self.dialect == "sqlite":
            async with self._write_lock, self.sessions() as session, session.begin():
                yield session
            return
        async with self.sessions() as session, session.begin():
            yield session
