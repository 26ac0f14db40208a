"""Matches: several games by the same players in one channel, with per-game results."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import col, select

from storage.errors import ConflictError, NotFoundError
from storage.models import GameRow, MatchGameRow, MatchRow, utcnow
from storage.records import MatchGameResult, Seat, Standing, StoredMatch
from storage.stats import record_match

if TYPE_CHECKING:
    from storage.connection import Connection


def standings_of(players: Sequence[Seat], results: Sequence[MatchGameResult]) -> list[Standing]:
    """Most games won first, total score breaks ties (the official match rule)."""
    wins = [0] * len(players)
    totals = [0] * len(players)
    for result in results:
        if result.winner is not None:
            wins[result.winner] += 1
        for index, score in enumerate(result.scores):
            totals[index] += score
    order = sorted(range(len(players)), key=lambda i: (-wins[i], -totals[i], i))
    return [
        Standing(players[i].player_id, players[i].name, games_won=wins[i], total_score=totals[i])
        for i in order
    ]


def _result(row: MatchGameRow) -> MatchGameResult:
    return MatchGameResult(
        game_index=row.game_index,
        game_id=row.game_id,
        scores=tuple(row.scores),
        winner=row.winner,
        finished_at=row.finished_at,
    )


async def _results_of(session: AsyncSession, match_id: int) -> list[MatchGameResult]:
    rows = (
        await session.execute(
            select(MatchGameRow)
            .where(col(MatchGameRow.match_id) == match_id)
            .order_by(col(MatchGameRow.game_index))
        )
    ).scalars()
    return [_result(row) for row in rows]


def _to_record(row: MatchRow, results: Sequence[MatchGameResult]) -> StoredMatch:
    assert row.id is not None
    players = tuple(Seat.from_json(p) for p in row.players)
    return StoredMatch(
        id=row.id,
        platform=row.platform,
        channel_id=row.channel_id,
        players=players,
        games_planned=row.games_planned,
        games_played=row.games_played,
        results=tuple(results),
        standings=tuple(
            Standing(s["player_id"], s["name"], s["games_won"], s["total_score"])
            for s in row.standings
        ),
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
    )


async def record_game(
    session: AsyncSession,
    dialect: str,
    match: MatchRow,
    game: GameRow,
    seats: Sequence[Seat],
    scores: Sequence[int],
    winner: int | None,
    now: datetime,
) -> None:
    """Add a finished game's result to its match (part of the game's finishing transaction)."""
    assert match.id is not None
    players = [Seat.from_json(p) for p in match.players]
    seat_of = {seat.player_id: index for index, seat in enumerate(seats)}
    missing = [p.name for p in players if p.player_id not in seat_of]
    if missing:
        raise ValueError(f"Game {game.id} has no seat for match player(s) {', '.join(missing)}.")
    match_scores = [int(scores[seat_of[p.player_id]]) for p in players]
    match_winner = None
    if winner is not None:
        winner_id = seats[winner].player_id
        match_winner = next(i for i, p in enumerate(players) if p.player_id == winner_id)
    game_index = game.game_index if game.game_index is not None else match.games_played
    session.add(
        MatchGameRow(
            match_id=match.id,
            game_index=game_index,
            game_id=game.id,
            scores=match_scores,
            winner=match_winner,
            finished_at=now,
        )
    )
    await session.flush()
    results = await _results_of(session, match.id)
    standings = standings_of(players, results)
    match.games_played = len(results)
    match.standings = [
        {
            "player_id": s.player_id,
            "name": s.name,
            "games_won": s.games_won,
            "total_score": s.total_score,
        }
        for s in standings
    ]
    match.updated_at = now
    if match.games_played >= match.games_planned:
        match.finished_at = now
        record = _to_record(match, results)
        winners = {s.player_id for s in record.winners}
        await record_match(session, dialect, match.platform, match.channel_id, players, winners)
    try:
        await session.flush()
    except StaleDataError as exc:
        raise ConflictError(
            f"Match {match.id} changed while a game result was being saved."
        ) from exc


async def update_roster(session: AsyncSession, match: MatchRow, seats: Sequence[Seat]) -> None:
    """The match roster as it stands: a seat that changed hands keeps its player's id, so only
    who plays it (and why) changes (part of the saving game's transaction)."""
    players = [Seat.from_json(p) for p in match.players]
    if [p.player_id for p in players] != [s.player_id for s in seats]:
        raise ValueError(f"Match {match.id}: seats {seats} do not belong to its roster.")
    match.players = [s.to_json() for s in seats]
    match.updated_at = utcnow()
    try:
        await session.flush()
    except StaleDataError as exc:
        raise ConflictError(f"Match {match.id} changed while its roster was being saved.") from exc


class MatchRepository:
    """Matches are created here; games of a match record their results on ``finish``."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    async def create(
        self, *, platform: str, channel_id: str, players: Sequence[Seat], games_planned: int
    ) -> StoredMatch:
        if games_planned < 1:
            raise ValueError(f"A match needs at least one game, not {games_planned}.")
        now = utcnow()
        row = MatchRow(
            platform=platform,
            channel_id=str(channel_id),
            players=[p.to_json() for p in players],
            games_planned=games_planned,
            standings=[
                {"player_id": s.player_id, "name": s.name, "games_won": 0, "total_score": 0}
                for s in players
            ],
            created_at=now,
            updated_at=now,
        )
        async with self._db.transaction() as session:
            session.add(row)
        return _to_record(row, [])

    async def load(self, match_id: int) -> StoredMatch:
        async with self._db.sessions() as session:
            row = await session.get(MatchRow, match_id)
            if row is None:
                raise NotFoundError(f"Match {match_id} does not exist.")
            return _to_record(row, await _results_of(session, match_id))

    async def load_active(self, platform: str, channel_id: str) -> StoredMatch | None:
        """The channel's latest unfinished match, if any."""
        async with self._db.sessions() as session:
            row = (
                await session.execute(
                    select(MatchRow)
                    .where(
                        col(MatchRow.platform) == platform,
                        col(MatchRow.channel_id) == str(channel_id),
                        col(MatchRow.finished_at).is_(None),
                    )
                    .order_by(col(MatchRow.created_at).desc(), col(MatchRow.id).desc())
                    .limit(1)
                )
            ).scalar_one_or_none()
            if row is None:
                return None
            assert row.id is not None
            return _to_record(row, await _results_of(session, row.id))

    async def last_with_player(
        self, platform: str, channel_ids: Sequence[str], player_id: str, *, scan: int = 500
    ) -> StoredMatch | None:
        """The newest match in ``channel_ids`` (a server's or group's channels) with at least
        one finished game that ``player_id`` played in (a seat an AI played for them counts),
        finished or still going; looks through the ``scan`` newest matches there."""
        ids = sorted({str(c) for c in channel_ids})
        if not ids:
            return None
        async with self._db.sessions() as session:
            rows = (
                await session.execute(
                    select(MatchRow)
                    .where(
                        col(MatchRow.platform) == platform,
                        col(MatchRow.channel_id).in_(ids),
                        col(MatchRow.games_played) > 0,
                    )
                    .order_by(col(MatchRow.updated_at).desc(), col(MatchRow.id).desc())
                    .limit(scan)
                )
            ).scalars()
            for row in rows:
                seats = [Seat.from_json(p) for p in row.players]
                if any(s.player_id == player_id and s.counts_for_person for s in seats):
                    assert row.id is not None
                    return _to_record(row, await _results_of(session, row.id))
        return None

    async def close(self, match_id: int, *, expected_version: int) -> int:
        """End a match early (abandoned): no match win is counted. Returns the new version."""
        async with self._db.transaction() as session:
            row = await session.get(MatchRow, match_id)
            if row is None:
                raise NotFoundError(f"Match {match_id} does not exist.")
            if row.version != expected_version:
                raise ConflictError(
                    f"Match {match_id} is at version {row.version}, not {expected_version}.",
                    current_version=row.version,
                )
            if row.finished_at is not None:
                raise ConflictError(f"Match {match_id} is already finished.")
            row.finished_at = row.updated_at = utcnow()
            try:
                await session.flush()
            except StaleDataError as exc:
                raise ConflictError(f"Match {match_id} changed while it was being closed.") from exc
        return row.version
