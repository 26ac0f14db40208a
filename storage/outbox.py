"""The outbox: what a stored turn has to tell (announcements, and which views to refresh),
written in the turn's own transaction and marked delivered once a platform accepted it.

A process killed between the commit and the sending leaves the entries undelivered; the next
start sends them again, and so does a live process on the same database once they are old
enough (``pending(older_than=...)``): at least once, never lost. Entries are keyed
``"game:version:seq"``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, func, or_, tuple_, update
from sqlalchemy import select as select_columns
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col

from storage.models import GameRow, OutboxRow, utcnow

if TYPE_CHECKING:
    from storage.connection import Connection

PAGE = 500  # entries per query of ``OutboxRepository.pages``


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """One undelivered entry, with the game's place (platform and channel) and state."""

    key: str
    game_id: int
    version: int
    seq: int
    platform: str
    channel_id: str
    payload: dict[str, Any]
    created_at: datetime
    game_finished: bool


@dataclass(frozen=True, slots=True)
class UnconfirmedGame:
    """A game with undelivered entries: where it is played, how many, the newest version."""

    game_id: int
    platform: str
    channel_id: str
    count: int
    newest: int


def outbox_key(game_id: int, version: int, seq: int) -> str:
    return f"{game_id}:{version}:{seq}"


def parse_key(key: str) -> tuple[int, int, int] | None:
    """``(game, version, seq)`` of a key, or None for anything else."""
    parts = key.split(":")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    game_id, version, seq = (int(p) for p in parts)
    return game_id, version, seq


@dataclass(frozen=True, slots=True)
class Lease:
    """Whose entries a process writes are, and for how long from their writing (a live sender
    delivers them meanwhile; another process sends them again only once the lease ran out)."""

    owner: str
    seconds: float


def add_entries(
    session: AsyncSession,
    game_id: int,
    version: int,
    payloads: Sequence[dict[str, Any]],
    lease: Lease | None = None,
) -> None:
    """Add a turn's entries to its transaction (the turn is stored as ``version``), leased
    to their writer (without ``lease``, free for any process to claim)."""
    now = utcnow()
    owner = lease.owner if lease is not None else None
    until = now + timedelta(seconds=lease.seconds) if lease is not None else None
    session.add_all(
        OutboxRow(
            game_id=game_id,
            version=version,
            seq=i,
            payload=dict(p),
            created_at=now,
            owner=owner,
            lease_until=until,
        )
        for i, p in enumerate(payloads)
    )


