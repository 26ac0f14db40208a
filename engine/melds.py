"""Groups and runs: checking, joker resolution, values and human explanations.

A ``Meld`` is always valid: ``Meld.build`` either returns one (tiles in canonical order, each
joker resolved to the face it stands for) or raises ``InvalidMeldError`` with a sentence that says
what is wrong ("7 is missing").
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.errors import InvalidMeldError
from engine.messages import Msg, both
from engine.tiles import COLORS, Color, Face, Tile, distinct_copies, tiles_text


class MeldKind(enum.Enum):
    GROUP = "group"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal set on the table.

    ``tiles`` is in canonical order (runs ascending with jokers in their places; groups by colour
    with jokers last); ``faces[i]`` is what ``tiles[i]`` shows or stands for. A joker in a
    three-tile group stands for ``Face(None, n)``: either missing colour.
    """

    tiles: tuple[Tile, ...]
    faces: tuple[Face, ...]
    kind: MeldKind

    @classmethod
    def build(
        cls,
        tiles: Sequence[Tile],
        pins: Mapping[int, Face] | None = None,
        kind: MeldKind | None = None,
    ) -> Meld:
        """Check ``tiles`` (in the order typed) and resolve jokers; ``pins`` maps an index in
        ``tiles`` to the face that joker must stand for."""
        return analyse(tiles, pins or {}, kind)

    @classmethod
    def parse(cls, text: str) -> Meld:
        from engine.notation import parse_tokens

        tokens = parse_tokens(text)
        pins = {i: t.pin for i, t in enumerate(tokens) if t.pin is not None}
        return analyse(distinct_copies(t.tile for t in tokens), pins, None)

    @property
    def value(self) -> int:
        """Points this meld is worth (a joker counts as the tile it stands for)."""
        return sum(face.number for face in self.faces)

    @property
    def color(self) -> Color | None:
        return self.faces[0].color if self.kind is MeldKind.RUN else None

    @property
    def number(self) -> int | None:
        return self.faces[0].number if self.kind is MeldKind.GROUP else None

    @property
    def jokers(self) -> tuple[Tile, ...]:
        # (asked for thousands of times per solve: a list and ``color`` are cheaper than a
        # generator and ``is_joker``)
        return tuple([t for t in self.tiles if t.color is None])

    def pins(self) -> dict[Tile, Face]:
        """The face each joker stands for, keyed by the joker tile."""
        return {t: f for t, f in zip(self.tiles, self.faces, strict=True) if t.is_joker}

    def missing_colors(self) -> tuple[Color, ...]:
        """For a group: the colours no real tile shows (what its jokers may stand for)."""
        if self.kind is not MeldKind.GROUP:
            return ()
        present = {t.color for t in self.tiles if not t.is_joker}
        return tuple(c for c in COLORS if c not in present)

    def joker_options(self, joker: Tile) -> tuple[Face, ...]:
        """The faces a real tile must show to replace ``joker`` in this meld."""
        index = self.tiles.index(joker)
        face = self.faces[index]
        if face.color is not None:
            if self.kind is MeldKind.GROUP:
                return tuple(Face(c, face.number) for c in self.missing_colors())
            return (face,)
        return tuple(Face(c, face.number) for c in self.missing_colors())

    def text(self) -> str:
        """Strict text with jokers shown as what they stand for: ``J=R4 R5 R6``."""
        return " ".join(
            f"J={face}" if tile.is_joker else str(tile)
            for tile, face in zip(self.tiles, self.faces, strict=True)
        )

    def code(self) -> str:
        """Like ``text`` but with physical copies (``R7#1``), for snapshots."""
        parts = []
        for tile, face in zip(self.tiles, self.faces, strict=True):
            if tile.is_joker:
                parts.append(f"{tile.code}={face}")
            else:
                parts.append(tile.code)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    def __len__(self) -> int:
        return len(self.tiles)


def _fail(tiles: Sequence[Tile], reason: Msg) -> InvalidMeldError:
    return InvalidMeldError(
        "{tiles} is not a valid set: {reason}.", tiles=tiles_text(tiles), reason=reason
    )


