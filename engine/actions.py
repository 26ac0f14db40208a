"""Draft steps as values with a text form: ``parse_action(str(action)) == action``.

Grammar (case-insensitive; tiles in any forgiving notation):

* ``play R5 R6 R7`` - a new meld from rack tiles; ``play R8 to 3`` adds to meld 3
* ``move R7 from 2 to 5`` / ``move R7 from 2 to new``
* ``split 2 at R6`` - split meld 2 before R6
* ``swap J in 4 with O9`` (``... with O9 from 2`` takes O9 from meld 2)
* ``arrange R4 R5 R6 / K9 B9 O9`` - the whole new table
* ``auto R6 K9`` - let the solver place these rack tiles (``auto`` alone: as many as it can);
  once resolved (by ``engine.steps``, the layer that has the solver) it is written with its
  answer, the table by meld number, ``-`` for a used-up meld:
  ``auto R7 => R4 R5 R6 R7 / - / K9 B9 O9``, which replays without the solver
* ``undo``, ``reset``
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import NotationError
from engine.messages import Msg
from engine.notation import TileToken, parse_meld_tokens, parse_tokens


def _token_code(token: TileToken) -> str:
    if token.pin is not None:
        return f"{token.tile.code}={token.pin}"
    return token.tile.code


def _tokens_code(tokens: tuple[TileToken, ...]) -> str:
    return " ".join(_token_code(t) for t in tokens)


@dataclass(frozen=True, slots=True)
class Play:
    tiles: tuple[TileToken, ...]
    target: int | None = None

    def __str__(self) -> str:
        suffix = f" to {self.target}" if self.target is not None else ""
        return f"play {_tokens_code(self.tiles)}{suffix}"


@dataclass(frozen=True, slots=True)
class Move:
    tiles: tuple[TileToken, ...]
    source: int
    target: int | None = None

    def __str__(self) -> str:
        target = "new" if self.target is None else str(self.target)
        return f"move {_tokens_code(self.tiles)} from {self.source} to {target}"


@dataclass(frozen=True, slots=True)
class Split:
    meld: int
    at: TileToken

    def __str__(self) -> str:
        return f"split {self.meld} at {_token_code(self.at)}"


@dataclass(frozen=True, slots=True)
class Swap:
    meld: int
    tile: TileToken
    source: int | None = None

    def __str__(self) -> str:
        suffix = f" from {self.source}" if self.source is not None else ""
        return f"swap J in {self.meld} with {_token_code(self.tile)}{suffix}"


@dataclass(frozen=True, slots=True)
class Arrange:
    melds: tuple[tuple[TileToken, ...], ...]
    exact: bool = False

    def __str__(self) -> str:
        return "arrange " + " / ".join(_tokens_code(m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class Auto:
    """``auto``: the solver's best play with these rack tiles; ``layout`` is its answer once
    resolved (the slots by meld number, an empty tuple for a used-up meld)."""

    tiles: tuple[TileToken, ...] = ()
    layout: tuple[tuple[TileToken, ...], ...] | None = None

    def __str__(self) -> str:
        head = f"auto {_tokens_code(self.tiles)}".rstrip()
        if self.layout is None:
            return head
        return f"{head} {LAYOUT_MARK} " + " / ".join(_tokens_code(s) or "-" for s in self.layout)


LAYOUT_MARK = "=>"
"""Between an ``auto`` step's tiles and its resolved table."""


@dataclass(frozen=True, slots=True)
class Undo:
    def __str__(self) -> str:
        return "undo"


@dataclass(frozen=True, slots=True)
class Reset:
    def __str__(self) -> str:
        return "reset"


Action = Play | Move | Split | Swap | Arrange | Auto | Undo | Reset

DRAFT_VERBS = ("play", "move", "split", "swap", "arrange", "auto", "undo", "reset")

USAGE: dict[str, Msg] = {
    "play": Msg("play R5 R6 R7 (a new meld) or play R8 to 3 (add to meld 3)"),
    "move": Msg("move R7 from 2 to 5, or move R7 from 2 to new"),
    "split": Msg("split 2 at R6 (meld 2 splits before R6)"),
    "swap": Msg("swap J in 4 with O9 (add 'from 2' to take O9 from meld 2)"),
    "arrange": Msg("arrange R4 R5 R6 / K9 B9 O9 (the whole new table)"),
    "auto": Msg("auto R6 K9 (the bot places these rack tiles for you)"),
    "undo": Msg("undo (one step back)"),
    "reset": Msg("reset (put everything back as it was at the start of your turn)"),
}
"""How to write each draft step: an example and what it does (translatable)."""


def _num(name: str) -> str:
    return rf"(?:meld\s*)?#?(?P<{name}>[0-9]{{1,4}})"


