"""Tiles, colours, faces and editions: the physical pieces of a Rummikub box."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple


class Color(enum.Enum):
    """The four tile colours, by their one-letter codes (K is black, as in CMYK)."""

    BLACK = "K"
    BLUE = "B"
    ORANGE = "O"
    RED = "R"

    @property
    def code(self) -> str:
        return self.value

    @property
    def order(self) -> int:
        return COLOR_ORDER[self]

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    # Members are singletons compared by identity: hash them by identity too, in C (Enum's own
    # hash is Python code, and tiles, faces and colours are hashed all through the engine).
    __hash__ = object.__hash__


COLORS: tuple[Color, ...] = (Color.BLACK, Color.BLUE, Color.ORANGE, Color.RED)
_BY_CODE: dict[str, Color] = {c.code: c for c in COLORS}
_CODE_RE = re.compile(
    r"(?P<color>[KBOR])(?P<number>1[0-3]|[1-9])(?:#(?P<copy>[0-9]{1,2}))?|J(?:#(?P<jcopy>[0-9]{1,2}))?"
)
COLOR_ORDER: dict[Color, int] = {c: i for i, c in enumerate(COLORS)}
JOKER_VALUE_ON_RACK = 30


class Face(NamedTuple):
    """What a tile shows, or what a joker stands for: a colour (None = any) and a number.

    ``Face(None, 0)`` is the joker's own face; ``Face(None, 9)`` is "a 9 of a colour not yet
    decided" (a joker in a three-tile group).
    """

    color: Color | None
    number: int

    def __str__(self) -> str:
        if self.number == 0:
            return "J"
        if self.color is None:
            return str(self.number)
        return f"{self.color.code}{self.number}"


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile: a colour and number (jokers have neither) and which copy it is.

    Two tiles with the same face are different tiles when their ``copy`` differs; that identity
    lets the engine prove that no tile is ever lost or duplicated. ``str(tile)`` is the face
    ("R7", "J"); ``repr`` can be pasted back into Python.
    """

    color: Color | None
    number: int
    copy: int = 0

    def __post_init__(self) -> None:
        if self.color is None:
            if self.number != 0:
                raise ValueError(f"a joker has number 0, not {self.number}")
        elif not 1 <= self.number <= 13:
            raise ValueError(f"tile numbers run 1-13, not {self.number}")
        if self.copy < 0:
            raise ValueError("copy must be >= 0")

    @classmethod
    def joker(cls, copy: int = 0) -> Tile:
        return cls(None, 0, copy)

    @classmethod
    def parse(cls, text: str, copy: int | None = None) -> Tile:
        """The tile a code names, as ``str`` and ``code`` print it (``R7``, ``R7#1``, ``J``,
        ``J#1``); forgiving input such as ``red 7`` or ``7r`` is ``engine.notation``'s job."""
        m = _CODE_RE.fullmatch(text.strip())
        if m is None:
            raise ValueError(f"{text!r} is not a tile code such as R7, R7#1, J or J#1")
        number = int(m.group("number") or 0)
        color = _BY_CODE[m.group("color")] if m.group("color") else None
        tile = cls(color, number, int(m.group("copy") or m.group("jcopy") or 0))
        return tile if copy is None else tile.with_copy(copy)

    @property
    def is_joker(self) -> bool:
        return self.color is None

    @property
    def face(self) -> Face:
        return Face(self.color, self.number)

    @property
    def rack_value(self) -> int:
        """Penalty value left on a rack: face value, 30 for a joker."""
        return JOKER_VALUE_ON_RACK if self.color is None else self.number

    def with_copy(self, copy: int) -> Tile:
        return Tile(self.color, self.number, copy)

    def same_face(self, other: Tile) -> bool:
        return self.color == other.color and self.number == other.number

    @property
    def code(self) -> str:
        """The identity-preserving code: the face plus ``#copy`` when copy > 0."""
        return str(self) if self.copy == 0 else f"{self}#{self.copy}"

    def __str__(self) -> str:
        if self.color is None:
            return "J"
        return f"{self.color.code}{self.number}"

    def __repr__(self) -> str:
        if self.copy:
            return f"Tile.parse({str(self)!r}, copy={self.copy})"
        return f"Tile.parse({str(self)!r})"

    def sort_key(self, by: str = "color") -> tuple[int, int, int]:
        """Sort by colour then number (``by="color"``) or number then colour; jokers last."""
        if self.color is None:
            return (99, 99, self.copy)
        if by == "number":
            return (self.number, self.color.order, self.copy)
        return (self.color.order, self.number, self.copy)


def sort_tiles(tiles: Iterable[Tile], by: str = "color") -> list[Tile]:
    return sorted(tiles, key=lambda t: t.sort_key(by))


def distinct_copies(tiles: Iterable[Tile], used: set[Tile] | None = None) -> list[Tile]:
    """Give repeated faces distinct copy numbers, so ``R7 R7`` means two physical tiles.

    ``used`` (updated in place) carries the tiles already taken across several calls, so a
    table and a rack written separately never share a physical tile."""
    used = set() if used is None else used
    out: list[Tile] = []
    for tile in tiles:
        while tile in used:
            tile = tile.with_copy(tile.copy + 1)
        used.add(tile)
        out.append(tile)
    return out


def tiles_text(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


class Edition(enum.Enum):
    """The two boxes: classic (106 tiles) and XP (160 tiles, for 5-6 players)."""

    CLASSIC = "classic"
    XP = "xp"

    @property
    def copies(self) -> int:
        return 2 if self is Edition.CLASSIC else 3

    @property
    def jokers(self) -> int:
        return 2 if self is Edition.CLASSIC else 4

    @property
    def min_players(self) -> int:
        return 2

    @property
    def max_players(self) -> int:
        return 4 if self is Edition.CLASSIC else 6

    @property
    def size(self) -> int:
        return 52 * self.copies + self.jokers

    def all_tiles(self) -> list[Tile]:
        """Every physical tile in the box, in a fixed order."""
        tiles = [
            Tile(color, number, copy)
            for copy in range(self.copies)
            for color in COLORS
            for number in range(1, 14)
        ]
        tiles.extend(Tile.joker(i) for i in range(self.jokers))
        return tiles
