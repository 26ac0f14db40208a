"""Per-channel player statistics: the leaderboard, kept up to date by finished games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import case
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from storage.models import GameRow, PlayerStatRow, utcnow
from storage.records import LeaderboardEntry, PlayerRecord, Seat

if TYPE_CHECKING:
    from storage.connection import Connection


def _insert(dialect: str) -> Any:
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert


async def _add(
    session: AsyncSession,
    dialect: str,
    platform: str,
    channel_id: str,
    seat: Seat,
    *,
    games_played: int = 0,
    games_won: int = 0,
    score: int | None = None,
    matches_played: int = 0,
    matches_won: int = 0,
) -> None:
    """Add to one player's totals with a single atomic upsert (safe with concurrent writers)."""
    table = PlayerStatRow.__table__  # type: ignore[attr-defined]
    statement = _insert(dialect)(table).values(
        platform=platform,
        channel_id=channel_id,
        user_id=seat.player_id,
        display_name=seat.name,
        games_played=games_played,
        games_won=games_won,
        total_score=score or 0,
        best_score=score,
        matches_played=matches_played,
        matches_won=matches_won,
        updated_at=utcnow(),
    )
    new = statement.excluded
    statement = statement.on_conflict_do_update(
        index_elements=[table.c.platform, table.c.channel_id, table.c.user_id],
        set_={
            "display_name": new.display_name,
            "games_played": table.c.games_played + new.games_played,
            "games_won": table.c.games_won + new.games_won,
            "total_score": table.c.total_score + new.total_score,
            "best_score": case(
                (new.best_score.is_(None), table.c.best_score),
                (table.c.best_score.is_(None), new.best_score),
                (new.best_score > table.c.best_score, new.best_score),
                else_=table.c.best_score,
            ),
            "matches_played": table.c.matches_played + new.matches_played,
            "matches_won": table.c.matches_won + new.matches_won,
            "updated_at": new.updated_at,
        },
    )
    await session.execute(statement)


async def record_game(
    session: AsyncSession,
    dialect: str,
    platform: str,
    channel_id: str,
    seats: Sequence[Seat],
    scores: Sequence[int],
    winner: int | None,
) -> None:
    """Count a finished game for every human seat (AI seats are not on the leaderboard; a seat
    an AI plays while its person is away counts for that person)."""
    for index, (seat, score) in enumerate(zip(seats, scores, strict=True)):
        if not seat.counts_for_person:
            continue
        await _add(
            session,
            dialect,
            platform,
            channel_id,
            seat,
            games_played=1,
            games_won=int(index == winner),
            score=int(score),
        )


async def record_match(
    session: AsyncSession,
    dialect: str,
    platform: str,
    channel_id: str,
    players: Sequence[Seat],
    winner_ids: set[str],
) -> None:
    for seat in players:
        if not seat.counts_for_person:
            continue
        await _add(
            session,
            dialect,
            platform,
            channel_id,
            seat,
            matches_played=1,
            matches_won=int(seat.player_id in winner_ids),
        )


def _entry(row: PlayerStatRow) -> LeaderboardEntry:
    return LeaderboardEntry(
        player_id=row.user_id,
        name=row.display_name,
        games_played=row.games_played,
        games_won=row.games_won,
        total_score=row.total_score,
        best_score=row.best_score,
        matches_played=row.matches_played,
        matches_won=row.matches_won,
    )


class StatsRepository:
    """Reads the statistics that ``GameRepository.finish`` writes."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def leaderboard(
        self, platform: str, channel_id: str, *, limit: int = 10
    ) -> list[LeaderboardEntry]:
        """Most games won first, then highest total score, then name."""
        async with self._db.sessions() as session:
            rows = (
                await session.execute(
                    select(PlayerStatRow)
                    .where(
                        col(PlayerStatRow.platform) == platform,
                        col(PlayerStatRow.channel_id) == str(channel_id),
                    )
                    .order_by(
                        col(PlayerStatRow.games_won).desc(),
                        col(PlayerStatRow.total_score).desc(),
                        col(PlayerStatRow.display_name),
                    )
                    .limit(limit)
                )
            ).scalars()
            return [_entry(row) for row in rows]

    async def player(
        self, platform: str, channel_id: str, player_id: str
    ) -> LeaderboardEntry | None:
        async with self._db.sessions() as session:
            row = await session.get(PlayerStatRow, (platform, str(channel_id), player_id))
            return None if row is None else _entry(row)

    async def across_channels(
        self, platform: str, channel_ids: Sequence[str], player_id: str
    ) -> PlayerRecord | None:
        """A player's totals over ``channel_ids`` (e.g. every channel of a Discord server, as
        the adapter knows them), or None if they finished no game there."""
        ids = sorted({str(c) for c in channel_ids})
        if not ids:
            return None
        async with self._db.sessions() as session:
            rows = list(
                (
                    await session.execute(
                        select(PlayerStatRow).where(
                            col(PlayerStatRow.platform) == platform,
                            col(PlayerStatRow.channel_id).in_(ids),
                            col(PlayerStatRow.user_id) == player_id,
                        )
                    )
                ).scalars()
            )
            if not rows:
                return None
            best = max((r.best_score for r in rows if r.best_score is not None), default=None)
            best_game = (
                await _best_game(session, platform, ids, player_id, best)
                if best is not None
                else None
            )
        newest = max(rows, key=lambda r: r.updated_at)
        return PlayerRecord(
            player_id=player_id,
            name=newest.display_name,
            channels=len(rows),
            games_played=sum(r.games_played for r in rows),
            games_won=sum(r.games_won for r in rows),
            total_score=sum(r.total_score for r in rows),
            best_score=best,
            matches_played=sum(r.matches_played for r in rows),
            matches_won=sum(r.matches_won for r in rows),
            best_game_id=best_game[0] if best_game else None,
            best_game_at=best_game[1] if best_game else None,
        )


async def _best_game(
    session: AsyncSession, platform: str, ids: Sequence[str], player_id: str, score: int
) -> tuple[int, Any] | None:
    """The newest finished game in ``ids`` where ``player_id`` scored ``score``."""
    from engine.scoring import GameResult

    result = await session.execute(
        select(col(GameRow.id), col(GameRow.seats), col(GameRow.result), col(GameRow.finished_at))
        .where(
            col(GameRow.platform) == platform,
            col(GameRow.channel_id).in_(ids),
            col(GameRow.finished_at).is_not(None),
        )
        .order_by(col(GameRow.finished_at).desc(), col(GameRow.id).desc())
    )
    for game_id, seats, outcome, finished_at in result:
        if not isinstance(outcome, dict) or "text" not in outcome:
            continue
        seat = next((i for i, s in enumerate(seats) if str(s.get("player_id")) == player_id), None)
        if seat is None or seat >= len(scores := GameResult.from_text(outcome["text"]).scores):
            continue
        if scores[seat] == score:
            return int(game_id), finished_at
    return None
