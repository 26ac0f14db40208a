"""Telegram support: the python-telegram-bot adapter in rooms (see ``app``) and its small
persistent state."""

from __future__ import annotations

from bot.platforms.telegram.app import TelegramAdapter, run_telegram
from bot.platforms.telegram.config import TelegramConfig
from bot.platforms.telegram.pacing import Limits

__all__ = ["Limits", "TelegramAdapter", "TelegramConfig", "run_telegram"]
