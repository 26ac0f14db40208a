"""A channel's live table (seats, lobby, game, draft, deadline) and its stored description;
the small rules of seats and quotes every room of the manager shares."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.api import ChannelRef, PlayerRef, Reply
from bot.commands import (
    parse_number,
    shorten,
)
from engine import Draft, Game, Match, Rules, RummikubError
from engine.messages import Msg
from storage import (
    Seat,
)

log = logging.getLogger("bot.manager")

DEFAULT_AI = "medium"
MAX_PENDING = 1000
MAX_COMMAND = 2000  # characters; a whole table typed out in one arrange is about 600
SETTING_VERBS = ("start", "settings")  # a timer may be up to a week of seconds
TURN_BOUND = frozenset(
    ("draw", "done", "play", "move", "split", "swap", "arrange", "auto", "undo", "reset", "pick")
) | {"target", "place"}


STEP_BOUND = frozenset(("place", "auto", "undo", "reset"))
"""Panel buttons that act on the draft as the panel showed it: their click carries the step
too, so a click delivered twice (or from an older panel) does not undo or place twice."""
_TURNS, _STEPS = 10_000, 1_000  # a game has far fewer turns; a turn's steps wrap past 999
AWAY_AUTO_HOURS = 3600  # timers of an hour or more: absent players are on by default
AWAY_AUTO = 3  # turns in a row that ran out before an AI plays an absent player's seat
AWAY_MOST = 99


@dataclass
class SeatInfo:
    """Who plays a seat. ``owner`` is the person whose seat it is in the match roster when an
    AI plays it for them (``why``: "left", "kicked", or "away" until they send a command);
    scores stay with the owner. ``missed`` counts the person's turns in a row that ran out."""

    player: PlayerRef | None
    ai: str | None
    name: str
    owner: PlayerRef | None = None
    why: str | None = None
    missed: int = 0
    waiting: bool = False  # a rematch lobby: this person has not confirmed yet

    def stored(self, index: int) -> Seat:
        if self.player is not None:
            player_id = self.player.user_id
        elif self.owner is not None:
            player_id = self.owner.user_id
        else:
            player_id = f"ai-{index}"
        return Seat(
            player_id=player_id, name=self.name, ai=self.ai, why=self.why, missed=self.missed
        )


@dataclass
class LiveTable:
    """A channel's table: the lobby, then the match and its current game.

    Everything here but the panel's selection and target and the rack sort order is rebuilt
    exactly from storage (``describe`` shows what must match)."""

    channel: ChannelRef
    host: PlayerRef
    rules: Rules
    lang: str = "en"
    seats: list[SeatInfo] = field(default_factory=list)
    phase: str = "lobby"  # lobby | playing
    game: Game | None = None
    draft: Draft | None = None
    match: Match | None = None
    match_id: int | None = None
    game_id: int | None = None
    version: int = 0
    saved_actions: int = 0
    deadline: float | None = None
    selection: list[str] = field(default_factory=list)
    target: int | None = None
    sort_by: dict[str, str] = field(default_factory=dict)
    away_after: int | None = None  # None: automatic (on for long timers); 0: off
    paused_left: float | None = None  # a stopped clock: the seconds the turn has left
    notified: list[PlayerRef] = field(default_factory=list)  # the lobby mentions (notify)

    @property
    def away_limit(self) -> int:
        """Turns in a row that may run out before an AI plays the seat (0: never)."""
        return away_limit(self.rules, self.away_after)

    def away_seat_of(self, player: PlayerRef) -> int | None:
        """The seat an AI plays while ``player`` is away, if any."""
        for index, seat in enumerate(self.seats):
            if seat.why == "away" and seat.owner is not None and seat.owner.same_person(player):
                return index
        return None

    def seat_of(self, player: PlayerRef) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player is not None and seat.player.same_person(player):
                return index
        return None

    @property
    def current_seat(self) -> SeatInfo | None:
        if self.game is None or self.game.finished:
            return None
        return self.seats[self.game.current]

    @property
    def ai_due(self) -> bool:
        """An AI seat is to move: a job that is due now (a restart runs it)."""
        seat = self.current_seat
        return seat is not None and seat.ai is not None

    def click_mark(self, verb: str = "done") -> int | None:
        """The number a turn panel's button for ``verb`` carries (``Button.turn``), None with
        no game in play: the stored game and its turn (so a panel of an earlier game of the
        match never matches), and for the draft's buttons (``STEP_BOUND``) the draft's step
        too. A click is good only while its number is still this one."""
        if self.game is None or self.game.finished:
            return None
        mark = (self.game_id or 0) * _TURNS + self.game.turn
        if verb in STEP_BOUND:
            steps = len(self.draft.steps) if self.draft is not None else 0
            mark = mark * _STEPS + steps % _STEPS
        return mark

    def stale_click(self, verb: str, mark: int) -> str | None:
        """Why a click carrying ``mark`` must not act now: "turn_over" (made for a turn or
        game that is over), "step_over" (made for an earlier step of this turn's draft), or
        None."""
        turn_mark = self.click_mark()
        made_for = mark // _STEPS if verb in STEP_BOUND else mark
        if turn_mark is None or made_for != turn_mark:
            return "turn_over"
        return None if mark == self.click_mark(verb) else "step_over"

    @property
    def turn_key(self) -> tuple[int | None, int]:
        """Which turn of which game is being played (what a command or timer was meant for)."""
        return (self.game_id, self.game.turn if self.game is not None else 0)


