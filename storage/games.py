"""Games: create, load, save a committed turn or a draft, finish (with scores), history."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import col, select

from storage.errors import ChannelBusyError, ConflictError, NotFoundError, StorageError
from storage.matches import record_game as record_match_game
from storage.matches import update_roster
from storage.models import GameActionRow, GameRow, MatchRow, utcnow
from storage.outbox import Lease, OutboxRepository, add_entries
from storage.ratings import record_game as record_rating_game
from storage.records import Seat, StoredGame
from storage.stats import record_game as record_stats_game

if TYPE_CHECKING:
    from storage.connection import Connection

_SEED_MIN, _SEED_MAX = -(2**63), 2**63 - 1


def _to_record(row: GameRow, actions: Sequence[str] | None) -> StoredGame:
    assert row.id is not None
    return StoredGame(
        id=row.id,
        platform=row.platform,
        channel_id=row.channel_id,
        seats=tuple(Seat.from_json(s) for s in row.seats),
        seed=row.seed,
        setup=row.setup,
        snapshot=row.snapshot,
        actions=None if actions is None else tuple(actions),
        action_count=row.action_count,
        draft=tuple(row.draft),
        status=row.status,
        turn=row.turn,
        deadline=row.deadline,
        result=row.result,
        version=row.version,
        match_id=row.match_id,
        game_index=row.game_index,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
    )


async def _actions_of(session: AsyncSession, row: GameRow) -> list[str]:
    """The log as of ``row``: entries are append-only, so ``seq < action_count`` is exactly the
    log that belongs to the snapshot read, even if a writer commits between the two queries."""
    assert row.id is not None
    result = await session.execute(
        select(col(GameActionRow.action))
        .where(
            col(GameActionRow.game_id) == row.id,
            col(GameActionRow.seq) < row.action_count,
        )
        .order_by(col(GameActionRow.seq))
    )
    return list(result.scalars())


def _add_action_rows(
    session: AsyncSession, game_id: int, start: int, actions: Sequence[str]
) -> None:
    session.add_all(
        GameActionRow(game_id=game_id, seq=start + i, action=str(action))
        for i, action in enumerate(actions)
    )


def _check_deadline(deadline: datetime | None) -> None:
    if deadline is not None and deadline.tzinfo is None:
        raise ValueError(f"Deadline {deadline.isoformat()} has no timezone; pass an aware one.")


class _Write:
    """A game row being changed, and the actions to append once its UPDATE succeeded."""

    def __init__(self, session: AsyncSession, row: GameRow) -> None:
        self.session = session
        self.row = row
        self.first_new_seq = row.action_count
        self.new_actions: list[str] = []
        self.outbox: list[dict[str, Any]] = []

    def append(self, actions: Sequence[str]) -> None:
        self.new_actions.extend(str(a) for a in actions)
        self.row.action_count = self.first_new_seq + len(self.new_actions)


class GameRepository:
    """Every write takes the version the caller last saw and returns the new one.

    A stale version raises ``ConflictError`` and writes nothing, so two writers (two processes,
    or a retry racing the original) can never lose each other's update.
    """

    def __init__(self, db: Connection, outbox: OutboxRepository | None = None) -> None:
        """``outbox``: whose the outbox entries written with turns are (``lease_to``)."""
        self._db = db
        self._outbox = outbox

    @property
    def _lease(self) -> Lease | None:
        return self._outbox.lease if self._outbox is not None else None

    async def create(
        self,
        *,
        platform: str,
        channel_id: str,
        seats: Sequence[Seat],
        seed: int,
        setup: str,
        snapshot: str,
        status: str = "active",
        turn: int = 0,
        deadline: datetime | None = None,
        actions: Sequence[str] = (),
        draft: Sequence[str] = (),
        match_id: int | None = None,
        game_index: int | None = None,
        announce: Sequence[dict[str, Any]] = (),
    ) -> StoredGame:
        """Store a new game. Raises ChannelBusyError if the channel has an unfinished game.
        ``announce``: the deal's outbox entries, stored with it (as for ``save_turn``)."""
        if not _SEED_MIN <= seed <= _SEED_MAX:
            raise ValueError(f"Seed {seed} does not fit in 64 signed bits.")
        _check_deadline(deadline)
        now = utcnow()
        row = GameRow(
            platform=platform,
            channel_id=str(channel_id),
            seats=[s.to_json() for s in seats],
            seed=seed,
            setup=setup,
            snapshot=snapshot,
            action_count=len(actions),
            draft=list(draft),
            status=status,
            turn=turn,
            deadline=deadline,
            match_id=match_id,
            game_index=game_index,
            created_at=now,
            updated_at=now,
        )
        try:
            async with self._db.transaction() as session:
                session.add(row)
                await session.flush()
                assert row.id is not None
                _add_action_rows(session, row.id, 0, actions)
                if announce:
                    add_entries(session, row.id, row.version, announce, self._lease)
                await session.flush()
        except IntegrityError as exc:
            if await self.load_active(platform, channel_id, with_actions=False) is not None:
                raise ChannelBusyError(
                    f"Channel {platform}:{channel_id} already has an unfinished game."
                ) from exc
            raise StorageError(
                f"Game for {platform}:{channel_id} was not stored: {exc.orig}."
            ) from exc
        return _to_record(row, list(actions))

    async def load(self, game_id: int, *, with_actions: bool = True) -> StoredGame:
        async with self._db.sessions() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                raise NotFoundError(f"Game {game_id} does not exist.")
            actions = await _actions_of(session, row) if with_actions else None
            return _to_record(row, actions)

    async def load_active(
        self, platform: str, channel_id: str, *, with_actions: bool = True
    ) -> StoredGame | None:
        """The channel's unfinished game, if any."""
        async with self._db.sessions() as session:
            row = (
                await session.execute(
                    select(GameRow).where(
                        col(GameRow.platform) == platform,
                        col(GameRow.channel_id) == str(channel_id),
                        col(GameRow.finished_at).is_(None),
                    )
                )
            ).scalar_one_or_none()
            if row is None:
                return None
            actions = await _actions_of(session, row) if with_actions else None
            return _to_record(row, actions)

    async def list_active(
        self, *, platform: str | None = None, with_actions: bool = False
    ) -> list[StoredGame]:
        """Every unfinished game (what a restarted bot resumes), oldest first."""
        async with self._db.sessions() as session:
            query = select(GameRow).where(col(GameRow.finished_at).is_(None))
            if platform is not None:
                query = query.where(col(GameRow.platform) == platform)
            rows = list((await session.execute(query.order_by(col(GameRow.id)))).scalars())
            if not with_actions:
                return [_to_record(row, None) for row in rows]
            counts = {row.id: row.action_count for row in rows if row.id is not None}
            logs: dict[int, list[str]] = defaultdict(list)
            ids = list(counts)
            for start in range(0, len(ids), 1000):
                result = await session.execute(
                    select(col(GameActionRow.game_id), col(GameActionRow.action))
                    .where(col(GameActionRow.game_id).in_(ids[start : start + 1000]))
                    .order_by(col(GameActionRow.game_id), col(GameActionRow.seq))
                )
                for game_id, action in result:
                    logs[game_id].append(action)
            return [_to_record(row, logs[row.id][: counts[row.id]]) for row in rows if row.id]

    async def history(
        self, platform: str, channel_id: str, *, limit: int = 20, finished_only: bool = False
    ) -> list[StoredGame]:
        """Ended games of a channel (finished or cancelled; with ``finished_only``, the ones
        played to their end), newest first (without their action logs)."""
        ended = [
            col(GameRow.platform) == platform,
            col(GameRow.channel_id) == str(channel_id),
            col(GameRow.finished_at).is_not(None),
        ]
        if finished_only:
            ended.append(col(GameRow.status) == "finished")
        async with self._db.sessions() as session:
            rows = (
                await session.execute(
                    select(GameRow)
                    .where(*ended)
                    .order_by(col(GameRow.finished_at).desc(), col(GameRow.id).desc())
                    .limit(limit)
                )
            ).scalars()
            return [_to_record(row, None) for row in rows]

    async def save_turn(
        self,
        game_id: int,
        *,
        expected_version: int,
        snapshot: str,
        new_actions: Sequence[str],
        deadline: datetime | None,
        draft: Sequence[str] = (),
        turn: int | None = None,
        status: str | None = None,
        seats: Sequence[Seat] | None = None,
        setup: str | None = None,
        announce: Sequence[dict[str, Any]] = (),
    ) -> int:
        """Store a committed turn; when this returns, the turn is durable. Returns the version.

        ``new_actions`` are the actions since the last save; they are appended to the log.
        ``seats`` (a seat changed hands) replaces the game's seats and, for a game of a match,
        the match roster in the same transaction; ``setup`` replaces the setup text.
        ``announce`` are the turn's outbox entries (JSON payloads), stored in the same
        transaction under the returned version (``storage.outbox``).
        """
        _check_deadline(deadline)
        async with self._write(game_id, expected_version) as write:
            row = write.row
            write.outbox.extend(announce)
            row.snapshot = snapshot
            write.append(new_actions)
            row.draft = list(draft)
            row.deadline = deadline
            if turn is not None:
                row.turn = turn
            if status is not None:
                row.status = status
            if setup is not None:
                row.setup = setup
            if seats is not None:
                if len(seats) != len(row.seats):
                    raise ValueError(
                        f"Game {game_id} has {len(row.seats)} seats, not {len(seats)}."
                    )
                row.seats = [s.to_json() for s in seats]
                if row.match_id is not None:
                    match = await write.session.get(MatchRow, row.match_id)
                    if match is not None and match.finished_at is None:
                        await update_roster(write.session, match, seats)
        return row.version

    async def stamp(self, game_id: int) -> tuple[int, bool] | None:
        """The stored version of a game and whether it is finished (one cheap read), or None
        when it does not exist: what a process compares with its copy before answering."""
        async with self._db.sessions() as session:
            result = await session.execute(
                select(col(GameRow.version), col(GameRow.finished_at)).where(
                    col(GameRow.id) == game_id
                )
            )
            found = result.first()
            if found is None:
                return None
            return int(found[0]), found[1] is not None

    async def save_draft(
        self,
        game_id: int,
        *,
        expected_version: int,
        draft: Sequence[str],
        announce: Sequence[dict[str, Any]] = (),
    ) -> int:
        """Store the current player's draft steps, so a restart mid-turn keeps them, with the
        outbox entries of what the step refreshes (``announce``, as for ``save_turn``)."""
        async with self._write(game_id, expected_version) as write:
            write.row.draft = list(draft)
            write.outbox.extend(announce)
        return write.row.version

    async def finish(
        self,
        game_id: int,
        *,
        expected_version: int,
        snapshot: str,
        new_actions: Sequence[str] = (),
        status: str = "finished",
        result: dict[str, Any] | None = None,
        scores: Sequence[int] | None = None,
        winner: int | None = None,
        announce: Sequence[dict[str, Any]] = (),
        close_match: bool = False,
    ) -> int:
        """End a game, in one transaction with everything that depends on it.

        With ``scores`` (one per seat, seat order) and ``winner`` (a seat index or None), the
        channel's player statistics are updated for human seats, every seat's skill rating
        from the final order in ``result`` (``storage.ratings``) and, if the game belongs to a
        match, the match records the result (and ends after its last planned game). Without
        scores (a cancelled game) only the game is closed, and with ``close_match`` its match
        too, ended early (no match win counted), in the same transaction, so a crash cannot
        leave the match open behind a cancelled game. ``announce``: as for ``save_turn``.
        """
        async with self._write(game_id, expected_version) as write:
            session, row = write.session, write.row
            write.outbox.extend(announce)
            seats = [Seat.from_json(s) for s in row.seats]
            if scores is not None and len(scores) != len(seats):
                raise ValueError(
                    f"Game {game_id} has {len(seats)} seats but got {len(scores)} scores."
                )
            if winner is not None and not 0 <= winner < len(seats):
                raise ValueError(f"Winner seat {winner} does not exist in game {game_id}.")
            now = utcnow()
            row.snapshot = snapshot
            write.append(new_actions)
            row.status = status
            row.result = result
            row.draft = []
            row.deadline = None
            row.finished_at = now
            if scores is not None:
                await record_stats_game(
                    session, self._db.dialect, row.platform, row.channel_id, seats, scores, winner
                )
                await record_rating_game(session, self._db.dialect, row)
                if row.match_id is not None:
                    match = await session.get(MatchRow, row.match_id)
                    if match is not None and match.finished_at is None:
                        await record_match_game(
                            session, self._db.dialect, match, row, seats, scores, winner, now
                        )
            elif close_match and row.match_id is not None:
                match = await session.get(MatchRow, row.match_id)
                if match is not None and match.finished_at is None:
                    match.finished_at = match.updated_at = now
        return row.version

    # -- the optimistic-locking write path ------------------------------------------------

    @asynccontextmanager
    async def _write(self, game_id: int, expected_version: int) -> AsyncIterator[_Write]:
        """Load the game at ``expected_version``, let the caller change it, save it.

        The UPDATE carries ``WHERE version = expected``; if another writer got in between the
        load and the UPDATE, no row matches, SQLAlchemy raises StaleDataError and the whole
        transaction is rolled back.
        """
        async with self._db.transaction() as session:
            row = await session.get(GameRow, game_id)
            if row is None:
                raise NotFoundError(f"Game {game_id} does not exist.")
            if row.version != expected_version:
                raise ConflictError(
                    f"Game {game_id} is at version {row.version}, not {expected_version}: "
                    "another writer saved it first.",
                    current_version=row.version,
                )
            if row.finished_at is not None:
                raise ConflictError(
                    f"Game {game_id} is already finished.", current_version=row.version
                )
            row.updated_at = utcnow()
            write = _Write(session, row)
            # The versioned UPDATE goes first (at the latest here; a query in the block may
            # autoflush it sooner): a stale writer fails there, before it inserts anything.
            try:
                yield write
                await session.flush()
            except StaleDataError as exc:
                raise ConflictError(
                    f"Game {game_id} changed while version {expected_version} was being saved: "
                    "another writer saved it first."
                ) from exc
            _add_action_rows(session, game_id, write.first_new_seq, write.new_actions)
            if write.outbox:  # written as the version just stored, in the same transaction
                add_entries(session, game_id, write.row.version, write.outbox, self._lease)
            await session.flush()
