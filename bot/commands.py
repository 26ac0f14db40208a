"""The command language, parsed once for every platform.

A command is a verb and the rest of the line. Draft verbs (play, move, split, swap, arrange,
auto, undo, reset) are parsed in detail by ``engine.actions.parse_action`` when they run; this
module knows every verb, its aliases and its usage line, and turns anything else into one
sentence that says how to fix it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from engine.actions import USAGE as DRAFT_USAGE
from engine.errors import RummikubError
from engine.messages import Msg

LOBBY_VERBS = ("start", "join", "leave", "addbot", "kick", "settings", "cancel", "deal")
TURN_VERBS = (
    "play",
    "move",
    "split",
    "swap",
    "arrange",
    "auto",
    "undo",
    "reset",
    "done",
    "draw",
    "hint",
    "pick",
    "target",
    "place",
    "panel",
)
INFO_VERBS = (
    "rack",
    "table",
    "status",
    "score",
    "leaderboard",
    "history",
    "rules",
    "help",
    "sort",
    "language",
)
# Verbs after a match: rematch, a player's record, a finished game's replay; being told when
# the next game opens.
MATCH_VERBS = ("rematch", "stats", "replay", "notify")
ALL_VERBS = LOBBY_VERBS + TURN_VERBS + INFO_VERBS + MATCH_VERBS
KNOWN_VERBS = ALL_VERBS

ALIASES = {
    "new": "start",
    "begin": "start",
    "in": "join",
    "out": "leave",
    "quit": "leave",
    "ai": "addbot",
    "bot": "addbot",
    "add": "addbot",
    "config": "settings",
    "set": "settings",
    "stop": "cancel",
    "go": "deal",
    "p": "play",
    "mv": "move",
    "u": "undo",
    "end": "done",
    "commit": "done",
    "pass": "draw",
    "d": "draw",
    "scores": "score",
    "standings": "score",
    "top": "leaderboard",
    "lb": "leaderboard",
    "h": "help",
    "?": "help",
    "lang": "language",
    "select": "pick",
    "toggle": "pick",
    "again": "rematch",
}

USAGE: dict[str, Msg] = {
    **DRAFT_USAGE,
    "start": Msg("start (opens a game in this channel; add settings like threshold=25 timer=3600)"),
    "join": Msg("join (take a seat in the lobby)"),
    "leave": Msg("leave (give up your seat; in a running game an AI takes it over)"),
    "addbot": Msg("addbot [easy|medium|hard] (add an AI seat)"),
    "kick": Msg(
        "kick <seat number or name> (host or admin: remove a seat; in a game an AI plays it)"
    ),
    "settings": Msg(
        "settings [name value] (show or change: threshold, timer, games, hints, edition, "
        "away_after)"
    ),
    "cancel": Msg("cancel (host or admin: end the game in this channel)"),
    "deal": Msg("deal (host: start the match with the seats in the lobby)"),
    "done": Msg("done (end your turn; with nothing played you draw a tile)"),
    "draw": Msg("draw (take one tile and end your turn)"),
    "hint": Msg("hint (the best play for your rack, where the channel allows hints)"),
    "pick": Msg("pick R5 R6 (select rack tiles for the panel's Place button; again to unselect)"),
    "target": Msg("target 3 | target new (where Place puts the selected tiles)"),
    "place": Msg("place (play the selected tiles to the target)"),
    "panel": Msg("panel (show your turn panel: your draft, tile picker and buttons)"),
    "rack": Msg("rack [colour|number] (show your rack privately)"),
    "table": Msg("table (show the table)"),
    "status": Msg("status (whose turn, time left, pool, tile counts)"),
    "score": Msg("score (this match's standings)"),
    "leaderboard": Msg(
        "leaderboard [wins] (the rating ladder of this server or group; wins: the win counts "
        "of this channel)"
    ),
    "history": Msg("history (this channel's recent games)"),
    "rules": Msg("rules (the rules and this channel's settings)"),
    "help": Msg("help [verb] (commands, or how to use one)"),
    "sort": Msg("sort colour|number (how your rack is ordered)"),
    "language": Msg(
        "language en|pl (the bot's language in this channel), or language me en|pl|auto "
        "(yours, for what you get privately)"
    ),
    "rematch": Msg(
        "rematch (after a match: the same seats and settings again; deals once every player "
        "confirms)"
    ),
    "stats": Msg(
        "stats [player] (a player's record and rating across this server's or group's channels)"
    ),
    "replay": Msg("replay [game number from history] (an animation and the record of a game)"),
    "notify": Msg("notify on|off (be told when a game opens in this channel)"),
}

_PREFIX_RE = re.compile(r"^\s*/?(?:rummikub|rk)(?:@\w+)?\b\s*", re.IGNORECASE)
_SLASH_RE = re.compile(r"^\s*/(\w+)(?:@\w+)?", re.IGNORECASE)


class CommandError(RummikubError):
    """Input that is not a command; the message says what to type instead (translatable)."""


class BadNumber(ValueError):
    """A number in a command that is not plain ASCII digits of a sane length (``²``, ``３``,
    a 5,000-digit meld number): refused before anything parses it."""

    def __init__(self, text: str) -> None:
        super().__init__(f"bad number {shorten(text)!r}")
        self.text = text


_NUMBER_RE = re.compile(r"[0-9]{1,4}")
_DIGIT_RUN_RE = re.compile(r"[0-9]+")


def parse_number(text: str) -> int | None:
    """The one strict reader of numbers in commands: 1 to 4 ASCII digits, else None.

    (``str.isdigit`` accepts ``²``, which ``int`` refuses, and ``int`` refuses 4,300+ digits.)
    """
    return int(text) if _NUMBER_RE.fullmatch(text) else None


def check_numbers(text: str, *, longest: int = 4) -> None:
    """Raise ``BadNumber`` if ``text`` holds a digit that is not ASCII, or a run of more than
    ``longest`` ASCII digits: everything a command parser reads afterwards is then sane."""
    for char in text:
        if (char.isdigit() or char.isnumeric()) and not "0" <= char <= "9":
            raise BadNumber(char)
    for run in _DIGIT_RUN_RE.findall(text):
        if len(run) > longest:
            raise BadNumber(run)


def shorten(text: str, limit: int = 24) -> str:
    """A short quote of user input for a reply or a log line (never the whole of it)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


