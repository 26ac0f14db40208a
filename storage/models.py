"""SQLModel tables: the only place that says how games, matches, settings and stats are stored.

Game state is kept as the engine's own text forms (snapshot text, seed, action log, draft steps),
so storage needs no knowledge of the rules. Rows never leave this package: repositories turn
them into the frozen records of ``storage.records``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Text,
    TypeDecorator,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import declared_attr
from sqlmodel import Field, SQLModel

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC (what every timestamp column holds)."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that always comes back timezone-aware in UTC, on SQLite as on PostgreSQL.

    SQLite has no timezone support, so values are stored there as naive UTC.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"Timestamp {value.isoformat()} has no timezone; pass an aware one.")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class StorageModel(SQLModel):
    """Base for our tables, with its own metadata so constraint names are deterministic."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class _Versioned(StorageModel):
    """Optimistic locking: every UPDATE checks and bumps ``version`` (see STACK_NOTES)."""

    version: int = Field(default=1, nullable=False)

    @declared_attr.directive
    def __mapper_args__(cls) -> dict[str, Any]:
        return {"version_id_col": cls.__table__.c.version}  # type: ignore[attr-defined]


class MatchRow(_Versioned, table=True):
    """A match: several games in one channel by the same players."""

    __tablename__: ClassVar[str] = "match"

    id: int | None = Field(default=None, primary_key=True)
    platform: str = Field(max_length=32)
    channel_id: str = Field(max_length=128)
    players: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    games_planned: int
    games_played: int = Field(default=0)
    standings: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    finished_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))

    __table_args__ = (Index(None, "platform", "channel_id", "created_at"),)


class GameRow(_Versioned, table=True):
    """One game: its current snapshot, the draft of the turn in progress, and how it ends."""

    __tablename__: ClassVar[str] = "game"

    id: int | None = Field(default=None, primary_key=True)
    platform: str = Field(max_length=32)
    channel_id: str = Field(max_length=128)
    match_id: int | None = Field(
        default=None, sa_column=Column(ForeignKey("match.id", ondelete="SET NULL"))
    )
    game_index: int | None = Field(default=None)
    seats: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    setup: str = Field(sa_column=Column(Text, nullable=False))
    snapshot: str = Field(sa_column=Column(Text, nullable=False))
    action_count: int = Field(default=0)
    draft: list[str] = Field(sa_column=Column(JSON, nullable=False))
    status: str = Field(max_length=32)
    turn: int = Field(default=0)
    deadline: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    result: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    created_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    finished_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))

    __table_args__ = (
        # At most one unfinished game per channel, even with several bot processes.
        Index(
            "uq_game_active_channel",
            "platform",
            "channel_id",
            unique=True,
            sqlite_where=text("finished_at IS NULL"),
            postgresql_where=text("finished_at IS NULL"),
        ),
        Index(None, "platform", "channel_id", "finished_at"),
        Index(None, "finished_at", "deadline"),
    )


class GameActionRow(StorageModel, table=True):
    """The append-only action log: with the seed it replays a game exactly."""

    __tablename__: ClassVar[str] = "game_action"

    game_id: int = Field(
        sa_column=Column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    )
    seq: int = Field(primary_key=True)
    action: str = Field(sa_column=Column(Text, nullable=False))


class MatchGameRow(StorageModel, table=True):
    """The result of one game of a match."""

    __tablename__: ClassVar[str] = "match_game"

    match_id: int = Field(
        sa_column=Column(ForeignKey("match.id", ondelete="CASCADE"), primary_key=True)
    )
    game_index: int = Field(primary_key=True)
    game_id: int | None = Field(
        default=None, sa_column=Column(ForeignKey("game.id", ondelete="SET NULL"))
    )
    scores: list[int] = Field(sa_column=Column(JSON, nullable=False))
    winner: int | None = Field(default=None)
    finished_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class ChannelSettingsRow(_Versioned, table=True):
    """Per-channel settings; a channel without a row uses the defaults."""

    __tablename__: ClassVar[str] = "channel_settings"

    platform: str = Field(primary_key=True, max_length=32)
    channel_id: str = Field(primary_key=True, max_length=128)
    opening_threshold: int
    turn_seconds: int
    edition: str = Field(max_length=16)
    hints: bool
    language: str = Field(max_length=16)
    async_mode: bool
    match_games: int | None = Field(default=None)
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class PlayerStatRow(StorageModel, table=True):
    """Per-channel totals for one player, the leaderboard's source."""

    __tablename__: ClassVar[str] = "player_stat"

    platform: str = Field(primary_key=True, max_length=32)
    channel_id: str = Field(primary_key=True, max_length=128)
    user_id: str = Field(primary_key=True, max_length=128)
    display_name: str = Field(max_length=200)
    games_played: int = Field(default=0)
    games_won: int = Field(default=0)
    total_score: int = Field(default=0)
    best_score: int | None = Field(default=None)
    matches_played: int = Field(default=0)
    matches_won: int = Field(default=0)
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))

    __table_args__ = (Index(None, "platform", "channel_id", "games_won", "total_score"),)


