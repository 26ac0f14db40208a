"""Game settings with the official defaults; each choice the rule texts leave open is one field."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from engine.errors import RummikubError
from engine.tiles import Edition


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that can differ between tables. Defaults are the official leaflet's."""

    edition: Edition = Edition.CLASSIC
    opening_threshold: int = 30  # initial meld total; 25 is a common two-player house rule
    turn_seconds: int = 60  # official one-minute timer; asynchronous groups use hours
    match_games: int | None = None  # games in a match; None = as many as players
    hints: bool = False  # official play has no hints; a channel may allow them
    timeout_penalty: int = 3  # tiles drawn after an unfinished rearrangement
    rack_size: int = 14  # tiles dealt to each player
    # The rule texts say only "highest number starts"; a joker drawn for the start is redrawn.

    def games_for(self, players: int) -> int:
        return self.match_games if self.match_games is not None else players

    def to_text(self) -> str:
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Edition):
                value = value.value
            elif value is None:
                value = "auto"
            elif isinstance(value, bool):
                value = "on" if value else "off"
            parts.append(f"{f.name}={value}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Rules:
        rules = cls()
        for part in text.split():
            key, _, value = part.partition("=")
            rules = rules.with_setting(key, value)
        return rules

    def with_setting(self, key: str, value: str) -> Rules:
        """Return a copy with one setting changed from text; bad input raises one sentence."""
        names = {f.name: f for f in fields(self)}
        aliases = {
            "threshold": "opening_threshold",
            "timer": "turn_seconds",
            "games": "match_games",
        }
        key = aliases.get(key.strip().lower(), key.strip().lower())
        if key not in names:
            known = ", ".join(sorted(names))
            raise RummikubError(
                "There is no setting {key!r}; the settings are {known}.", key=key, known=known
            )
        value = value.strip().lower()
        converted: Any
        if key == "edition":
            try:
                converted = Edition(value)
            except ValueError:
                raise RummikubError("edition is classic or xp.") from None
        elif key == "hints":
            if value not in {"on", "off", "true", "false", "yes", "no", "1", "0"}:
                raise RummikubError("hints is on or off.")
            converted = value in {"on", "true", "yes", "1"}
        elif key == "match_games" and value in {"auto", "none", ""}:
            converted = None
        else:
            try:
                converted = int(value)
            except ValueError:
                raise RummikubError(
                    "{key} needs a whole number, not {value!r}.", key=key, value=value
                ) from None
            limits = {
                "opening_threshold": (0, 100),
                "turn_seconds": (10, 7 * 24 * 3600),
                "match_games": (1, 20),
                "timeout_penalty": (0, 5),
                "rack_size": (7, 20),
            }
            lo, hi = limits[key]
            if not lo <= converted <= hi:
                raise RummikubError("{key} must be between {lo} and {hi}.", key=key, lo=lo, hi=hi)
        return replace(self, **{key: converted})
