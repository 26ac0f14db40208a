"""Secrets the bot makes for itself and keeps in the database, so that what they signed is
still good after a restart and in every process on the same database."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from storage.models import ServerSecretRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection


class ServerSecrets:
    """One row per named secret, written once and then only read."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def get_or_create(self, name: str, make: Callable[[], str]) -> str:
        """The stored secret ``name``; the first caller stores ``make()``. Two processes
        starting together agree: the one whose insert loses reads the winner's."""
        for attempt in range(2):
            async with self._db.sessions() as session:
                row = await session.get(ServerSecretRow, name)
                if row is not None:
                    return str(row.value)
            try:
                async with self._db.transaction() as session:
                    value = make()
                    session.add(ServerSecretRow(name=name, value=value, created_at=utcnow()))
                    await session.flush()
                    return value
            except IntegrityError:
                if attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover
