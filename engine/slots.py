"""The draft table's places: a ``Slot`` per meld number, a ``DraftState`` of a whole draft, and
how a new table keeps the meld numbers the player sees.

Plain values: a slot may hold tiles that are not (yet) a valid set, and says why; a state is
what ``undo`` goes back to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import InvalidMeldError
from engine.melds import Meld, rebuild
from engine.messages import Msg
from engine.notation import TileToken
from engine.tiles import Face, Tile, tiles_text


@dataclass(frozen=True, slots=True)
class Slot:
    """One meld position on the draft table: its tiles (valid or not) and its joker faces."""

    tiles: tuple[Tile, ...]
    pins: tuple[tuple[Tile, Face], ...] = ()

    @classmethod
    def of(cls, meld: Meld) -> Slot:
        return cls(meld.tiles, tuple(meld.pins().items()))

    def meld(self) -> Meld:
        """The valid meld these tiles form (raises ``InvalidMeldError`` with the reason)."""
        return rebuild(self.tiles, dict(self.pins))

    def error(self) -> str | None:
        """Why these tiles are not a valid set (English), or None."""
        problem = self.error_message()
        return None if problem is None else str(problem)

    def error_message(self) -> Msg | None:
        """Why these tiles are not a valid set, as a translatable message, or None."""
        if not self.tiles:
            return None
        try:
            self.meld()
        except InvalidMeldError as err:
            return err.msg
        return None

    def normalised(self) -> Slot:
        """Canonical order and fresh joker faces when valid; as typed otherwise."""
        if not self.tiles:
            return self
        try:
            return Slot.of(self.meld())
        except InvalidMeldError:
            return self

    def text(self) -> str:
        try:
            return self.meld().text()
        except InvalidMeldError:
            return tiles_text(self.tiles)

    def tokens(self) -> tuple[TileToken, ...]:
        """The slot as exact tokens (physical copies, each joker with the face it shows), the
        form an arrangement is stated in."""
        try:
            meld = self.meld()
        except InvalidMeldError:
            pins = dict(self.pins)
            pairs = [(t, pins.get(t)) for t in self.tiles]
        else:
            faces = zip(meld.tiles, meld.faces, strict=True)
            pairs = [(t, f if t.is_joker else None) for t, f in faces]
        return tuple(
            TileToken(t, pin, i, t.code if pin is None else f"{t.code}={pin}")
            for i, (t, pin) in enumerate(pairs, start=1)
        )


@dataclass(frozen=True, slots=True)
class DraftState:
    """A whole draft at one moment: the slots by meld number, the rack, and the jokers taken
    from the table this turn and not yet placed."""

    slots: tuple[Slot, ...]
    rack: tuple[Tile, ...]
    held: tuple[Tile, ...] = ()


def keep_numbers(current: Sequence[Slot], new: Sequence[Slot]) -> tuple[Slot, ...]:
    """Place a new table's melds at the numbers the player sees: a meld that did not change
    keeps its number (and is left exactly as it was), a changed meld takes the number of the
    meld it keeps most tiles of, and the rest get new numbers; used-up melds stay empty."""
    out: list[Slot] = [Slot(()) for _ in current]
    claimed: set[int] = set()
    by_tiles = {frozenset(s.tiles): j for j, s in enumerate(current) if s.tiles}
    rest: list[Slot] = []
    for slot in new:
        j = by_tiles.get(frozenset(slot.tiles))
        if j is not None and j not in claimed:
            claimed.add(j)
            same = current[j].text() == slot.text()
            out[j] = current[j] if same else slot
        else:
            rest.append(slot)
    extra: list[Slot] = []
    for slot in rest:
        tiles = set(slot.tiles)
        overlaps = [
            (len(tiles & set(s.tiles)), -j)
            for j, s in enumerate(current)
            if j not in claimed and tiles & set(s.tiles)
        ]
        if overlaps:
            j = -max(overlaps)[1]
            claimed.add(j)
            out[j] = slot
        else:
            extra.append(slot)
    return (*out, *extra)
