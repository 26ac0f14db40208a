"""Settings from the environment and ``.env`` (see ``.env.example``), in one object.

Every entry point (``rummikub run``, ``play``, ``db``, ``render``) reads its configuration
through :func:`load_settings`, so the bot and its maintenance commands cannot disagree about,
say, the database. An empty value (``TELEGRAM_WEBHOOK_SECRET=``) counts as unset. Every value is
checked when the settings are read; a bad one gives :class:`SettingsError`, one line that names
the variable. Tokens and secrets are :class:`~pydantic.SecretStr`: a ``repr`` or a log line of
the settings shows ``**********``, and only :meth:`BotSettings.secrets` hands them out (to the
log redaction filter).
"""

from __future__ import annotations

import re
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage import DEFAULT_URL, normalize_url

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
TURN_SECONDS = (10, 7 * 24 * 3600)  # the limits engine.Rules applies to the timer setting

_TELEGRAM_TOKEN = re.compile(r"[0-9]{1,20}:[A-Za-z0-9_-]{1,100}")
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what Telegram accepts as secret_token
_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")
_SECRET_FIELDS = frozenset(
    {"discord_token", "telegram_token", "telegram_webhook_secret", "web_secret"}
)
WEB_SECONDS = (60, 7 * 24 * 3600)  # how long a board link or Telegram sign-in may be used


class SettingsError(ValueError):
    """A setting that cannot be used; the message is one line that names the variable."""