def _missing(numbers: Iterable[int]) -> Msg:
    """The reason a run has a gap: 7 is missing, 5, 6 and 8 are missing."""
    items = sorted(numbers)
    if len(items) == 1:
        return Msg("{number} is missing", number=items[0])
    return Msg("{numbers} are missing", numbers=both(items))


def analyse(tiles: Sequence[Tile], pins: Mapping[int, Face], kind: MeldKind | None) -> Meld:
    """Return the valid meld ``tiles`` form, or raise ``InvalidMeldError`` saying why."""
    tiles = list(tiles)
    n = len(tiles)
    if len(set(tiles)) != n:
        raise _fail(tiles, Msg("the same physical tile appears twice"))
    reals = [t for t in tiles if not t.is_joker]
    if n < 3:
        raise _fail(tiles, Msg("a set needs at least 3 tiles, this has {count}", count=n))
    if not reals:
        raise _fail(tiles, Msg("a set needs at least one real tile besides jokers"))
    for index in pins:
        if not 0 <= index < n or not tiles[index].is_joker:
            raise InvalidMeldError(
                "Only a joker can be pinned (J=R4), not {tile}.", tile=str(tiles[index])
            )
    numbers = {t.number for t in reals}
    colors = {t.color for t in reals}
    pin_colors = {p.color for p in pins.values() if p.color is not None}
    pin_numbers = {p.number for p in pins.values()}

    could_group = (
        kind is not MeldKind.RUN and len(numbers) == 1 and (len(pin_numbers | numbers) == 1)
    )
    could_run = (
        kind is not MeldKind.GROUP
        and len(colors | pin_colors) == 1
        and not any(p.color is None for p in pins.values())
    )
    group: Meld | None = None
    run: Meld | None = None
    group_error: InvalidMeldError | None = None
    run_error: InvalidMeldError | None = None
    if could_group:
        try:
            group = _group(tiles, pins)
        except InvalidMeldError as err:
            group_error = err
    if could_run:
        try:
            run = _run(tiles, pins)
        except InvalidMeldError as err:
            run_error = err
    if group is not None and run is not None:
        return run if run.value >= group.value else group
    if run is not None:
        return run
    if group is not None:
        return group
    if run_error is not None and (group_error is None or len(numbers) > 1):
        raise run_error
    if group_error is not None:
        raise group_error
    # Neither shape fits at all: explain with the closest one.
    if len(colors) > 1 and len(numbers) > 1:
        raise _fail(
            tiles,
            Msg(
                "a group needs one number in different colours and a run one colour in a row; "
                "this mixes numbers and colours"
            ),
        )
    if kind is MeldKind.RUN or len(numbers) > 1:
        raise _fail(tiles, Msg("a run must be all one colour"))
    raise _fail(tiles, Msg("a group must be one number"))


def _group(tiles: list[Tile], pins: Mapping[int, Face]) -> Meld:
    n = len(tiles)
    reals = [t for t in tiles if not t.is_joker]
    number = reals[0].number
    if n > 4:
        raise _fail(
            tiles, Msg("a group has at most 4 tiles (one per colour), this has {count}", count=n)
        )
    seen: set[Color] = set()
    for t in reals:
        assert t.color is not None
        if t.color in seen:
            raise _fail(
                tiles, Msg("a group needs different colours, and {tile} appears twice", tile=str(t))
            )
        seen.add(t.color)
    missing = [c for c in COLORS if c not in seen]
    jokers = [i for i, t in enumerate(tiles) if t.is_joker]
    free = list(missing)
    for i in jokers:
        pin = pins.get(i)
        if pin is None:
            continue
        if pin.number != number:
            raise _fail(
                tiles,
                Msg(
                    "the joker is pinned to {pin} but this is a group of {number}s",
                    pin=str(pin),
                    number=number,
                ),
            )
        if pin.color is not None:
            if pin.color not in free:
                raise _fail(
                    tiles,
                    Msg("the joker cannot be {pin}: that colour is already there", pin=str(pin)),
                )
            free.remove(pin.color)
    if len(jokers) + len(reals) > 4:
        raise _fail(tiles, Msg("a group has at most 4 tiles"))
    # What a group joker shows depends on the group alone, never on how it got there (a pin
    # or the face it had in another set): the one missing colour when a single joker fills
    # the group, else "a missing colour" (J=9).
    shown = Face(missing[0], number) if len(missing) == 1 and len(jokers) == 1 else None
    faces = {i: shown or Face(None, number) for i in jokers}
    ordered_reals = sorted(reals, key=lambda t: t.sort_key())
    ordered = ordered_reals + [tiles[i] for i in jokers]
    ordered_faces = [t.face for t in ordered_reals] + [faces[i] for i in jokers]
    return Meld(tuple(ordered), tuple(ordered_faces), MeldKind.GROUP)


