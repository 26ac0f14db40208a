"""The command language, parsed once for every platform.

A command is a verb and the rest of the line. ``SYNTAX`` declares, for every verb, what may
follow it (nothing, tiles, a number, one of a few words, a draft step...); ``parse_command``
refuses a command with words its verb does not take, in one sentence with its usage, before
anything runs. Draft steps (play, move, split, swap, arrange) are read by
``engine.actions.parse_action``. Anything that is not a command becomes one sentence that says
how to fix it; a typo is never steered to a verb that destroys something.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from enum import Enum
from typing import NoReturn

from engine.actions import USAGE as DRAFT_USAGE
from engine.actions import Action, Auto, Reset, Undo, parse_action
from engine.ai import AI_LEVELS
from engine.errors import RummikubError
from engine.messages import Msg
from engine.notation import parse_tokens

LOBBY_VERBS = ("start", "join", "leave", "addbot", "kick", "settings", "cancel", "deal")
# The answers to the question a command that ends a game asks (``leave`` by the last person).
ANSWER_VERBS = ("yes", "no")
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
ALL_VERBS = LOBBY_VERBS + ANSWER_VERBS + TURN_VERBS + INFO_VERBS + MATCH_VERBS
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
    "y": "yes",
    "tak": "yes",
    "n": "no",
    "nie": "no",
    "clear": "reset",
}

USAGE: dict[str, Msg] = {
    **DRAFT_USAGE,
    "start": Msg("start (opens a game in this channel; add settings like threshold=25 timer=3600)"),
    "join": Msg("join (take a seat in the lobby)"),
    "leave": Msg(
        "leave (give up your seat; in a running game an AI takes it over, and if you are the "
        "last person there it asks first, since that ends the game: leave yes confirms)"
    ),
    "addbot": Msg("addbot [easy|medium|hard] (add an AI seat)"),
    "kick": Msg(
        "kick <seat number or name> (host or admin: remove a seat; in a game an AI plays it; "
        "removing the last person asks first: kick 2 yes confirms)"
    ),
    "settings": Msg(
        "settings [name value] (show or change: threshold, timer, games, hints, edition, "
        "away_after)"
    ),
    "cancel": Msg(
        "cancel (host or admin: end the game in this channel; a game under way asks first: "
        "cancel yes confirms)"
    ),
    "deal": Msg("deal (host: start the match with the seats in the lobby)"),
    "yes": Msg("yes (confirm what you were just asked, e.g. leaving as the last person)"),
    "no": Msg("no (keep playing: the question you were just asked is dropped)"),
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
        "stats [player] (a player's record and rating in this channel, or in every channel of "
        "its server where the bot can list them)"
    ),
    "replay": Msg("replay [game number from history] (an animation and the record of a game)"),
    "notify": Msg("notify on|off (be told when a game opens in this channel)"),
}


class Takes(Enum):
    """What may follow a verb."""

    NOTHING = "nothing"
    ANSWER = "answer"  # nothing, or yes / no: the answer to the question a destructive verb asks
    SEAT = "seat"  # a seat number or a player's name, then optionally yes / no
    CHOICE = "choice"  # one of the verb's ``choices``
    NUMBER = "number"  # a number (``#2`` too)
    TARGET = "target"  # a meld number or new
    TILES = "tiles"  # tiles, in the forgiving notation
    DRAFT = "draft"  # a draft step, read by engine.actions.parse_action
    SETTING = "setting"  # a setting's name and its value
    SETTINGS = "settings"  # name=value words
    VERB = "verb"  # a command's name
    WORDS = "words"  # words its handler reads (a player's name, a language), at most ``most``


@dataclass(frozen=True, slots=True)
class Syntax:
    """What a verb takes after it. ``required``: it takes nothing less; ``destructive``: it can
    end a game, so it asks first and no typo is ever steered to it."""

    takes: Takes
    required: bool = False
    choices: tuple[str, ...] = ()
    most: int | None = None
    destructive: bool = False


_NOTHING = Syntax(Takes.NOTHING)
_DRAFT = Syntax(Takes.DRAFT, required=True)
SORT_WORDS = ("colour", "color", "colours", "colors", "col", "number", "numbers", "num")

NOTIFY_ON = ("on", "yes", "1", "tak")
NOTIFY_OFF = ("off", "no", "0", "nie", "stop")
NOTIFY_WORDS = NOTIFY_ON + NOTIFY_OFF
LEADERBOARD_WINS = ("wins", "win", "wygrane")

SYNTAX: dict[str, Syntax] = {
    "start": Syntax(Takes.SETTINGS),
    "join": _NOTHING,
    "leave": Syntax(Takes.ANSWER, destructive=True),
    "addbot": Syntax(Takes.CHOICE, choices=AI_LEVELS),
    "kick": Syntax(Takes.SEAT, required=True, destructive=True),
    "settings": Syntax(Takes.SETTING),
    "cancel": Syntax(Takes.ANSWER, destructive=True),
    "deal": _NOTHING,
    "yes": _NOTHING,
    "no": _NOTHING,
    "play": _DRAFT,
    "move": _DRAFT,
    "split": _DRAFT,
    "swap": _DRAFT,
    "arrange": _DRAFT,
    "auto": Syntax(Takes.TILES),
    "undo": _NOTHING,
    "reset": _NOTHING,
    "done": _NOTHING,
    "draw": _NOTHING,
    "hint": _NOTHING,
    "pick": Syntax(Takes.TILES),
    "target": Syntax(Takes.TARGET),
    "place": _NOTHING,
    "panel": _NOTHING,
    "rack": Syntax(Takes.CHOICE, choices=SORT_WORDS),
    "table": _NOTHING,
    "status": _NOTHING,
    "score": _NOTHING,
    "leaderboard": Syntax(Takes.CHOICE, choices=LEADERBOARD_WINS),
    "history": _NOTHING,
    "rules": _NOTHING,
    "help": Syntax(Takes.VERB),
    "sort": Syntax(Takes.CHOICE, required=True, choices=SORT_WORDS),
    "language": Syntax(Takes.WORDS, most=2),
    "rematch": _NOTHING,
    "stats": Syntax(Takes.WORDS),
    "replay": Syntax(Takes.NUMBER),
    "notify": Syntax(Takes.CHOICE, choices=NOTIFY_WORDS),
}
"""Every verb and what it takes: the one place that decides which words a command may have
(``check_syntax`` checks it; the handlers read what it let through)."""

DESTRUCTIVE = frozenset(verb for verb, syntax in SYNTAX.items() if syntax.destructive)
YES = ("yes", "y", "tak")
NO = ("no", "n", "nie")
"""The answers to a destructive verb's question (``cancel yes``, ``kick 2 no``)."""

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
    """A command as data, read once at the edge (``read_command``): its verb and the words
    after it, a draft step already read into its engine action, and, for input that is not a
    command the manager can run, what is wrong with it (``problem``: one sentence; ``verb`` is
    "" when the word is no verb at all). ``source`` is the text it was read from. ``turn``: for
    a click on a button made for one turn (``Button.turn``), that turn's number, so a click
    that arrives after the turn ended (a panel left open, a platform delivering it twice) is
    refused; None for typed commands."""

    verb: str
    args: str = ""
    action: Action | None = None
    problem: CommandError | BadNumber | None = None
    source: str = ""
    turn: int | None = None

    @property
    def text(self) -> str:
        return f"{self.verb} {self.args}".strip()