class BotSettings(BaseSettings):
    """Everything the bot reads from its environment; passed in through constructors."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        env_ignore_empty=True,  # NAME= in .env is unset, not ""
        validate_default=True,
    )

    database_url: str = DEFAULT_URL
    # Several processes on one database: how long the announcements a process stored are its
    # own to deliver before another sends them again (as long as a live sender may take)
    outbox_lease_seconds: int = 300
    discord_token: SecretStr | None = None
    discord_api_base_url: str | None = None  # a REST proxy instead of discord.com/api/v10
    telegram_token: SecretStr | None = None
    telegram_api_base_url: str | None = None  # self-hosted Bot API server
    telegram_webhook_url: str | None = None  # public https URL; unset = long polling
    telegram_webhook_listen: str = "127.0.0.1"
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: SecretStr | None = None
    turn_seconds: int = 60  # default turn timer for channels that never chose one
    language: Literal["en", "pl"] = "en"  # the bot's language in channels that never chose one
    render_images: bool = True
    theme: Literal["light", "dark"] = "light"
    log_level: LogLevel = "INFO"
    http_log_level: LogLevel = "WARNING"  # httpx, httpcore, discord.http, ...: request loggers
    web_base_url: str | None = None  # the board's public https address; unset: no board
    web_listen: str = "127.0.0.1"  # where the board's server listens (behind a proxy)
    web_port: int = 8480  # 0: any free port
    web_link_seconds: int = 3600  # how long a signed board link (and a board session) lasts
    web_init_data_seconds: int = 3600  # how old a Telegram Mini App sign-in may be
    web_secret: SecretStr | None = None  # signs board links; unset: one kept in the database
    log_format: Literal["text", "json"] = "text"
    # The operations endpoint (/healthz, /readyz, /metrics): off unless METRICS_PORT is set
    metrics_listen: str | None = None
    metrics_port: int | None = None

    # --- checks: each raises one sentence; load_settings() adds the variable's name --------

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        normalize_url(value)  # raises ValueError with a sentence of its own
        return value

    @field_validator("discord_token")
    @classmethod
    def _discord_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and (
            not value.get_secret_value().strip() or re.search(r"\s", value.get_secret_value())
        ):
            raise ValueError("a Discord token has no spaces; copy it again from the portal")
        return value

    @field_validator("telegram_token")
    @classmethod
    def _telegram_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _TELEGRAM_TOKEN.fullmatch(value.get_secret_value()):
            raise ValueError("a Telegram token looks like 123456789:AA... (from @BotFather)")
        return value

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _WEBHOOK_SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("use 1 to 256 characters from A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("discord_api_base_url", "telegram_api_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None:
            parsed = urlparse(value)
            if parsed.scheme not in ("http", "https") or not parsed.netloc:
                raise ValueError("use an http:// or https:// address")
        return value

    @field_validator("telegram_webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        if value is not None:
            parsed = urlparse(value)
            if parsed.scheme != "https" or not parsed.netloc:
                raise ValueError("Telegram calls webhooks only at https:// addresses")
        return value

    @field_validator("web_base_url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        if value is not None:
            parsed = urlparse(value)
            local = parsed.scheme == "http" and parsed.hostname in ("127.0.0.1", "localhost")
            if not parsed.netloc or (parsed.scheme != "https" and not local):
                raise ValueError(
                    "the board needs an https:// address (http:// only on 127.0.0.1 or localhost)"
                )
            if parsed.query or parsed.fragment:
                raise ValueError("give the board's address without ? or #")
        return value

    @field_validator("web_secret")
    @classmethod
    def _web_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value().strip()) < 32:
            raise ValueError("use at least 32 characters (for example: openssl rand -hex 32)")
        return value

    @field_validator("outbox_lease_seconds")
    @classmethod
    def _outbox_lease(cls, value: int) -> int:
        if not 1 <= value <= 3600:
            raise ValueError("use 1 to 3600 seconds")
        return value

    @field_validator("web_link_seconds", "web_init_data_seconds")
    @classmethod
    def _web_seconds(cls, value: int) -> int:
        lo, hi = WEB_SECONDS
        if not lo <= value <= hi:
            raise ValueError(f"use {lo} to {hi} seconds (7 days)")
        return value

    @field_validator("telegram_webhook_listen", "metrics_listen", "web_listen")
    @classmethod
    def _listen(cls, value: str | None) -> str | None:
        if value is not None and (
            not value.strip() or "://" in value or re.search(r"[\s/]", value)
        ):
            raise ValueError("use an address to listen on, like 127.0.0.1 or 0.0.0.0")
        return value

    @field_validator("metrics_port")
    @classmethod
    def _metrics_port(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is None:
            if info.data.get("metrics_listen") is not None:
                raise ValueError("METRICS_LISTEN is set, so set the port too (e.g. 9464)")
            return None
        if not 0 <= value <= 65535:
            raise ValueError("a port is a number from 1 to 65535 (0: any free port)")
        return value

    @field_validator("telegram_webhook_port")
    @classmethod
    def _port(cls, value: int) -> int:
        if not 1 <= value <= 65535:
            raise ValueError("a port is a number from 1 to 65535")
        return value

    @field_validator("web_port")
    @classmethod
    def _web_port(cls, value: int) -> int:
        if not 0 <= value <= 65535:
            raise ValueError("a port is a number from 1 to 65535 (0: any free port)")
        return value

    @field_validator("turn_seconds")
    @classmethod
    def _turn_seconds(cls, value: int) -> int:
        lo, hi = TURN_SECONDS
        if not lo <= value <= hi:
            raise ValueError(f"the turn timer is {lo} to {hi} seconds (7 days)")
        return value

    @field_validator("language", "theme", "log_format", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level", "http_log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    # --- reading ---------------------------------------------------------------------------

    def secret(self, name: str) -> str | None:
        """The plain value of a token or secret (``discord_token``, ...), or None when unset."""
        value = getattr(self, name)
        return value.get_secret_value() if isinstance(value, SecretStr) else None

    def secrets(self) -> list[str]:
        """Every secret value that is set: what the log filter must never let through."""
        found = [self.secret(name) for name in sorted(_SECRET_FIELDS)]
        password = _url_password(self.database_url)
        return [s for s in [*found, password] if s]


def _url_password(url: str) -> str | None:
    try:
        return urlparse(url).password
    except ValueError:
        return None


_CHOICES = {
    "language": "en or pl",
    "theme": "light or dark",
    "log_level": ", ".join(LOG_LEVELS),
    "http_log_level": ", ".join(LOG_LEVELS),
    "render_images": "true or false",
    "log_format": "text or json",
}


def describe(error: ValidationError) -> str:
    """One line per bad variable: ``THEME='drak' is not valid: use light or dark.``"""
    lines = []
    for problem in error.errors():
        name = str(problem["loc"][0]) if problem["loc"] else "?"
        variable = name.upper()
        if name in _SECRET_FIELDS or name == "database_url":
            shown = variable  # never echo a secret, not even a wrong one (or a password)
        elif problem.get("input") is None:
            shown = f"{variable} (unset)"
        else:
            shown = f"{variable}={problem.get('input')!r}"
        if name in _CHOICES:
            reason = f"use {_CHOICES[name]}"
        elif problem["type"] in ("int_parsing", "int_type", "int_from_float"):
            reason = "use a whole number"
        else:
            reason = str(problem["msg"]).removeprefix("Value error, ")
        reason = _PASSWORD.sub(r"\1***@", reason.rstrip("."))
        lines.append(f"{shown} is not valid: {reason}.")
    return "\n".join(lines)


def load_settings(**overrides: Any) -> BotSettings:
    """The settings from the environment and ``.env``; bad values raise :class:`SettingsError`.

    ``overrides`` (from command-line options) win over both and are checked the same way.
    """
    given = {key: value for key, value in overrides.items() if value is not None}
    try:
        return BotSettings(**given)
    except ValidationError as error:
        raise SettingsError(describe(error)) from None
