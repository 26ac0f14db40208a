"""What the ladder and ``stats`` read of the ratings (``storage.ratings`` writes them): a
scope's ladder with trends, one rating with its rank, its history, and how a person did
against each AI level. Every read returns frozen records."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

import storage.skill as skill
from storage.ratings import RatingEventRow, RatingRow, link, scope_of

if TYPE_CHECKING:
    from storage.connection import Connection

TREND_GAMES = 5  # the ladder's trend: the change over a rating's last five games
AI_ORDER = {"easy": 0, "medium": 1, "hard": 2}
AI_LEVELS_SHOWN = 12  # every AI level and edition a scope can have (3 levels x 2 editions)


@dataclass(frozen=True, slots=True)
class RatingEntry:
    """One rating as the ladder shows it: ``display`` (the conservative value it ranks by),
    ``trend`` (its change over its last games), ``rank`` among the people of the scope (AI
    levels have none)."""

    entity: str
    kind: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    trend: int = 0
    rank: int | None = None

    @property
    def display(self) -> int:
        return skill.display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < skill.PROVISIONAL_GAMES

    @property
    def is_ai(self) -> bool:
        return self.kind == skill.AI

    @property
    def key(self) -> str:
        """A person's user id; an AI level's ``level:edition``."""
        return self.entity.split(":", 1)[1]


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A rating after one game: the points of the history line."""

    seq: int
    game_id: int
    display: int
    before: int  # the display value before the game
    place: int
    seats: int
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class AgainstAi:
    """How a person did in the games they played with one AI level (and edition): the games,
    how often they finished ahead of every seat of that level, and their best place there
    (``best_place`` of ``best_of`` seats)."""

    level: str
    edition: str
    games: int
    ahead: int
    best_place: int
    best_of: int


def _entry(row: RatingRow) -> RatingEntry:
    return RatingEntry(row.entity, row.kind, row.name, row.mu, row.sigma, row.games, row.wins)


def _conservative() -> Any:
    return col(RatingRow.mu) - skill.Z * col(RatingRow.sigma)


