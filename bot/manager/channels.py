"""A channel's stored choices (rules, language) and the bot's defaults for channels that
never chose."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.i18n import LANGUAGES
from engine import Rules
from engine.tiles import Edition
from storage import ChannelSettings


@dataclass(frozen=True, slots=True)
class Defaults:
    """What the bot uses where a channel never chose: its rules and its language."""

    rules: Rules = field(default_factory=Rules)
    language: str = "en"

    def language_of(self, settings: ChannelSettings) -> str:
        """A channel's stored language; the default for a channel that never chose."""
        if settings.version == 0 or settings.language not in LANGUAGES:
            return self.language
        return str(settings.language)

    def rules_of(self, settings: ChannelSettings) -> Rules:
        """The channel's stored choices; a channel that never chose gets the defaults."""
        if settings.version == 0:
            return self.rules
        return replace(
            self.rules,
            opening_threshold=settings.opening_threshold,
            turn_seconds=settings.turn_seconds,
            edition=Edition(settings.edition),
            hints=settings.hints,
            match_games=settings.match_games,
        )


def rules_fields(rules: Rules) -> dict[str, Any]:
    """``rules`` as the columns of a channel's stored settings."""
    return {
        "opening_threshold": rules.opening_threshold,
        "turn_seconds": rules.turn_seconds,
        "edition": rules.edition.value,
        "hints": rules.hints,
        "match_games": rules.match_games,
        "async_mode": rules.turn_seconds >= 3600,
    }