def _run(tiles: list[Tile], pins: Mapping[int, Face]) -> Meld:
    n = len(tiles)
    reals = [t for t in tiles if not t.is_joker]
    color = reals[0].color
    by_number: dict[int, Tile] = {}
    for t in reals:
        if t.number in by_number:
            raise _fail(tiles, Msg("a run cannot hold two {number}s", number=t.number))
        by_number[t.number] = t
    if n > 13:
        raise _fail(tiles, Msg("a run has at most 13 tiles (1 to 13)"))
    anchored: dict[int, Tile] = dict(by_number)
    for i, pin in pins.items():
        if pin.color != color:
            raise _fail(
                tiles,
                Msg(
                    "the joker is pinned to {pin} but this run is {color}",
                    pin=str(pin),
                    color=color and color.code,
                ),
            )
        if pin.number in anchored:
            raise _fail(
                tiles, Msg("the joker is pinned to {pin} but {pin} is already there", pin=str(pin))
            )
        anchored[pin.number] = tiles[i]
    lo, hi = min(anchored), max(anchored)
    gaps = [k for k in range(lo, hi + 1) if k not in anchored]
    free = [i for i, t in enumerate(tiles) if t.is_joker and i not in pins]
    if len(gaps) > len(free):
        if 1 in anchored and 13 in anchored:
            raise _fail(
                tiles, Msg("1 is always the lowest tile, so a run cannot go from 13 back to 1")
            )
        raise _fail(tiles, _missing(gaps))
    extra = len(free) - len(gaps)
    anchor_positions = [i for i, t in enumerate(tiles) if not t.is_joker or i in pins]
    first_anchor = anchor_positions[0]
    typed_before = sum(1 for i in free if i < first_anchor)
    low = min(typed_before, extra, lo - 1)
    high = extra - low
    if hi + high > 13:
        high = 13 - hi
        low = extra - high
    if lo - low < 1:
        raise _fail(tiles, Msg("a run cannot go past 13 or below 1 (no 13-1 wrap)"))
    free_iter = iter(free)
    slots: list[tuple[Tile, Face]] = []
    for k in range(lo - low, hi + high + 1):
        tile = anchored[k] if k in anchored else tiles[next(free_iter)]
        assert color is not None
        slots.append((tile, Face(color, k)))
    return Meld(tuple(t for t, _ in slots), tuple(f for _, f in slots), MeldKind.RUN)


def is_valid_meld(tiles: Sequence[Tile]) -> bool:
    try:
        analyse(tiles, {}, None)
    except InvalidMeldError:
        return False
    return True


def rebuild(tiles: Sequence[Tile], previous: Mapping[Tile, Face]) -> Meld:
    """Build a meld keeping each joker on the face it stood for where that still fits.

    Used when tiles are added to or taken from a meld on the table: a joker that stood for R7
    keeps standing for R7 unless the change makes that impossible.
    """
    pins = {i: previous[t] for i, t in enumerate(tiles) if t.is_joker and t in previous}
    if pins:
        try:
            return analyse(tiles, pins, None)
        except InvalidMeldError:
            pass
    return analyse(tiles, {}, None)