MINE = ("me", "my", "mine", "ja", "mój", "moj")
"""``language me pl``: words that make ``language`` the speaker's own, not the channel's."""


@dataclass(frozen=True, slots=True)
class Command:
    verb: str
    args: str

    @property
    def text(self) -> str:
        return f"{self.verb} {self.args}".strip()


def parse_command(text: str) -> Command:
    """``"/rummikub play R5 R6 R7"``, ``"/play@MyBot R5"``, ``"play R5"`` -> Command."""
    stripped = _PREFIX_RE.sub("", text, count=1)
    stripped = _SLASH_RE.sub(lambda m: m.group(1), stripped, count=1).strip()
    if not stripped:
        return Command("help", "")
    word, _, rest = stripped.partition(" ")
    verb = ALIASES.get(word.lower(), word.lower())
    if verb not in KNOWN_VERBS:
        close = difflib.get_close_matches(verb, KNOWN_VERBS, n=1)
        hint = (
            Msg("Did you mean {verb!r}?", verb=close[0])
            if close
            else Msg("Type help to see the commands.")
        )
        raise CommandError(
            "I don't know the command {word!r}. {hint}", word=shorten(word), hint=hint
        )
    return Command(verb, rest.strip())


def usage(verb: str) -> Msg:
    """How to write ``verb``: an example and what it does."""
    return USAGE.get(verb) or USAGE["help"]