SETTING_VERBS = ("start", "settings")
"""Verbs whose numbers may be long (a timer of up to a week of seconds)."""


def read_command(text: str) -> Command:
    """The one reader of command text (typed, a slash command's words, a button's command):
    the verb, the numbers (``check_numbers``), the words the verb takes (``check_syntax``) and,
    for a draft step, its engine action, each read once. Never raises: what is wrong is the
    command's ``problem``."""
    try:
        command = parse_command(text)
    except CommandError as err:
        return Command("", text.strip(), problem=err, source=text)
    verb, args = command.verb, command.args
    try:
        check_numbers(args, longest=7 if verb in SETTING_VERBS else 4)
        action = check_syntax(verb, args)
    except (CommandError, BadNumber) as err:
        return Command(verb, args, problem=err, source=text)
    return Command(verb, args, action=action, source=text)


def parse_command(text: str) -> Command:
    """``"/rummikub play R5 R6 R7"``, ``"/play@MyBot R5"``, ``"play R5"`` -> Command.

    Recognises the verb (raising ``CommandError`` for a word that is none); what follows it
    is checked by ``check_syntax``. Adapters ask this one whether a line is a command at all.
    """
    stripped = _PREFIX_RE.sub("", text, count=1)
    stripped = _SLASH_RE.sub(lambda m: m.group(1), stripped, count=1).strip()
    if not stripped:
        return Command("help", "")
    word, _, rest = stripped.partition(" ")
    verb = ALIASES.get(word.lower(), word.lower())
    if verb not in KNOWN_VERBS:
        # A typo is never steered to a verb that ends a game ("clear" is not "leave").
        close = difflib.get_close_matches(verb, SUGGESTED, n=1)
        hint = (
            Msg("Did you mean {verb!r}?", verb=close[0])
            if close
            else Msg("Type help to see the commands.")
        )
        raise CommandError(
            "I don't know the command {word!r}. {hint}", word=shorten(word), hint=hint
        )
    return Command(verb, rest.strip())


