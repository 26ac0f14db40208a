"""``Database``: one connection with every repository built on it (the wiring module).

Repositories take a :class:`storage.connection.Connection` and never import this module, so
the repositories and the bundle that builds them import one way.
"""

from __future__ import annotations

from storage.claims import ClaimRepository
from storage.connection import (
    DEFAULT_URL,
    Connection,
    SqliteSync,
    normalize_url,
    resolve_url,
)
from storage.games import GameRepository
from storage.lobbies import LobbyRepository
from storage.matches import MatchRepository
from storage.messages import MessageSlots
from storage.notices import NoticeRepository
from storage.outbox import OutboxRepository
from storage.players import PlayerLanguageRepository
from storage.rating_reads import RatingRepository
from storage.secrets import ServerSecrets
from storage.settings import SettingsRepository
from storage.stats import StatsRepository

__all__ = ["DEFAULT_URL", "Database", "SqliteSync", "normalize_url", "resolve_url"]


class Database(Connection):
    """A connection (``await start()`` creates or upgrades the schema, ``await close()``
    ends) and the repositories on it: ``games``, ``matches``, ``settings``, ``stats``,
    ``lobbies``, ``claims``, ``outbox``, ``players`` (languages), ``messages`` (slots),
    ``ratings`` (skill ratings), ``notices`` (``notify`` subscriptions) and ``secrets`` (keys
    the bot made for itself)."""

    def __init__(
        self,
        url: str | None = None,
        *,
        schema: str | None = None,
        sqlite_synchronous: SqliteSync = "FULL",
        busy_timeout_ms: int = 10_000,
        echo: bool = False,
    ) -> None:
        super().__init__(
            url,
            schema=schema,
            sqlite_synchronous=sqlite_synchronous,
            busy_timeout_ms=busy_timeout_ms,
            echo=echo,
        )
        self.outbox = OutboxRepository(self)
        self.games = GameRepository(self, self.outbox)
        self.matches = MatchRepository(self)
        self.settings = SettingsRepository(self)
        self.stats = StatsRepository(self)
        self.lobbies = LobbyRepository(self)
        self.claims = ClaimRepository(self)
        self.players = PlayerLanguageRepository(self)
        self.messages = MessageSlots(self)
        self.ratings = RatingRepository(self)
        self.notices = NoticeRepository(self)
        self.secrets = ServerSecrets(self)