class OutboxRepository:
    def __init__(self, db: Connection) -> None:
        self._db = db
        self.lease: Lease | None = None  # whose the entries written on this connection are

    def lease_to(self, owner: str, seconds: float) -> None:
        """Entries written from now on (with their turns, by ``GameRepository``) are leased to
        ``owner`` for ``seconds``: the process that hands them to a platform."""
        self.lease = Lease(owner, seconds)

    async def claim(
        self,
        game_id: int,
        *,
        owner: str,
        now: datetime,
        until: datetime,
        younger_than: timedelta | None = None,
    ) -> int:
        """Claim a game's undelivered entries whose lease ran out (or that have none) for
        ``owner`` until ``until``, in one guarded UPDATE, so that of several processes
        finding them exactly one sends each; with ``younger_than`` only those written since
        then. The count claimed: they are read with ``pages(owner=..., lease_until=until)``."""
        async with self._db.transaction() as session:
            query = (
                update(OutboxRow)
                .where(
                    col(OutboxRow.game_id) == game_id,
                    col(OutboxRow.delivered_at).is_(None),
                    or_(
                        col(OutboxRow.lease_until).is_(None),
                        col(OutboxRow.lease_until) <= now,
                    ),
                )
                .values(owner=owner, lease_until=until)
            )
            if younger_than is not None:
                query = query.where(col(OutboxRow.created_at) >= now - younger_than)
            result = await session.execute(query)
            return int(getattr(result, "rowcount", 0) or 0)

    async def claim_keys(
        self, keys: Sequence[str], *, owner: str, now: datetime, until: datetime
    ) -> int:
        """Claim these undelivered entries for ``owner`` until ``until`` if they are its own
        already or their lease ran out (to try them again after a failed send), counting the
        try; the count claimed (read them with ``pages(claimed=...)``)."""
        return await self._update_undelivered(
            keys,
            or_(
                col(OutboxRow.owner) == owner,
                col(OutboxRow.lease_until).is_(None),
                col(OutboxRow.lease_until) <= now,
            ),
            owner=owner,
            lease_until=until,
            tries=col(OutboxRow.tries) + 1,
        )

    async def refuse(self, keys: Sequence[str]) -> int:
        """A platform refused these entries for good (the chat is gone, the bot was removed):
        marked refused, and so delivered as far as sending goes: never sent again. The count
        marked."""
        now = utcnow()
        return await self._update_undelivered(keys, delivered_at=now, refused_at=now)

    async def refused(self, game_id: int) -> list[str]:
        """The keys of a game's entries a platform refused, in the order written."""
        async with self._db.sessions() as session:
            rows = await session.execute(
                select_columns(col(OutboxRow.version), col(OutboxRow.seq))
                .where(col(OutboxRow.game_id) == game_id, col(OutboxRow.refused_at).is_not(None))
                .order_by(col(OutboxRow.version), col(OutboxRow.seq))
            )
            return [outbox_key(game_id, version, seq) for version, seq in rows]

    async def claimable(
        self, *, now: datetime, younger_than: timedelta | None = None
    ) -> list[UnconfirmedGame]:
        """The games with undelivered entries whose lease ran out by ``now`` (their sender
        died, or has been trying longer than a live one takes), like ``unconfirmed_games``."""
        return await self.unconfirmed_games(free_at=now, younger_than=younger_than)

    async def mark_delivered(self, keys: Sequence[str]) -> int:
        """Mark entries delivered (unknown or malformed keys are ignored); the count marked."""
        return await self._update_undelivered(keys, delivered_at=utcnow())

    async def _update_undelivered(
        self, keys: Sequence[str], *where: ColumnElement[bool], **values: Any
    ) -> int:
        """Set ``values`` on the entries of ``keys`` not yet delivered (and matching ``where``),
        300 keys a statement, in one transaction (unknown or malformed keys are ignored); the
        count changed."""
        ids = sorted({found for key in keys if (found := parse_key(key)) is not None})
        marked = 0
        if not ids:
            return marked
        async with self._db.transaction() as session:
            for start in range(0, len(ids), 300):
                result = await session.execute(
                    update(OutboxRow)
                    .where(
                        tuple_(
                            col(OutboxRow.game_id), col(OutboxRow.version), col(OutboxRow.seq)
                        ).in_(ids[start : start + 300]),
                        col(OutboxRow.delivered_at).is_(None),
                        *where,
                    )
                    .values(**values)
                )
                marked += int(getattr(result, "rowcount", 0) or 0)
        return marked

    async def unconfirmed_games(
        self, *, free_at: datetime | None = None, younger_than: timedelta | None = None
    ) -> list[UnconfirmedGame]:
        """Every game with undelivered entries, in the order of their ids (one grouped
        query: the entries are read later, a page at a time); with ``free_at`` only entries
        whose lease ran out by then, with ``younger_than`` only those written since then."""
        query = (
            select_columns(
                col(OutboxRow.game_id),
                col(GameRow.platform),
                col(GameRow.channel_id),
                func.count(),
                func.max(col(OutboxRow.version)),
            )
            .join(GameRow, col(GameRow.id) == col(OutboxRow.game_id))
            .where(col(OutboxRow.delivered_at).is_(None))
        )
        if free_at is not None:
            query = query.where(
                or_(col(OutboxRow.lease_until).is_(None), col(OutboxRow.lease_until) <= free_at)
            )
            if younger_than is not None:
                query = query.where(col(OutboxRow.created_at) >= free_at - younger_than)
        query = query.group_by(
            col(OutboxRow.game_id), col(GameRow.platform), col(GameRow.channel_id)
        ).order_by(col(OutboxRow.game_id))
        async with self._db.sessions() as session:
            rows = (await session.execute(query)).all()
        return [
            UnconfirmedGame(game, platform, channel_id, int(count), int(newest))
            for game, platform, channel_id, count, newest in rows
        ]

    async def pending(
        self,
        *,
        platform: str | None = None,
        game_id: int | None = None,
        older_than: timedelta | None = None,
        younger_than: timedelta | None = None,
        now: datetime | None = None,
    ) -> list[OutboxEntry]:
        """Every undelivered entry (of a platform, or of one game), in the order written;
        with ``older_than`` only those written longer ago than that, with ``younger_than``
        only those written since then (ages from ``now``, the wall clock by default)."""
        found: list[OutboxEntry] = []
        async for page in self.pages(
            platform=platform,
            game_id=game_id,
            older_than=older_than,
            younger_than=younger_than,
            now=now,
        ):
            found.extend(page)
        return found

    async def pages(
        self,
        *,
        size: int = PAGE,
        platform: str | None = None,
        game_id: int | None = None,
        older_than: timedelta | None = None,
        younger_than: timedelta | None = None,
        now: datetime | None = None,
        claimed: tuple[str, datetime] | None = None,
    ) -> AsyncIterator[list[OutboxEntry]]:
        """``pending`` a page of ``size`` entries at a time (each page one short query after
        the last key of the one before), so that a reader of many entries can let other work
        run between pages instead of holding the event loop for all of them at once. With
        ``claimed`` (owner, lease end) only the entries that claim took (``claim``)."""
        now = now or utcnow()
        after: tuple[int, int, int] | None = None
        while True:
            page = await self._page(
                after, size, platform, game_id, older_than, younger_than, now, claimed
            )
            if page:
                yield page
            if len(page) < size:
                return
            last = page[-1]
            after = (last.game_id, last.version, last.seq)

    async def _page(
        self,
        after: tuple[int, int, int] | None,
        size: int,
        platform: str | None,
        game_id: int | None,
        older_than: timedelta | None,
        younger_than: timedelta | None,
        now: datetime,
        claimed: tuple[str, datetime] | None,
    ) -> list[OutboxEntry]:
        """One page of ``pages``: plain columns, not ORM objects (a tenth of the work)."""
        key = tuple_(col(OutboxRow.game_id), col(OutboxRow.version), col(OutboxRow.seq))
        query = (
            select_columns(
                col(OutboxRow.game_id),
                col(OutboxRow.version),
                col(OutboxRow.seq),
                col(OutboxRow.payload),
                col(OutboxRow.created_at),
                col(GameRow.platform),
                col(GameRow.channel_id),
                col(GameRow.finished_at),
            )
            .join(GameRow, col(GameRow.id) == col(OutboxRow.game_id))
            .where(col(OutboxRow.delivered_at).is_(None))
        )
        if after is not None:
            query = query.where(key > tuple_(*after))
        if platform is not None:
            query = query.where(col(GameRow.platform) == platform)
        if game_id is not None:
            query = query.where(col(OutboxRow.game_id) == game_id)
        if older_than is not None:
            query = query.where(col(OutboxRow.created_at) < now - older_than)
        if younger_than is not None:
            query = query.where(col(OutboxRow.created_at) >= now - younger_than)
        if claimed is not None:
            query = query.where(
                col(OutboxRow.owner) == claimed[0], col(OutboxRow.lease_until) == claimed[1]
            )
        query = query.order_by(
            col(OutboxRow.game_id), col(OutboxRow.version), col(OutboxRow.seq)
        ).limit(size)
        async with self._db.sessions() as session:
            rows = (await session.execute(query)).all()
        return [
            OutboxEntry(
                key=outbox_key(game, version, seq),
                game_id=game,
                version=version,
                seq=seq,
                platform=platform_,
                channel_id=channel_id,
                payload=dict(payload),
                created_at=created_at,
                game_finished=finished_at is not None,
            )
            for game, version, seq, payload, created_at, platform_, channel_id, finished_at in rows
        ]

    async def prune(
        self,
        *,
        delivered_for: timedelta = timedelta(hours=1),
        undelivered_for: timedelta = timedelta(days=2),
        now: datetime | None = None,
    ) -> int:
        """Delete entries delivered more than ``delivered_for`` ago, and entries that could
        not be delivered for ``undelivered_for`` (a channel the bot lost); the count deleted."""
        now = now or utcnow()
        async with self._db.transaction() as session:
            result = await session.execute(
                delete(OutboxRow).where(
                    or_(
                        and_(
                            col(OutboxRow.delivered_at).is_not(None),
                            col(OutboxRow.delivered_at) < now - delivered_for,
                        ),
                        col(OutboxRow.created_at) < now - undelivered_for,
                    )
                )
            )
            return int(getattr(result, "rowcount", 0) or 0)
