"""Who plays a seat when people are away: the count of a person's turns that ran out, and an
AI taking over an absent person's seat (pure rules on a live table)."""

from __future__ import annotations

import json

from bot.api import Reply
from bot.i18n import t
from bot.manager.state import DEFAULT_AI, LiveTable, SeatInfo, public
from engine import TurnOutcome


def note_missed(table: LiveTable, outcome: TurnOutcome) -> Reply | None:
    """Count a person's turn that ran out with nothing played (any other end of their turn
    starts the count again); after ``away_limit`` in a row an AI plays their seat until they
    send a command, unless nobody else at the table would be left to play. The channel's line
    about it, if it happened."""
    info = table.seats[outcome.seat]
    if info.player is None:
        return None
    idle = outcome.timed_out and outcome.kind in ("draw", "pass")
    info.missed = info.missed + 1 if idle else 0
    if table.game is None or table.game.finished:
        return None
    limit = table.away_limit
    others = any(s.player is not None for i, s in enumerate(table.seats) if i != outcome.seat)
    if not idle or not limit or info.missed < limit or not others:
        return None
    table.seats[outcome.seat] = SeatInfo(
        None, DEFAULT_AI, info.name, owner=info.player, why="away", missed=info.missed
    )
    return public(table, t(table.lang, "away", name=info.name, count=info.missed))


def setup_text(table: LiveTable) -> str:
    """What a stored game keeps about its table besides the position: rules, host, language,
    seat count, the away setting, and the time left on a stopped clock (``Clock``)."""
    setup: dict[str, object] = {
        "rules": table.rules.to_text(),
        "host": {"user_id": table.host.user_id, "name": table.host.display_name},
        "lang": table.lang,
        "players": len(table.seats),
        "away_after": table.away_after,
    }
    if table.paused_left is not None:
        setup["paused_left"] = table.paused_left
    return json.dumps(setup)