SUGGESTED = tuple(verb for verb in KNOWN_VERBS if verb not in DESTRUCTIVE)
"""The verbs a typo may be pointed to."""


def split_answer(args: str) -> tuple[str, bool | None]:
    """A destructive verb's words and its answer: ``"2 yes"`` -> ``("2", True)``, ``"no"`` ->
    ``("", False)``, ``"2"`` -> ``("2", None)`` (not answered: the verb asks first)."""
    head, _, last = args.strip().rpartition(" ")
    if last.lower() in YES:
        return head.strip(), True
    if last.lower() in NO:
        return head.strip(), False
    return args.strip(), None


_NUMBER_WORD_RE = re.compile(r"#?[0-9]+")
_SETTING_WORD_RE = re.compile(r"[A-Za-z_]+=\S+")


def _after(words: list[str], first_ok: bool, whole: str) -> str:
    """The words not taken when only the first may be: the rest, or all if the first is
    not what the verb takes."""
    return " ".join(words[1:]) if first_ok else whole


def _not_taken(verb: str, syntax: Syntax, args: str) -> tuple[str, Action | None]:
    """The part of ``args`` that ``verb`` does not take ("" when it takes them all), and the
    draft step they make when ``verb`` is one; raises ``CommandError`` when something it needs
    is missing or a tile or step cannot be read."""
    takes = syntax.takes
    if takes in (Takes.TILES, Takes.DRAFT):
        try:  # the engine's readers name the wrong word and how to write it
            if takes is Takes.TILES:
                tokens = tuple(parse_tokens(args))
                return "", Auto(tokens) if verb == "auto" else None
            return "", parse_action(f"{verb} {args}")
        except RummikubError as err:
            raise CommandError(err.msg) from err
        except ValueError:  # a number too long for int(): check_numbers names it first
            return "", None
    return _words_not_taken(verb, syntax, args), None


def _words_not_taken(verb: str, syntax: Syntax, args: str) -> str:
    """The words of ``args`` a verb that takes no tiles or step does not take."""
    words = args.split()
    takes = syntax.takes
    if takes is Takes.NOTHING:
        return args
    if takes in (Takes.ANSWER, Takes.SEAT):
        rest, answer = split_answer(args)
        if takes is Takes.SEAT:
            return "" if rest else _missing(verb)
        return args if answer is None else rest
    if takes is Takes.CHOICE:
        return _after(words, words[0].lower() in syntax.choices, args)
    if takes is Takes.NUMBER:
        return _after(words, _NUMBER_WORD_RE.fullmatch(words[0]) is not None, args)
    if takes is Takes.TARGET:
        target = words[0].lower() == "new" or _NUMBER_WORD_RE.fullmatch(words[0]) is not None
        return _after(words, target, args)
    if takes is Takes.SETTING:
        parts = args.replace("=", " ").split()
        return " ".join(parts[2:]) if len(parts) > 1 else _missing(verb)
    if takes is Takes.SETTINGS:
        return next((w for w in words if not _SETTING_WORD_RE.fullmatch(w)), "")
    most = 1 if takes is Takes.VERB else syntax.most  # Takes.VERB or Takes.WORDS
    return "" if most is None else " ".join(words[most:])


def _missing(verb: str) -> NoReturn:
    """Something the verb needs is not there: its usage."""
    raise CommandError("Write it like: {usage}.", usage=usage(verb))


def check_syntax(verb: str, args: str) -> Action | None:
    """Raise ``CommandError`` unless ``args`` are what ``SYNTAX[verb]`` says the verb takes:
    a verb followed by words it does not take (``done now``, ``undo undo``, ``addbot
    strong``) is refused, with the verb's usage, before anything runs. Only the shape is
    checked here; what the words mean (is that seat there, is that tile on the rack) is for
    the handler, in the position the command meets. A draft step comes back as its engine
    action (read here, once)."""
    syntax = SYNTAX[verb]
    if not args.split():
        if syntax.required:
            _missing(verb)
        return _BARE_STEPS.get(verb)
    extra, action = _not_taken(verb, syntax, args)
    if not extra:
        return action
    raise CommandError(
        "{verb!r} does not take {extra!r}; nothing was changed. Write it like: {usage}.",
        verb=verb,
        extra=shorten(extra),
        usage=usage(verb),
    )


_BARE_STEPS: dict[str, Action] = {"undo": Undo(), "reset": Reset(), "auto": Auto()}
"""Draft steps that take no words."""


def usage(verb: str) -> Msg:
    """How to write ``verb``: an example and what it does."""
    return USAGE.get(verb) or USAGE["help"]
