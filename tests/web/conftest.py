"""Fixtures of the web board's tests: no internal error may be logged (as in tests/bot), and
the same manager harness (a real SQLite file, a fake clock) and fake Discord API."""

from __future__ import annotations

from tests.bot.conftest import expect_internal_errors, fake, h, internal_errors

__all__ = ["expect_internal_errors", "fake", "h", "internal_errors"]