_TO = r"(?:to|on|onto|into|>)"
_PLAY_RE = re.compile(rf"^(?P<tiles>.+?)(?:\s+{_TO}\s+{_num('a')}|\s+{_TO}\s+new)?$")
_TARGET_RE = re.compile(rf"\s+{_TO}(?:\s+(?P<target>.*))?$", re.IGNORECASE)
"""A target after the tiles that ``_PLAY_RE`` could not read as a meld number."""
_MOVE_RE = re.compile(
    rf"^(?P<tiles>.+?)\s+from\s+{_num('a')}\s+{_TO}\s+(?:{_num('b')}|(?P<new>new))$"
)
_MOVE_LOOSE_RE = re.compile(
    rf"^(?P<tiles>.+?)\s+from\s+(?P<a>.+?)\s+{_TO}\s+(?P<b>.+)$", re.IGNORECASE
)
_NUMBER_RE = re.compile(_num("n") + "$", re.IGNORECASE)
_SPLIT_RE = re.compile(rf"^{_num('a')}\s+(?:at|before)\s+(?P<tile>.+)$")
_SWAP_RE = re.compile(
    rf"^(?:(?:j|joker|\*)\s+)?(?:in|from)\s+{_num('a')}\s+(?:with|for|by)\s+(?P<tile>.+?)"
    rf"(?:\s+from\s+{_num('b')})?$"
)


def _usage_error(verb: str, detail: Msg) -> NotationError:
    return NotationError("{detail} Write it like: {usage}.", detail=detail, usage=USAGE[verb])


def _not_a_meld_number(verb: str, text: str | None) -> NotationError:
    if not text:
        return _usage_error(verb, Msg("Say which meld, by its number."))
    return _usage_error(
        verb, Msg("{text!r} is not a meld number (melds are numbered from 1).", text=text)
    )


def _tokens(text: str, verb: str) -> tuple[TileToken, ...]:
    tokens = tuple(parse_tokens(text))
    if not tokens:
        raise _usage_error(verb, Msg("Name the tiles."))
    return tokens


def parse_action(text: str) -> Action:
    """Parse one draft step; raises ``NotationError`` with the usage of the verb."""
    stripped = " ".join(text.strip().split())
    verb, _, rest = stripped.partition(" ")
    verb = verb.lower()
    rest_lower = rest.lower()
    if verb in ("undo", "u"):
        return Undo()
    if verb == "reset":
        return Reset()
    if verb in ("play", "p", "put", "add"):
        if not rest:
            raise _usage_error("play", Msg("Say which tiles to play."))
        m = _PLAY_RE.match(rest_lower)
        assert m is not None
        target = int(m.group("a")) if m.group("a") else None
        tiles = rest[: m.end("tiles")]
        bad = _TARGET_RE.search(tiles)
        if bad is not None:  # "to" with something that is not a meld number after it
            raise _not_a_meld_number("play", bad.group("target"))
        return Play(_tokens(tiles, "play"), target)
    if verb in ("move", "mv"):
        m = _MOVE_RE.match(rest_lower)
        if not m:
            loose = _MOVE_LOOSE_RE.match(rest)
            if loose is not None:
                source, target_text = loose.group("a"), loose.group("b")
                wrong = source if not _NUMBER_RE.match(source) else target_text
                if wrong.lower() != "new" and not _NUMBER_RE.match(wrong):
                    raise _not_a_meld_number("move", wrong)
            raise _usage_error("move", Msg("Say which tiles, from which meld and to where."))
        target = None if m.group("new") else int(m.group("b"))
        return Move(_tokens(rest[: m.end("tiles")], "move"), int(m.group("a")), target)
    if verb == "split":
        m = _SPLIT_RE.match(rest_lower)
        if not m:
            raise _usage_error("split", Msg("Say which meld and before which tile."))
        tile = _tokens(rest[m.start("tile") :], "split")
        if len(tile) != 1:
            raise _usage_error("split", Msg("Split before exactly one tile."))
        return Split(int(m.group("a")), tile[0])
    if verb == "swap":
        m = _SWAP_RE.match(rest_lower)
        if not m:
            raise _usage_error(
                "swap", Msg("Say which meld's joker and the tile to put in its place.")
            )
        tile = _tokens(rest[m.start("tile") : m.end("tile")], "swap")
        if len(tile) != 1:
            raise _usage_error("swap", Msg("Swap the joker for exactly one tile."))
        source = int(m.group("b")) if m.group("b") else None
        return Swap(int(m.group("a")), tile[0], source)
    if verb == "arrange":
        if not rest:
            raise _usage_error("arrange", Msg("State the whole table."))
        return Arrange(tuple(tuple(m) for m in parse_meld_tokens(rest)))
    if verb == "auto":
        head, mark, layout = rest.partition(LAYOUT_MARK)
        wanted = tuple(parse_tokens(head)) if head.strip() else ()
        if not mark:
            return Auto(wanted)
        slots = tuple(
            () if part.strip() == "-" else tuple(parse_tokens(part))
            for part in re.split(r"\s*/\s*", layout.strip())
        )
        return Auto(wanted, slots)
    raise NotationError(
        "{verb!r} is not a move; use one of: {verbs}.", verb=verb, verbs=", ".join(DRAFT_VERBS)
    )