TABLES = (MatchRow, GameRow, GameActionRow, MatchGameRow, ChannelSettingsRow, PlayerStatRow)
metadata = StorageModel.metadata


class LobbyRow(_Versioned, table=True):
    """A table still in its lobby (before the deal), so a restart keeps who sat down.
    ``version`` counts its writes: a write names the version it changed, so two processes
    changing one lobby at once cannot lose each other's change (as games are written)."""

    __tablename__: ClassVar[str] = "lobby"

    platform: str = Field(primary_key=True, max_length=32)
    channel_id: str = Field(primary_key=True, max_length=128)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class MessageSlotRow(StorageModel, table=True):
    """Which platform message shows a channel's lobby, table, or a player's rack or panel, so
    it is edited in place (found by id, after a restart too) rather than searched for."""

    __tablename__: ClassVar[str] = "message_slot"

    platform: str = Field(primary_key=True, max_length=32)
    channel_id: str = Field(primary_key=True, max_length=128)
    slot: str = Field(primary_key=True, max_length=32)
    owner: str = Field(primary_key=True, max_length=128)  # "" for the channel's own messages
    message_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    # A slot shown as several messages (Telegram: a photo, then text pieces) keeps them all,
    # with what each shows in short, to edit only what changed.
    parts: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSON))
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class DeadlineClaimRow(StorageModel, table=True):
    """Who acts on one deadline of one turn (a reminder, a timeout, a due AI move).

    Inserting the row is the claim, so with several processes exactly one wins it.
    ``expires_at`` NULL means done for good (a reminder sent); otherwise it is a lease that
    another process may take over once it expired (its owner died before acting).
    """

    __tablename__: ClassVar[str] = "deadline_claim"

    game_id: int = Field(
        sa_column=Column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    )
    turn: int = Field(primary_key=True)
    kind: str = Field(primary_key=True, max_length=16)
    owner: str = Field(max_length=200)
    expires_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


class PlayerLanguageRow(StorageModel, table=True):
    """A person's language for what the bot sends them privately: the one they chose with
    ``language me`` ("" when they follow their client) and the one their client last reported
    ("" unknown), so a restart keeps both."""

    __tablename__: ClassVar[str] = "player_language"

    platform: str = Field(primary_key=True, max_length=32)
    user_id: str = Field(primary_key=True, max_length=128)
    language: str = Field(default="", max_length=16)
    client: str = Field(default="", max_length=16)
    updated_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class OutboxRow(StorageModel, table=True):
    """One announcement (or one view to refresh) that a stored turn causes, written in the
    turn's own transaction and marked delivered once the platform accepted it, so a process
    killed between the two sends it again after its restart.

    The key is the game, the version the turn was stored as, and the entry's place among the
    turn's messages. ``payload`` is JSON: a text announcement (``text``, ``to``, ``mentions``,
    ``buttons``), or ``{"slot": ..., "to": ...}`` for a table, rack or panel message, which is
    state and re-rendered from the stored game when it is sent again (no image bytes here).
    """

    __tablename__: ClassVar[str] = "outbox"

    game_id: int = Field(
        sa_column=Column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    )
    version: int = Field(primary_key=True)
    seq: int = Field(primary_key=True)
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    delivered_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    # Who sends it, until when: the process that stored it, for as long as a live sender may
    # take; then whoever claims it to send it again (a lease: taken over once it ran out).
    owner: str | None = Field(default=None, max_length=200)
    lease_until: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    tries: int = Field(default=0, sa_column=Column(Integer, nullable=False, server_default="0"))
    refused_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))

    __table_args__ = (Index(None, "delivered_at", "created_at"),)


class ServerSecretRow(StorageModel, table=True):
    """A secret the bot made for itself and must keep across restarts (the key that signs
    board links when ``WEB_SECRET`` is not set), by name."""

    __tablename__: ClassVar[str] = "server_secret"

    name: str = Field(primary_key=True, max_length=64)
    value: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
