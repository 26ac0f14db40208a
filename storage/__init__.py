"""Persistence for games, matches, channel settings and statistics (SQLite or PostgreSQL).

The only package that imports SQLModel/SQLAlchemy. Everything it returns is a frozen record.
"""

from __future__ import annotations

from storage.claims import ClaimRepository
from storage.connection import DEFAULT_URL, Connection, normalize_url, resolve_url
from storage.db import Database
from storage.errors import ChannelBusyError, ConflictError, NotFoundError, StorageError
from storage.games import GameRepository
from storage.lobbies import LobbyRepository
from storage.matches import MatchRepository
from storage.messages import MessageSlots
from storage.notices import NoticeRepository, Subscriber
from storage.outbox import OutboxEntry, OutboxRepository, outbox_key
from storage.players import PlayerLanguage, PlayerLanguageRepository
from storage.rating_reads import AgainstAi, RatingEntry, RatingPoint, RatingRepository
from storage.records import (
    ChannelSettings,
    LeaderboardEntry,
    MatchGameResult,
    PlayerRecord,
    Seat,
    Standing,
    StoredGame,
    StoredMatch,
)
from storage.secrets import ServerSecrets
from storage.settings import SettingsRepository
from storage.stats import StatsRepository

__all__ = [
    "DEFAULT_URL",
    "AgainstAi",
    "ChannelBusyError",
    "ChannelSettings",
    "ClaimRepository",
    "ConflictError",
    "Connection",
    "Database",
    "GameRepository",
    "LeaderboardEntry",
    "LobbyRepository",
    "MatchGameResult",
    "MatchRepository",
    "MessageSlots",
    "NotFoundError",
    "NoticeRepository",
    "OutboxEntry",
    "OutboxRepository",
    "PlayerLanguage",
    "PlayerLanguageRepository",
    "PlayerRecord",
    "RatingEntry",
    "RatingPoint",
    "RatingRepository",
    "Seat",
    "ServerSecrets",
    "SettingsRepository",
    "Standing",
    "StatsRepository",
    "StorageError",
    "StoredGame",
    "StoredMatch",
    "Subscriber",
    "normalize_url",
    "outbox_key",
    "resolve_url",
]
