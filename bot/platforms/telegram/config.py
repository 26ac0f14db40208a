"""What the Telegram adapter is told: the token, the Bot API server, polling or webhook, the
state file and a few timings (the project's settings object fills it in)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.platforms.telegram.pacing import Limits


@dataclass(frozen=True, slots=True)
class TelegramConfig:
    """Everything the adapter needs to know; the project's settings object fills it in."""

    token: str
    api_base_url: str | None = None  # a self-hosted Bot API server, e.g. http://127.0.0.1:8081
    webhook_url: str | None = None  # set: webhook mode at this public https URL; else polling
    webhook_listen: str = "127.0.0.1"  # where the webhook server listens (behind a proxy)
    webhook_port: int = 8443
    webhook_secret: str | None = None  # Telegram sends it back; other callers get 403
    state_path: str | None = "data/telegram-state.sqlite3"  # None: remember nothing on disk
    poll_timeout: float = 30.0  # seconds one getUpdates long poll may wait
    admin_cache_seconds: float = 600.0  # how long a group's admin list is trusted
    answer_within: float = 0.8  # a button press waits this long for a short result to show
    limits: Limits = field(default_factory=Limits)  # how fast the bot may talk, and how it retries


def api_urls(base: str | None) -> tuple[str, str] | None:
    """PTB's base_url and base_file_url for a Bot API server address (None: the official one).

    Accepts ``http://host:8081``, ``http://host:8081/bot`` or a URL with ``{token}``.
    """
    if not base:
        return None
    base = base.rstrip("/")
    if "{token}" in base:
        return base, base.replace("/bot{token}", "/file/bot{token}")
    if not base.endswith("/bot"):
        base += "/bot"
    return base, base.removesuffix("/bot") + "/file/bot"
