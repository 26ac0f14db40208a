"""Skill ratings: the rows, the update a finished game makes in its own transaction, the
replay that rates stored history (the migration, and a channel that turns out to belong to a
server), and the reads the ladder and ``stats`` show.

Ratings live per platform and *scope*: a server (``server:<id>``, a Discord guild, once the
adapter said which guild a channel is in) or a channel on its own (``channel:<id>``, a
Telegram group). Every finished game takes its scope's lock row (``rating_scope``) before it
reads the ratings it updates, so two processes finishing games at once apply them one after
the other, and each game gets the next number of its scope (``seq``): the history replays in
that order to the same ratings. The model itself is in ``storage.skill``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import Column, Float, Index, delete, insert, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import Field, col

import storage.skill as skill
from storage.models import GameRow, StorageModel, UTCDateTime, utcnow
from storage.skill import Entrant, FinishedGame, Skill, Update

if TYPE_CHECKING:
    from storage.connection import Connection


class RatingRow(StorageModel, table=True):
    """One rating: a person's, or an AI level's (per edition), in one scope."""

    __tablename__: ClassVar[str] = "rating"

    platform: str = Field(primary_key=True, max_length=32)
    scope: str = Field(primary_key=True, max_length=160)
    entity: str = Field(primary_key=True, max_length=200)
    kind: str = Field(max_length=16)
    name: str = Field(max_length=200)
    mu: float = Field(sa_column=Column(Float, nullable=False))
    sigma: float = Field(sa_column=Column(Float, nullable=False))
    games: int = Field(default=0)
    wins: int = Field(default=0)
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class RatingEventRow(StorageModel, table=True):
    """One seat of one rated game: where it finished, and its rating before and after."""

    __tablename__: ClassVar[str] = "rating_event"

    game_id: int = Field(primary_key=True)
    seat: int = Field(primary_key=True)
    platform: str = Field(max_length=32)
    scope: str = Field(max_length=160)
    seq: int  # the game's number among the rated games of its scope
    entity: str = Field(max_length=200)
    kind: str = Field(max_length=16)
    name: str = Field(max_length=200)
    place: int
    seats: int
    mu_before: float = Field(sa_column=Column(Float, nullable=False))
    sigma_before: float = Field(sa_column=Column(Float, nullable=False))
    mu: float = Field(sa_column=Column(Float, nullable=False))
    sigma: float = Field(sa_column=Column(Float, nullable=False))
    finished_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))

    __table_args__ = (
        Index(None, "platform", "scope", "entity", "seq"),
        Index(None, "platform", "scope", "seq"),
    )


class RatingScopeRow(StorageModel, table=True):
    """A scope's lock row and the count of games rated in it (the next game's ``seq``)."""

    __tablename__: ClassVar[str] = "rating_scope"

    platform: str = Field(primary_key=True, max_length=32)
    scope: str = Field(primary_key=True, max_length=160)
    games: int = Field(default=0)
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class ChannelServerRow(StorageModel, table=True):
    """The server a channel belongs to, as its platform adapter reported it."""

    __tablename__: ClassVar[str] = "channel_server"

    platform: str = Field(primary_key=True, max_length=32)
    channel_id: str = Field(primary_key=True, max_length=128)
    server: str = Field(max_length=128)
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


def channel_scope(channel_id: str) -> str:
    return f"channel:{channel_id}"


def server_scope(server: str) -> str:
    return f"server:{server}"


# ----- the live update (inside ``GameRepository.finish``) -------------------------------------


def _insert(dialect: str) -> Any:
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert


async def _scope_of(session: AsyncSession, platform: str, channel_id: str) -> str:
    server = await session.scalar(
        select(col(ChannelServerRow.server)).where(
            col(ChannelServerRow.platform) == platform,
            col(ChannelServerRow.channel_id) == str(channel_id),
        )
    )
    return server_scope(server) if server else channel_scope(str(channel_id))


async def _lock_scope(
    session: AsyncSession, dialect: str, platform: str, scope: str
) -> RatingScopeRow:
    """The scope's row, locked until the transaction ends (PostgreSQL: FOR UPDATE; SQLite
    has one writer at a time anyway)."""
    table = RatingScopeRow.__table__  # type: ignore[attr-defined]
    await session.execute(
        _insert(dialect)(table)
        .values(platform=platform, scope=scope, games=0, updated_at=utcnow())
        .on_conflict_do_nothing(index_elements=[table.c.platform, table.c.scope])
    )
    row = (
        await session.execute(
            select(RatingScopeRow)
            .where(col(RatingScopeRow.platform) == platform, col(RatingScopeRow.scope) == scope)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).scalar_one()
    return row


async def record_game(session: AsyncSession, dialect: str, game: GameRow) -> None:
    """Rate a finished game (``game.result`` holds its result) in the caller's transaction:
    the scope's lock, every seat's rating read, updated and written, one event per seat."""
    if not isinstance(game.result, dict) or "text" not in game.result or game.id is None:
        return
    finished = FinishedGame(game.id, "", game.seats, game.setup, str(game.result["text"]))
    try:
        players = skill.game_entrants(finished)
    except ValueError:  # not a result of ours (a hand-made record): the game is not rated
        return
    scope = await _scope_of(session, game.platform, game.channel_id)
    lock = await _lock_scope(session, dialect, game.platform, scope)
    # A server learned while we waited for the lock moves the channel's games: rate there.
    now_scope = await _scope_of(session, game.platform, game.channel_id)
    if now_scope != scope:
        scope = now_scope
        lock = await _lock_scope(session, dialect, game.platform, scope)
    rows = {
        row.entity: row
        for row in (
            await session.execute(
                select(RatingRow).where(
                    col(RatingRow.platform) == game.platform,
                    col(RatingRow.scope) == scope,
                    col(RatingRow.entity).in_(sorted({p.entity for p in players})),
                )
            )
        ).scalars()
    }
    priors = {entity: Skill(row.mu, row.sigma) for entity, row in rows.items()}
    updates = skill.rate(players, priors)
    if not updates:
        return
    lock.games += 1
    lock.updated_at = utcnow()
    when = game.finished_at or utcnow()
    for entity, update in updates.items():
        mine = [p for p in players if p.entity == entity]
        row = rows.get(entity)
        if row is None:
            row = RatingRow(
                platform=game.platform,
                scope=scope,
                entity=entity,
                kind=mine[0].kind,
                name=mine[0].name,
                mu=update.after.mu,
                sigma=update.after.sigma,
                updated_at=when,
            )
            session.add(row)
        row.name = mine[0].name or row.name
        row.mu, row.sigma = update.after.mu, update.after.sigma
        row.games += 1
        row.wins += int(update.won)
        row.updated_at = when
    session.add_all(
        RatingEventRow(**values)
        for values in _event_values(
            game.platform, scope, lock.games, players, updates, when, game.id
        )
    )
    await session.flush()


def _event_values(
    platform: str,
    scope: str,
    seq: int,
    players: Sequence[Entrant],
    updates: dict[str, Update],
    when: datetime,
    game_id: int,
) -> list[dict[str, Any]]:
    out = []
    for player in players:
        update = updates[player.entity]
        out.append(
            {
                "game_id": game_id,
                "seat": player.seat,
                "platform": platform,
                "scope": scope,
                "seq": seq,
                "entity": player.entity,
                "kind": player.kind,
                "name": player.name,
                "place": player.place,
                "seats": len(players),
                "mu_before": update.before.mu,
                "sigma_before": update.before.sigma,
                "mu": update.after.mu,
                "sigma": update.after.sigma,
                "finished_at": when,
            }
        )
    return out


# ----- rating stored history (the migration; a channel joining its server) --------------------


@dataclass(frozen=True, slots=True)
class StoredFinish:
    """A finished game as the replay reads it from the ``game`` table."""

    game_id: int
    platform: str
    channel_id: str
    seats: Sequence[dict[str, Any]]
    setup: str
    result: Any
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class ReplayRows:
    """What rating a history from nothing writes: the rows of ``rating``, ``rating_event``
    and ``rating_scope``, as column values."""

    ratings: list[dict[str, Any]]
    events: list[dict[str, Any]]
    scopes: list[dict[str, Any]]


def replay_rows(
    games: Iterable[StoredFinish], scope_of: dict[tuple[str, str], str] | None = None
) -> ReplayRows:
    """Rate ``games`` (finished ones, in the order they finished) from nothing, each in its
    channel's scope (``scope_of``: (platform, channel) -> scope; else the channel's own)."""
    scopes = scope_of or {}
    ratings: dict[tuple[str, str, str], dict[str, Any]] = {}
    counts: dict[tuple[str, str], int] = {}
    events: list[dict[str, Any]] = []
    for stored in games:
        if not isinstance(stored.result, dict) or "text" not in stored.result:
            continue
        platform = stored.platform
        scope = scopes.get((platform, stored.channel_id), channel_scope(stored.channel_id))
        finished = FinishedGame(
            stored.game_id, scope, stored.seats, stored.setup, str(stored.result["text"])
        )
        try:
            players = skill.game_entrants(finished)
        except ValueError:  # a result the ratings cannot read: that game is not rated
            continue
        priors = {
            p.entity: Skill(r["mu"], r["sigma"])
            for p in players
            if (r := ratings.get((platform, scope, p.entity))) is not None
        }
        updates = skill.rate(players, priors)
        if not updates:
            continue
        seq = counts[(platform, scope)] = counts.get((platform, scope), 0) + 1
        when = stored.finished_at
        for entity, update in updates.items():
            mine = [p for p in players if p.entity == entity]
            row = ratings.setdefault(
                (platform, scope, entity),
                {
                    "platform": platform,
                    "scope": scope,
                    "entity": entity,
                    "kind": mine[0].kind,
                    "name": mine[0].name,
                    "games": 0,
                    "wins": 0,
                },
            )
            row["name"] = mine[0].name or row["name"]
            row["mu"], row["sigma"] = update.after.mu, update.after.sigma
            row["games"] += 1
            row["wins"] += int(update.won)
            row["updated_at"] = when
        events += _event_values(platform, scope, seq, players, updates, when, stored.game_id)
    scope_rows = [
        {"platform": p, "scope": s, "games": n, "updated_at": utcnow()}
        for (p, s), n in counts.items()
    ]
    return ReplayRows(list(ratings.values()), events, scope_rows)


def _finished_games_query(platform: str | None = None, channels: Sequence[str] = ()) -> Any:
    game = GameRow.__table__  # type: ignore[attr-defined]
    query = select(
        game.c.id,
        game.c.platform,
        game.c.channel_id,
        game.c.seats,
        game.c.setup,
        game.c.result,
        game.c.finished_at,
    ).where(game.c.status == "finished", game.c.finished_at.is_not(None))
    if platform is not None:
        query = query.where(game.c.platform == platform, game.c.channel_id.in_(list(channels)))
    return query.order_by(game.c.finished_at, game.c.id)


def _stored_finish(row: Any) -> StoredFinish:
    return StoredFinish(
        int(row.id),
        str(row.platform),
        str(row.channel_id),
        row.seats,
        str(row.setup),
        row.result,
        row.finished_at,
    )


def rate_history(connection: Any) -> int:
    """Rate every finished game stored so far, oldest first, each in its channel's own scope
    (the migration that adds ratings: no server is known yet). ``connection``: a synchronous
    SQLAlchemy connection. Returns the count of games rated."""
    games = [_stored_finish(row) for row in connection.execute(_finished_games_query())]
    rows = replay_rows(games)
    for statement, values in _inserts(rows):
        connection.execute(statement, values)
    return len({(e["platform"], e["scope"], e["seq"]) for e in rows.events})


def _inserts(rows: ReplayRows) -> list[tuple[Any, list[dict[str, Any]]]]:
    """The inserts that write ``rows``, as (statement, values) in chunks."""
    done = []
    tables: list[tuple[Any, list[dict[str, Any]]]] = [
        (RatingRow.__table__, rows.ratings),  # type: ignore[attr-defined]
        (RatingEventRow.__table__, rows.events),  # type: ignore[attr-defined]
        (RatingScopeRow.__table__, rows.scopes),  # type: ignore[attr-defined]
    ]
    for table, values in tables:
        for start in range(0, len(values), 500):
            done.append((insert(table), values[start : start + 500]))
    return done


# ----- a channel joining its server -------------------------------------------------------------


async def scope_of(db: Connection, platform: str, channel_id: str) -> str:
    """The scope a channel's games are rated in: its server's, or its own."""
    async with db.sessions() as session:
        return await _scope_of(session, platform, channel_id)


async def link(db: Connection, platform: str, channel_id: str, server: str) -> bool:
    """Note that ``channel_id`` belongs to ``server``. The first time, any games rated in the
    channel's own scope (before the server was known) move to the server's: the server's
    history is rated again, in the order its games finished. True when it changed."""
    channel_id, server = str(channel_id), str(server)
    async with db.sessions() as session:
        known = await session.get(ChannelServerRow, (platform, channel_id))
        if known is not None and known.server == server:
            return False
    async with db.transaction() as session:
        target, own = server_scope(server), channel_scope(channel_id)
        for scope in sorted((own, target)):  # both locks, in one order for everyone
            await _lock_scope(session, db.dialect, platform, scope)
        known = await session.get(ChannelServerRow, (platform, channel_id))
        if known is not None and known.server == server:
            return False
        if known is None:
            known = ChannelServerRow(
                platform=platform, channel_id=channel_id, server=server, updated_at=utcnow()
            )
            session.add(known)
        known.server, known.updated_at = server, utcnow()
        await session.flush()
        moved = await session.scalar(
            select(col(RatingEventRow.seq))
            .where(col(RatingEventRow.platform) == platform, col(RatingEventRow.scope) == own)
            .limit(1)
        )
        if moved is not None:
            await _rebuild(session, platform, server, own)
        return True


async def _rebuild(session: AsyncSession, platform: str, server: str, own: str) -> None:
    """Rate the history of every channel of ``server`` again, from nothing (the caller holds
    the locks of the server's scope and of ``own``, the channel that just joined it)."""
    target = server_scope(server)
    channels = list(
        (
            await session.execute(
                select(col(ChannelServerRow.channel_id)).where(
                    col(ChannelServerRow.platform) == platform,
                    col(ChannelServerRow.server) == server,
                )
            )
        ).scalars()
    )
    for table in (RatingRow.__table__, RatingEventRow.__table__):  # type: ignore[attr-defined]
        await session.execute(
            delete(table).where(table.c.platform == platform, table.c.scope.in_([target, own]))
        )
    games = [
        _stored_finish(row)
        for row in await session.execute(_finished_games_query(platform, channels))
    ]
    rows = replay_rows(games, {(platform, c): target for c in channels})
    for lock_scope in (target, own):
        lock = await session.get(RatingScopeRow, (platform, lock_scope))
        assert lock is not None  # locked by the caller
        lock.games = next((s["games"] for s in rows.scopes if s["scope"] == lock_scope), 0)
    await session.flush()
    for statement, values in _inserts(ReplayRows(rows.ratings, rows.events, [])):
        await session.execute(statement, values)
