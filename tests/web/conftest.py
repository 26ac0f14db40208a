"""Fixtures of the web board's tests: no internal error may be logged (as in tests/bot), and
the same manager harness (a real SQLite file, a fake clock)."""

from __future__ import annotations

from tests.bot.conftest import expect_internal_errors, h, internal_errors

__all__ = ["expect_internal_errors", "h", "internal_errors"]
