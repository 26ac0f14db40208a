"""Telegram support: the python-telegram-bot adapter and its small persistent state."""

from __future__ import annotations

from bot.telegram.adapter import TelegramAdapter, TelegramConfig, run_telegram

__all__ = ["TelegramAdapter", "TelegramConfig", "run_telegram"]
