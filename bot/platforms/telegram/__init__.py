"""Telegram support: the python-telegram-bot adapter and its small persistent state."""

from __future__ import annotations

from bot.platforms.telegram.adapter import TelegramAdapter, TelegramConfig, run_telegram
from bot.platforms.telegram.pacing import Limits

__all__ = ["Limits", "TelegramAdapter", "TelegramConfig", "run_telegram"]
