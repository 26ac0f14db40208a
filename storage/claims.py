"""Deadline claims: one process acts on each reminder, timeout and due AI move.

A claim is a row keyed by (game, turn, kind); inserting it wins the claim. A claim with an
expiry is a lease: if its owner died before acting, another process takes it over once it
expired. A claim without expiry is final (a reminder that was sent is never sent again).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

from storage.models import DeadlineClaimRow

_TABLE: Any = DeadlineClaimRow.__table__  # type: ignore[attr-defined]

if TYPE_CHECKING:
    from storage.connection import Connection


class ClaimRepository:
    def __init__(self, db: Connection) -> None:
        self._db = db

    async def claim(
        self,
        game_id: int,
        turn: int,
        kind: str,
        *,
        owner: str,
        now: datetime,
        until: datetime | None,
    ) -> datetime | bool | None:
        """Try to claim a deadline. True: it is ours (new, renewed, or taken over after its
        lease expired). Otherwise the current owner's expiry (None: done for good)."""
        try:
            async with self._db.transaction() as session:
                row = await session.get(DeadlineClaimRow, (game_id, turn, kind))
                if row is None:
                    session.add(
                        DeadlineClaimRow(
                            game_id=game_id, turn=turn, kind=kind, owner=owner, expires_at=until
                        )
                    )
                    await session.flush()
                    return True
                if row.owner == owner or (row.expires_at is not None and row.expires_at <= now):
                    if row.owner != owner:
                        # take over with a guarded update: only one of several may win it
                        stale = row.expires_at
                        columns = _TABLE.c
                        result = await session.execute(
                            _TABLE.update()
                            .where(
                                columns.game_id == game_id,
                                columns.turn == turn,
                                columns.kind == kind,
                                columns.owner == row.owner,
                            )
                            .values(owner=owner, expires_at=until)
                        )
                        if result.rowcount != 1:  # type: ignore[attr-defined]
                            return stale
                        return True
                    row.expires_at = until
                    return True
                return row.expires_at
        except IntegrityError:  # another process inserted it first
            async with self._db.sessions() as session:
                row = await session.get(DeadlineClaimRow, (game_id, turn, kind))
                return None if row is None else row.expires_at

    async def forget(self, game_id: int) -> None:
        """Drop a game's claims (its deadlines are over)."""
        async with self._db.transaction() as session:
            await session.execute(delete(DeadlineClaimRow).where(_TABLE.c.game_id == game_id))