def describe(table: LiveTable | None) -> dict[str, Any] | None:
    """Everything about a table that storage must bring back, as comparable plain data:
    seats (who is human, who is AI and why), host, rules, language, the whole position (table,
    racks, pool, current player, turn), the draft, the match roster and results, the deadline
    (to the millisecond) or the time left on a stopped clock, and whether an AI move is due."""
    if table is None:
        return None
    game = table.game
    match = table.match
    return {
        "channel": table.channel.key,
        "phase": table.phase,
        "host": table.host.user_id,
        "rules": table.rules.to_text(),
        "lang": table.lang,
        "seats": [
            (
                s.player.user_id if s.player else None,
                s.ai,
                s.name,
                s.owner.user_id if s.owner else None,
                s.why,
                s.missed,
                s.waiting,
            )
            for s in table.seats
        ],
        "away_after": table.away_after,
        "game_id": table.game_id,
        "version": table.version,
        "position": game.to_text() if game is not None else None,
        "log": list(game.log) if game is not None else None,
        "draft": list(table.draft.steps) if table.draft is not None else [],
        "match_id": table.match_id,
        "match": (
            None
            if match is None
            else (
                match.games,
                [(r.winner, tuple(r.scores)) for r in match.results],
            )
        ),
        "deadline": None if table.deadline is None else round(table.deadline, 3),
        "paused_left": None if table.paused_left is None else round(table.paused_left, 3),
        "ai_due": table.ai_due,
    }


def away_limit(rules: Rules, away_after: int | None) -> int:
    """The ``away_after`` setting in force: as chosen, or automatic (``AWAY_AUTO`` turns for
    timers of an hour or more, where one absent player would stall the table for days; off for
    real-time tables, as at a real table)."""
    if away_after is not None:
        return away_after
    return AWAY_AUTO if rules.turn_seconds >= AWAY_AUTO_HOURS else 0


AWAY_KEYS = ("away_after", "away")


def parse_away(value: str) -> tuple[bool, int | None]:
    """``away_after`` values: ``auto``, ``off`` (or 0), or 1 to 99 turns. Returns (valid, value)."""
    word = value.strip().lower()
    if word == "auto":
        return True, None
    if word in ("off", "no", "never", "0"):
        return True, 0
    number = parse_number(word)
    if number is not None and 1 <= number <= AWAY_MOST:
        return True, number
    return False, None


class RummikubErrorText(RummikubError):
    """A one-sentence bot-level input error (shown like a rules error)."""


class CommandErrorAsRule(RummikubError):
    """A usage error found after parsing."""

    def __init__(self, usage_text: Msg) -> None:
        super().__init__(Msg("Write it like: {usage}.", usage=usage_text))


def _short_quotes(message: Msg) -> Msg:
    """The same message with every text blank cut to a short quote (input is echoed there)."""
    params: dict[str, object] = {}
    for key, value in message.params.items():
        if isinstance(value, str):
            params[key] = shorten(value, 60)
        elif isinstance(value, Msg):
            params[key] = _short_quotes(value)
        else:
            params[key] = value
    return Msg(message.template, **params)


def _dt(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def note(channel: ChannelRef, player: PlayerRef, text: str) -> Reply:
    """A short private answer to one person (errors, confirmations), already in their
    language."""
    return Reply(channel, text, private_to=player)


def public(table: LiveTable, text: str, **kw: Any) -> Reply:
    """A message the whole channel of ``table`` sees."""
    return Reply(table.channel, text, **kw)
