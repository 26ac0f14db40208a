"""Settings from the environment and ``.env`` (see ``.env.example``), in one object."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict


class BotSettings(BaseSettings):
    """Everything the bot reads from its environment; passed in through constructors."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str | None = None  # default: sqlite+aiosqlite:///rummikub.db
    discord_token: str | None = None
    telegram_token: str | None = None
    telegram_api_base_url: str | None = None  # self-hosted Bot API server
    telegram_webhook_url: str | None = None  # public URL; unset = long polling
    telegram_webhook_listen: str = "127.0.0.1"
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: str | None = None
    turn_seconds: int = 60  # default turn timer for channels that never chose one
    language: str = "en"  # en | pl: the bot's language in channels that never chose one
    render_images: bool = True
    theme: str = "light"  # light | dark
    log_level: str = "INFO"