class RatingRepository:
    """Reads ratings; learns which server a channel belongs to (``link``)."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def scope_of(self, platform: str, channel_id: str) -> str:
        """The scope a channel's games are rated in: its server's, or its own."""
        return await scope_of(self._db, platform, channel_id)

    async def link(self, platform: str, channel_id: str, server: str) -> bool:
        """Note the server of a channel (its older games move there); see ``ratings.link``."""
        return await link(self._db, platform, channel_id, server)

    async def ladder(self, platform: str, scope: str, *, limit: int = 10) -> list[RatingEntry]:
        """The ``limit`` best people of a scope by display value, ranked 1, 2, ..., with the
        AI levels standing among them unranked (every level played there), each with its
        trend."""
        async with self._db.sessions() as session:
            rows: list[RatingRow] = []
            for kind, most in ((skill.PERSON, limit), (skill.AI, AI_LEVELS_SHOWN)):
                rows += (
                    await session.execute(
                        select(RatingRow)
                        .where(
                            col(RatingRow.platform) == platform,
                            col(RatingRow.scope) == scope,
                            col(RatingRow.kind) == kind,
                        )
                        .order_by(_conservative().desc(), col(RatingRow.entity))
                        .limit(most)
                    )
                ).scalars()
            rows.sort(key=lambda r: (-(r.mu - skill.Z * r.sigma), -r.games, r.name, r.entity))
            out = []
            rank = 0
            for row in rows:
                person = row.kind == skill.PERSON
                rank += int(person)
                trend = await _trend(session, row)
                out.append(replace(_entry(row), trend=trend, rank=rank if person else None))
            return out

    async def entry(self, platform: str, scope: str, entity: str) -> RatingEntry | None:
        """One rating, with its trend and (a person's) rank among the scope's people."""
        async with self._db.sessions() as session:
            row = await session.get(RatingRow, (platform, scope, entity))
            if row is None:
                return None
            trend = await _trend(session, row)
            rank = None
            if row.kind == skill.PERSON:
                better = await session.scalar(
                    select(func.count()).where(
                        col(RatingRow.platform) == platform,
                        col(RatingRow.scope) == scope,
                        col(RatingRow.kind) == skill.PERSON,
                        _conservative() > row.mu - skill.Z * row.sigma,
                    )
                )
                rank = int(better or 0) + 1
            return replace(_entry(row), trend=trend, rank=rank)

    async def people(self, platform: str, scope: str) -> int:
        """How many people have a rating in the scope."""
        async with self._db.sessions() as session:
            found = await session.scalar(
                select(func.count()).where(
                    col(RatingRow.platform) == platform,
                    col(RatingRow.scope) == scope,
                    col(RatingRow.kind) == skill.PERSON,
                )
            )
            return int(found or 0)

    async def history(
        self, platform: str, scope: str, entity: str, *, limit: int = 60
    ) -> list[RatingPoint]:
        """The rating after each of the entity's last ``limit`` games, oldest first."""
        async with self._db.sessions() as session:
            rows = (
                await session.execute(
                    select(RatingEventRow)
                    .where(
                        col(RatingEventRow.platform) == platform,
                        col(RatingEventRow.scope) == scope,
                        col(RatingEventRow.entity) == entity,
                    )
                    .order_by(col(RatingEventRow.seq).desc(), col(RatingEventRow.seat))
                    .limit(limit)
                )
            ).scalars()
            points: dict[int, RatingPoint] = {}
            for row in rows:
                if row.seq not in points:  # the same entity twice in a game: two AI seats
                    points[row.seq] = RatingPoint(
                        row.seq,
                        row.game_id,
                        skill.display(row.mu, row.sigma),
                        skill.display(row.mu_before, row.sigma_before),
                        row.place,
                        row.seats,
                        row.finished_at,
                    )
            return sorted(points.values(), key=lambda p: p.seq)

    async def against_ai(self, platform: str, scope: str, entity: str) -> list[AgainstAi]:
        """For each AI level (and edition) a person met in the scope: games, finishes ahead
        of it, and their best place in those games; easy, medium, hard."""
        async with self._db.sessions() as session:
            mine = {
                row.game_id: row
                for row in (
                    await session.execute(
                        select(RatingEventRow).where(
                            col(RatingEventRow.platform) == platform,
                            col(RatingEventRow.scope) == scope,
                            col(RatingEventRow.entity) == entity,
                        )
                    )
                ).scalars()
            }
            met: dict[str, dict[int, list[int]]] = {}
            ids = sorted(mine)
            for start in range(0, len(ids), 500):
                for ai in (
                    await session.execute(
                        select(RatingEventRow).where(
                            col(RatingEventRow.game_id).in_(ids[start : start + 500]),
                            col(RatingEventRow.kind) == skill.AI,
                        )
                    )
                ).scalars():
                    met.setdefault(ai.entity, {}).setdefault(ai.game_id, []).append(ai.place)
        out = []
        for ai_entity, games in met.items():
            _, level, edition = ai_entity.split(":", 2)
            best = min((mine[g] for g in games), key=lambda e: (e.place, -e.seats))
            ahead = sum(1 for g, places in games.items() if mine[g].place < min(places))
            out.append(AgainstAi(level, edition, len(games), ahead, best.place, best.seats))
        return sorted(out, key=lambda a: (AI_ORDER.get(a.level, 9), a.level, a.edition))


async def _trend(session: AsyncSession, row: RatingRow) -> int:
    """The change of a rating's display value over its last ``TREND_GAMES`` games."""
    rows = (
        await session.execute(
            select(
                col(RatingEventRow.seq),
                col(RatingEventRow.mu_before),
                col(RatingEventRow.sigma_before),
            )
            .where(
                col(RatingEventRow.platform) == row.platform,
                col(RatingEventRow.scope) == row.scope,
                col(RatingEventRow.entity) == row.entity,
            )
            .order_by(col(RatingEventRow.seq).desc())
            .limit(TREND_GAMES * 6)  # an entity may sit twice in a game (AI seats)
        )
    ).all()
    seen: list[tuple[float, float]] = []
    last_seq = None
    for seq, mu, sigma in rows:
        if seq != last_seq:
            seen.append((mu, sigma))
            last_seq = seq
        if len(seen) == TREND_GAMES:
            break
    if not seen:
        return 0
    mu, sigma = seen[-1]
    return skill.display(row.mu, row.sigma) - skill.display(mu, sigma)
