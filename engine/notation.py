"""Forgiving tile input, strict output: tokens, tile lists and meld lists.

Accepted for one tile (any case): ``R7``, ``7r``, ``red7``, ``red 7``, ``7 red``, ``r-7``; jokers
``J``, ``joker``, ``*``; a pinned joker ``J=R4`` (or ``J=4`` for "a 4 in a group"); a specific
physical copy ``R7#1``. Tiles are separated by spaces or commas; melds by ``/``, ``|``, ``;`` or
new lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import NotationError
from engine.tiles import Color, Face, Tile

COLOR_WORDS: dict[str, Color] = {
    "k": Color.BLACK,
    "black": Color.BLACK,
    "blk": Color.BLACK,
    "b": Color.BLUE,
    "blue": Color.BLUE,
    "o": Color.ORANGE,
    "orange": Color.ORANGE,
    "y": Color.ORANGE,
    "yellow": Color.ORANGE,
    "r": Color.RED,
    "red": Color.RED,
}

_COLOR = r"(?:black|blk|blue|orange|yellow|red|k|b|o|y|r)"
_NUM = r"\d+"
_COPY = r"(?:\#(?P<{name}>\d+))?"
_TILE = (
    rf"(?:(?P<{{p}}c1>{_COLOR})[\s-]*(?P<{{p}}n1>{_NUM})"
    rf"|(?P<{{p}}n2>{_NUM})[\s-]*(?P<{{p}}c2>{_COLOR}))"
)
_END = r"(?![a-z0-9#])"
_JOKER_RE = re.compile(
    rf"(?:joker|j|\*)(?:\#(?P<jcopy>\d+))?"
    rf"(?:\s*=\s*(?:{_TILE.format(p='p')}|(?P<pnum>{_NUM})))?{_END}"
)
_TILE_RE = re.compile(_TILE.format(p="") + _COPY.format(name="copy") + _END)
_SEP_RE = re.compile(r"[\s,]+")
_MELD_SEP_RE = re.compile(r"\s*(?:/|\||;|\n)\s*")


@dataclass(frozen=True, slots=True)
class TileToken:
    """One parsed tile with where it was typed, and for a joker an optional pinned face."""

    tile: Tile
    pin: Face | None
    index: int  # 1-based position in the list
    text: str

    def __str__(self) -> str:
        if self.pin is not None:
            return f"J={self.pin}"
        return str(self.tile)


def _number(text: str, token: str, index: int) -> int:
    value = int(text)
    if not 1 <= value <= 13:
        raise NotationError(
            "{token!r} (tile {index}) has number {number}; tiles run from 1 to 13.",
            token=token,
            index=index,
            number=value,
        )
    return value


def _tile_from_match(m: re.Match[str], prefix: str, token: str, index: int) -> tuple[Color, int]:
    color_text = m.group(f"{prefix}c1") or m.group(f"{prefix}c2")
    num_text = m.group(f"{prefix}n1") or m.group(f"{prefix}n2")
    return COLOR_WORDS[color_text], _number(num_text, token, index)


def parse_tokens(text: str) -> list[TileToken]:
    """Parse a list of tiles, keeping joker pins and positions."""
    source = text.lower()
    tokens: list[TileToken] = []
    pos = 0
    m_sep = _SEP_RE.match(source, pos)
    if m_sep:
        pos = m_sep.end()
    while pos < len(source):
        index = len(tokens) + 1
        m = _JOKER_RE.match(source, pos)
        if m:
            token = text[pos : m.end()]
            copy = int(m.group("jcopy") or 0)
            pin: Face | None = None
            if m.group("pc1") or m.group("pn2"):
                color, number = _tile_from_match(m, "p", token, index)
                pin = Face(color, number)
            elif m.group("pnum"):
                pin = Face(None, _number(m.group("pnum"), token, index))
            tokens.append(TileToken(Tile.joker(copy), pin, index, token))
        else:
            m = _TILE_RE.match(source, pos)
            if not m:
                end = _SEP_RE.search(source, pos)
                bad = text[pos : end.start() if end else len(source)]
                raise NotationError(
                    "{text!r} (tile {index}, character {position}) is not a tile; "
                    "write a colour letter K, B, O or R and a number, like R7, or J for a joker.",
                    text=bad,
                    index=index,
                    position=pos + 1,
                )
            token = text[pos : m.end()]
            color, number = _tile_from_match(m, "", token, index)
            copy = int(m.group("copy") or 0)
            tokens.append(TileToken(Tile(color, number, copy), None, index, token))
        pos = m.end()
        m_sep = _SEP_RE.match(source, pos)
        if m_sep:
            pos = m_sep.end()
        elif pos < len(source):
            raise NotationError(
                "Put a space between tiles near character {position} of {text!r}.",
                position=pos + 1,
                text=text,
            )
    return tokens


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile (a pin, if given, is checked but not kept)."""
    tokens = parse_tokens(text)
    if len(tokens) != 1:
        raise NotationError(
            "Expected one tile, got {count} in {text!r}.", count=len(tokens), text=text
        )
    return tokens[0].tile


def parse_tiles(text: str) -> list[Tile]:
    """Parse a list of tiles such as ``"R7 K9 J"``."""
    return [t.tile for t in parse_tokens(text)]


def split_melds(text: str) -> list[str]:
    """Split meld-list text on ``/``, ``|``, ``;`` or new lines, dropping empty parts."""
    return [part for part in _MELD_SEP_RE.split(text.strip()) if part.strip()]


def parse_meld_tokens(text: str) -> list[list[TileToken]]:
    """Parse ``"R4 R5 R6 / K9 B9 O9"`` into token lists, one per meld."""
    melds: list[list[TileToken]] = []
    for number, part in enumerate(split_melds(text), start=1):
        try:
            melds.append(parse_tokens(part))
        except NotationError as err:
            raise NotationError("Meld {number}: {reason}", number=number, reason=err) from None
    return melds
