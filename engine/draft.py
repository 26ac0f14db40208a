"""The turn draft: a private working copy of the table and a rack, edited step by step.

Every step either applies completely or raises ``IllegalMoveError`` and changes nothing. States
are snapshotted (not reverse-computed), so ``undo`` is exact and ``reset`` is free. Meld numbers
stay stable for the whole turn: emptied melds keep their number (shown empty) and new melds get
new numbers; the table is compacted only when the turn is committed. The draft records each step
as text (``steps``) so a restart can rebuild it by replaying them.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.actions import (
    Action,
    Arrange,
    Auto,
    Move,
    Play,
    Reset,
    Split,
    Swap,
    Undo,
    parse_action,
)
from engine.errors import IllegalMoveError, InvalidMeldError
from engine.melds import Meld, MeldKind, analyse, rebuild
from engine.messages import Msg, either
from engine.notation import TileToken
from engine.rules import turn_problems
from engine.tiles import Face, Tile, sort_tiles, tiles_text

if TYPE_CHECKING:
    from engine.game import Game


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


@dataclass(frozen=True, slots=True)
class DraftState:
    slots: tuple[Slot, ...]
    rack: tuple[Tile, ...]
    held: tuple[Tile, ...] = ()  # jokers taken from the table this turn, not yet placed


ON_RACK = Msg("on your rack")
NOTHING_TO_UNDO = Msg("There is nothing to undo.")
"""The plain answer to ``undo`` at the start of a turn (not an error: nothing changes)."""


def _in_meld(number: int) -> Msg:
    return Msg("in meld {number}", number=number)


Solver = Callable[[Sequence[Meld], Sequence[Tile], Sequence[Tile], bool, int], list[Meld]]


class Draft:
    """The current player's working copy of the table and their rack."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.base_table: tuple[Meld, ...] = tuple(game.table)
        self.base_rack: tuple[Tile, ...] = tuple(game.players[seat].rack)
        self.melded_before: bool = game.players[seat].melded
        self.base = DraftState(tuple(Slot.of(m) for m in self.base_table), self.base_rack)
        self.state = self.base
        self.history: list[DraftState] = []
        self.steps: list[str] = []

    # ----- reading -------------------------------------------------------------------------

    @property
    def slots(self) -> tuple[Slot, ...]:
        return self.state.slots

    @property
    def rack(self) -> tuple[Tile, ...]:
        return self.state.rack

    @property
    def held(self) -> tuple[Tile, ...]:
        return self.state.held

    @property
    def changed(self) -> bool:
        return self.state != self.base

    @property
    def played(self) -> tuple[Tile, ...]:
        """Rack tiles that are on the draft table now."""
        remaining = set(self.state.rack)
        return tuple(t for t in self.base_rack if t not in remaining)

    @property
    def touched(self) -> frozenset[Tile]:
        """Tiles whose place differs from the start of the turn (for highlighting)."""
        before = {t: i for i, s in enumerate(self.base.slots) for t in s.tiles}
        now = {t: i for i, s in enumerate(self.state.slots) for t in s.tiles}
        return frozenset(t for t, i in now.items() if before.get(t) != i)

    def melds(self) -> list[Meld]:
        """The final table if every non-empty slot is valid (raises otherwise)."""
        out = []
        for number, slot in enumerate(self.state.slots, start=1):
            if slot.tiles:
                try:
                    out.append(slot.meld())
                except InvalidMeldError as err:
                    raise IllegalMoveError(
                        "Meld {number}: {reason}", number=number, reason=err
                    ) from None
        return out

    def problems(self) -> list[str]:
        """Every reason the draft can't be committed now, as English sentences."""
        return [str(problem) for problem in self.problem_messages()]

    def problem_messages(self) -> list[Msg]:
        """Every reason the draft can't be committed now, as translatable messages (empty when
        legal)."""
        problems: list[Msg] = []
        if self.state.held:
            problems.append(
                Msg(
                    "The joker you took must be played this turn in a new set "
                    "(for example: play J {example}).",
                    example=self._example_pair(),
                )
            )
        for number, slot in enumerate(self.state.slots, start=1):
            error = slot.error_message()
            if error:
                problems.append(Msg("Meld {number}: {reason}", number=number, reason=error))
        if problems:
            if not self.played:
                problems.append(
                    Msg(
                        "You must play at least one tile from your rack (or draw to end your turn)."
                    )
                )
            return problems
        return turn_problems(
            self.base_table,
            self.base_rack,
            self.melds(),
            melded_before=self.melded_before,
            threshold=self.game.rules.opening_threshold,
        )

    @property
    def is_legal(self) -> bool:
        return not self.problem_messages()

    def validate(self) -> list[Meld]:
        """Return the final table or raise ``IllegalMoveError`` with the first problem."""
        problems = self.problem_messages()
        if problems:
            raise IllegalMoveError(problems[0])
        return self.melds()

    def _example_pair(self) -> str:
        return "K3 K4"

    # ----- steps ---------------------------------------------------------------------------

    def apply_text(self, text: str) -> Action:
        """Parse and apply one step such as ``play R5 R6 R7`` or ``move R7 from 2 to new``."""
        action = parse_action(text)
        self.apply(action)
        return action

    def apply(self, action: Action) -> None:
        if isinstance(action, Undo):
            self.undo()
            return
        if isinstance(action, Reset):
            self.reset()
            return
        if isinstance(action, Play):
            new = self._play(action)
        elif isinstance(action, Move):
            new = self._move(action)
        elif isinstance(action, Split):
            new = self._split(action)
        elif isinstance(action, Swap):
            new = self._swap(action)
        elif isinstance(action, Arrange):
            new = self._arrange_tokens(action.melds, action.exact)
        elif isinstance(action, Auto):
            new = self._auto(action)
        else:  # pragma: no cover - parse_action returns only the kinds above
            raise IllegalMoveError("{action} is not a draft step.", action=str(action))
        self._push(new, str(action))

    @property
    def can_undo(self) -> bool:
        return bool(self.history)

    def undo(self) -> bool:
        """Go one step back; with nothing to undo, change nothing and return False (a plain
        answer for the player, not an error)."""
        if not self.history:
            return False
        self.state = self.history.pop()
        self.steps.append("undo")
        return True

    def reset(self) -> None:
        if not self.changed:
            raise IllegalMoveError("Your draft is already the table as it was.")
        self.history.append(self.state)
        self.state = self.base
        self.steps.append("reset")

    def arrange_melds(self, melds: Sequence[Meld]) -> None:
        """State the whole new table (used by the AI and the solver)."""
        tokens = [
            [
                TileToken(t, f if t.is_joker else None, i + 1, str(t))
                for i, (t, f) in enumerate(zip(m.tiles, m.faces, strict=True))
            ]
            for m in melds
        ]
        new = self._arrange_tokens(tokens, exact=True)
        self._push(new, str(Arrange(tuple(tuple(ts) for ts in tokens), exact=True)))

    def fork(self) -> Draft:
        """An independent copy of this draft (same turn, same state and history)."""
        twin = Draft.__new__(Draft)
        twin.game = self.game
        twin.seat = self.seat
        twin.base_table = self.base_table
        twin.base_rack = self.base_rack
        twin.melded_before = self.melded_before
        twin.base = self.base
        twin.state = self.state
        twin.history = list(self.history)
        twin.steps = list(self.steps)
        return twin

    def _push(self, new: DraftState, text: str) -> None:
        self.history.append(self.state)
        self.state = new
        self.steps.append(text)

    # ----- step implementations: each returns the new state or raises ---------------------

    def _slot_index(self, number: int) -> int:
        if not 1 <= number <= len(self.state.slots) or not self.state.slots[number - 1].tiles:
            existing = [i + 1 for i, s in enumerate(self.state.slots) if s.tiles]
            if not existing:
                raise IllegalMoveError(
                    "There is no meld {number}; the table is empty.", number=number
                )
            raise IllegalMoveError(
                "There is no meld {number}; the melds are numbered {first} to {last}.",
                number=number,
                first=existing[0],
                last=existing[-1],
            )
        return number - 1

    def _is_new(self, index: int) -> bool:
        return index >= len(self.base.slots)

    def _need_melded(self, what: Msg) -> None:
        if not self.melded_before:
            raise IllegalMoveError(
                "You can't {what} before your initial meld: first play new sets worth "
                "{threshold} or more from your rack.",
                what=what,
                threshold=self.game.rules.opening_threshold,
            )

    def _take(self, tokens: Sequence[TileToken], source: Sequence[Tile], where: Msg) -> list[Tile]:
        """Pick physical tiles matching ``tokens`` out of ``source`` (faces; copies if given)."""
        pool = list(source)
        picked: list[Tile] = []
        for token in tokens:
            match = next((t for t in pool if t == token.tile), None)
            if match is None:
                match = next((t for t in pool if t.same_face(token.tile)), None)
            if match is None:
                raise IllegalMoveError(
                    "There is no {tile} {where}.", tile=str(token.tile), where=where
                )
            pool.remove(match)
            picked.append(match)
        return picked

    def _pins(self, tokens: Sequence[TileToken], tiles: Sequence[Tile]) -> dict[Tile, Face]:
        return {
            tile: token.pin
            for token, tile in zip(tokens, tiles, strict=True)
            if token.pin is not None
        }

    def _play(self, action: Play) -> DraftState:
        state = self.state
        available = list(state.held) + list(state.rack)
        tiles = self._take(action.tiles, available, ON_RACK)
        held = [t for t in state.held if t not in tiles]
        rack = [t for t in state.rack if t not in tiles]
        pins = self._pins(action.tiles, tiles)
        slots = list(state.slots)
        if action.target is None:
            slot = Slot(tuple(tiles), tuple(pins.items()))
            if any(t.is_joker for t in tiles) and pins:
                self._check_pins(tiles, action.tiles)
            slots.append(slot.normalised())
        else:
            index = self._slot_index(action.target)
            if not self._is_new(index):
                self._need_melded(Msg("add to a meld on the table"))
            slot = slots[index]
            merged = self._merge(slot, tiles)
            slots[index] = Slot(merged, slot.pins + tuple(pins.items())).normalised()
        return DraftState(tuple(slots), tuple(rack), tuple(held))

    def _check_pins(self, tiles: Sequence[Tile], tokens: Sequence[TileToken]) -> None:
        index_pins = {i: token.pin for i, token in enumerate(tokens) if token.pin is not None}
        try:
            analyse(tiles, index_pins, None)
        except InvalidMeldError as err:
            raise IllegalMoveError(err.msg) from None

    @staticmethod
    def _merge(slot: Slot, tiles: Sequence[Tile]) -> tuple[Tile, ...]:
        """Add tiles to a slot, each run tile going where its number belongs."""
        current = list(slot.tiles)
        try:
            meld = slot.meld()
        except InvalidMeldError:
            return tuple(current + list(tiles))
        result = list(current)
        faces = list(meld.faces)
        for tile in tiles:
            if tile.is_joker or meld.kind is MeldKind.GROUP:
                result.append(tile)
                continue
            position = len(result)
            for i, face in enumerate(faces):
                if face.number > tile.number:
                    position = i
                    break
            result.insert(position, tile)
            faces.insert(position, tile.face)
        return tuple(result)

    def _move(self, action: Move) -> DraftState:
        state = self.state
        src = self._slot_index(action.source)
        if action.target is not None:
            dst = self._slot_index(action.target)
            if dst == src:
                raise IllegalMoveError("The tiles are already in that meld.")
        else:
            dst = None
        if not self._is_new(src) or (dst is not None and not self._is_new(dst)):
            self._need_melded(Msg("move tiles on the table"))
        slots = list(state.slots)
        source = slots[src]
        tiles = self._take(action.tiles, source.tiles, _in_meld(action.source))
        left = tuple(t for t in source.tiles if t not in tiles)
        pins_left = tuple((t, f) for t, f in source.pins if t in left)
        slots[src] = Slot(left, pins_left).normalised()
        moved_pins = tuple((t, f) for t, f in source.pins if t in tiles)
        moved_pins += tuple(self._pins(action.tiles, tiles).items())
        if dst is None:
            slots.append(Slot(tuple(tiles), moved_pins).normalised())
        else:
            target = slots[dst]
            slots[dst] = Slot(self._merge(target, tiles), target.pins + moved_pins).normalised()
        return DraftState(tuple(slots), state.rack, state.held)

    def _split(self, action: Split) -> DraftState:
        state = self.state
        index = self._slot_index(action.meld)
        if not self._is_new(index):
            self._need_melded(Msg("split a meld on the table"))
        slot = state.slots[index]
        tiles = list(slot.tiles)
        at = self._split_tile(action.at, slot, action.meld)
        position = tiles.index(at)
        if position == 0:
            raise IllegalMoveError(
                "{tile} is the first tile of meld {number}; split before a later tile.",
                tile=str(at),
                number=action.meld,
            )
        left, right = tuple(tiles[:position]), tuple(tiles[position:])
        slots = list(state.slots)
        slots[index] = Slot(left, tuple(p for p in slot.pins if p[0] in left)).normalised()
        slots.append(Slot(right, tuple(p for p in slot.pins if p[0] in right)).normalised())
        return DraftState(tuple(slots), state.rack, state.held)

    def _split_tile(self, token: TileToken, slot: Slot, number: int) -> Tile:
        """The tile to split before: a real tile of that face, else a joker standing for it
        (the player sees ``J=K8`` and says K8)."""
        if any(t.same_face(token.tile) for t in slot.tiles):
            return self._take([token], slot.tiles, _in_meld(number))[0]
        try:
            meld = slot.meld()
        except InvalidMeldError:
            meld = None
        if meld is not None and not token.tile.is_joker:
            for tile, face in zip(meld.tiles, meld.faces, strict=True):
                if tile.is_joker and face == token.tile.face:
                    return tile
        return self._take([token], slot.tiles, _in_meld(number))[0]

    def _swap(self, action: Swap) -> DraftState:
        state = self.state
        self._need_melded(Msg("take a joker"))
        index = self._slot_index(action.meld)
        slot = state.slots[index]
        jokers = [t for t in slot.tiles if t.is_joker]
        if not jokers:
            raise IllegalMoveError("Meld {number} has no joker.", number=action.meld)
        try:
            meld = slot.meld()
        except InvalidMeldError:
            raise IllegalMoveError(
                "Meld {number} is not a valid set right now, so its joker stands for "
                "nothing; fix it first.",
                number=action.meld,
            ) from None
        if action.source is None:
            replacement = self._take([action.tile], state.rack, ON_RACK)[0]
        else:
            src = self._slot_index(action.source)
            if src == index:
                raise IllegalMoveError("Take the replacement tile from another meld or your rack.")
            replacement = self._take(
                [action.tile], state.slots[src].tiles, _in_meld(action.source)
            )[0]
        if replacement.is_joker:
            raise IllegalMoveError("Swap a joker for the real tile it stands for, not a joker.")
        joker = None
        for candidate in jokers:
            options = meld.joker_options(candidate)
            if any(
                o.number == replacement.number and o.color in (None, replacement.color)
                for o in options
            ):
                joker = candidate
                break
        if joker is None:
            stands = [str(o) for j in jokers for o in meld.joker_options(j)]
            raise IllegalMoveError(
                "The joker in meld {number} stands for {faces}, not {tile}.",
                number=action.meld,
                faces=either(stands),
                tile=str(replacement),
            )
        slots = list(state.slots)
        rack = list(state.rack)
        if action.source is None:
            rack.remove(replacement)
        else:
            src_slot = slots[src]
            kept = tuple(t for t in src_slot.tiles if t != replacement)
            slots[src] = Slot(kept, tuple(p for p in src_slot.pins if p[0] in kept)).normalised()
            slot = slots[index]
        new_tiles = tuple(replacement if t == joker else t for t in slot.tiles)
        slots[index] = Slot(new_tiles, tuple(p for p in slot.pins if p[0] != joker)).normalised()
        return DraftState(tuple(slots), tuple(rack), (*state.held, joker))

    def _arrange_tokens(
        self, melds: Sequence[Sequence[TileToken]], exact: bool = False
    ) -> DraftState:
        """The state after stating the whole table: faces, with the physical copies chosen so
        that the turn is legal if any choice makes it so (table copies kept where they are
        wherever possible); the first choice when none does (``done`` then says why)."""
        state = self.state
        first: DraftState | None = None
        for choice in _copy_choices(melds, state.slots, state.held, state.rack, exact):
            slots: list[Slot] = []
            for tokens, tiles in zip(melds, choice, strict=True):
                pins = self._pins(tokens, tiles)
                slots.append(Slot(tuple(tiles), tuple(pins.items())).normalised())
            used = {t for tiles in choice for t in tiles}
            rack = tuple(t for t in state.rack if t not in used)
            candidate = DraftState(tuple(slots), rack, ())
            problems = self._state_problems(candidate)
            if not problems:
                return candidate
            if first is None:
                first = candidate
                if not any(p.template in _COPY_PROBLEMS for p in problems):
                    break  # which copy is where cannot fix this
        assert first is not None
        return first

    def _state_problems(self, state: DraftState) -> list[Msg]:
        """What ``done`` would say about a state with every tile placed (an invalid set:
        its reason alone, which no choice of copies can change)."""
        try:
            final = [slot.meld() for slot in state.slots if slot.tiles]
        except InvalidMeldError as err:
            return [err.msg]
        return turn_problems(
            self.base_table,
            self.base_rack,
            final,
            melded_before=self.melded_before,
            threshold=self.game.rules.opening_threshold,
        )

    def _auto(self, action: Auto) -> DraftState:
        from engine.hints import best_final

        state = self.state
        wanted = self._take(action.tiles, list(state.held) + list(state.rack), ON_RACK)
        melds = best_final(self, wanted or None)
        if melds is None:
            raise self._auto_refusal(wanted)
        tokens = [
            [
                TileToken(t, f if t.is_joker else None, i + 1, str(t))
                for i, (t, f) in enumerate(zip(m.tiles, m.faces, strict=True))
            ]
            for m in melds
        ]
        new = self._arrange_tokens(tokens, exact=True)
        return DraftState(_keep_numbers(state.slots, new.slots), new.rack, new.held)

    def _auto_refusal(self, wanted: Sequence[Tile]) -> IllegalMoveError:
        """Why ``auto`` found nothing: what can be placed instead, when something can."""
        from engine.hints import best_final

        if not wanted:
            return IllegalMoveError("No tile from your rack can be placed; draw instead.")
        names = tiles_text(wanted)
        threshold = self.game.rules.opening_threshold
        partial = best_final(self)
        can = [t for t in self.state.rack if partial and any(t in m.tiles for m in partial)]
        if not self.melded_before:
            if not can:
                return IllegalMoveError(
                    "{tiles} cannot make an initial meld worth {threshold} from your rack alone.",
                    tiles=names,
                    threshold=threshold,
                )
            return IllegalMoveError(
                "{tiles} cannot all go into your initial meld; {can} can (auto {can}).",
                tiles=names,
                can=tiles_text(can),
            )
        if not can:
            return IllegalMoveError("None of {tiles} can be placed on this table.", tiles=names)
        return IllegalMoveError(
            "{tiles} cannot all be placed; {can} can (auto {can}).",
            tiles=names,
            can=tiles_text(can),
        )


def _keep_numbers(current: Sequence[Slot], new: Sequence[Slot]) -> tuple[Slot, ...]:
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


# ----- faces, not copies: choosing physical tiles for an arrangement stated by faces -----------

_COPY_PROBLEMS = frozenset(
    {
        "A joker on the table must stay on the table.",
        "You can take a joker from the table only after your initial meld.",
        "To take the joker from meld {number}, put {wanted} in its place in that set.",
        "A joker taken from the table must go into a new set, not onto a set that was already "
        "there.",
        "The joker in meld {number} would stand for {face} instead of {wanted}; to take it, "
        "write: swap J in {number} with {wanted}, then play it in a new set.",
        "Before your initial meld you can't change the sets on the table; play new sets from "
        "your rack only.",
        "Your initial meld must use only tiles from your own rack.",
    }
)
"""The problems of a stated table that another choice of physical copies might remove."""

_MAX_CHOICES = 200
"""How many copy assignments an arrangement tries before settling for the first one."""


def _face_key(tile: Tile) -> tuple[int, int]:
    return (-1 if tile.color is None else tile.color.order, tile.number)


def _match_melds(melds: Sequence[Sequence[TileToken]], slots: Sequence[Slot]) -> dict[int, int]:
    """Pair each stated meld with the draft slot it shares most faces with (a joker counts
    more: where a table joker goes decides the joker rule), one to one."""
    pairs: list[tuple[int, int, int]] = []
    for m, tokens in enumerate(melds):
        want = Counter(_face_key(t.tile) for t in tokens)
        for j, slot in enumerate(slots):
            have = Counter(_face_key(t) for t in slot.tiles)
            common = want & have
            weight = sum(3 * c if key[1] == 0 else 2 * c for key, c in common.items())
            if weight:
                pairs.append((weight, m, j))
    pairs.sort(key=lambda p: (-p[0], p[1] != p[2], p[2], p[1]))
    home: dict[int, int] = {}
    taken: set[int] = set()
    for _, m, j in pairs:
        if m not in home and j not in taken:
            home[m] = j
            taken.add(j)
    return home


def _copy_choices(
    melds: Sequence[Sequence[TileToken]],
    slots: Sequence[Slot],
    held: Sequence[Tile],
    rack: Sequence[Tile],
    exact: bool,
) -> Iterator[list[list[Tile]]]:
    """Ways to give every stated tile a physical copy, the most natural first: a named copy
    (``R7#1``, or every tile when ``exact``) where it exists, every table copy used, a table
    copy staying in the meld that continues its slot. Raises when the faces cannot fit."""
    where: dict[Tile, int] = {t: j for j, slot in enumerate(slots) for t in slot.tiles}
    where.update({t: -1 for t in held})
    table = [t for slot in slots for t in slot.tiles] + list(held)
    pools_table: dict[tuple[int, int], list[Tile]] = {}
    for tile in table:
        pools_table.setdefault(_face_key(tile), []).append(tile)
    pools_rack: dict[tuple[int, int], list[Tile]] = {}
    for tile in rack:
        pools_rack.setdefault(_face_key(tile), []).append(tile)
    fixed: dict[tuple[int, int], Tile] = {}
    everything = set(table) | set(rack)
    for m, tokens in enumerate(melds):
        for i, token in enumerate(tokens):
            named = exact or "#" in token.text
            if named and token.tile in everything and token.tile not in fixed.values():
                fixed[(m, i)] = token.tile
    for tile in fixed.values():
        pool = pools_table if tile in where else pools_rack
        pool[_face_key(tile)].remove(tile)
    positions: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for m, tokens in enumerate(melds):
        for i, token in enumerate(tokens):
            if (m, i) not in fixed:
                positions.setdefault(_face_key(token.tile), []).append((m, i))
    for key, places in positions.items():
        spare = len(pools_table.get(key, ())) + len(pools_rack.get(key, ()))
        if len(places) > spare:
            m, i = places[spare]
            raise IllegalMoveError(
                "Meld {number}: there is no {tile} on the table or your rack left to use.",
                number=m + 1,
                tile=str(melds[m][i].tile),
            )
    left_out = [t for key, pool in pools_table.items() for t in pool[len(positions.get(key, ())) :]]
    if left_out:
        raise IllegalMoveError(
            "Every tile on the table must stay on the table; your arrangement leaves out {tiles}.",
            tiles=tiles_text(sort_tiles(left_out)),
        )
    home = _match_melds(melds, slots)
    options: list[list[dict[tuple[int, int], Tile]]] = []
    for key, places in positions.items():
        copies = pools_table.get(key, [])
        spares = pools_rack.get(key, [])
        ways: list[tuple[int, int, dict[tuple[int, int], Tile]]] = []
        for order, chosen in enumerate(itertools.permutations(places, len(copies))):
            way = dict(zip(chosen, copies, strict=True))
            rest = iter(spares)
            for place in places:
                if place not in way:
                    way[place] = next(rest)
            at_home = sum(1 for (m, _), t in way.items() if t in where and home.get(m) == where[t])
            ways.append((-at_home, order, way))
        ways.sort(key=lambda w: (w[0], w[1]))
        options.append([w[2] for w in ways])

    def build(picks: Sequence[dict[tuple[int, int], Tile]]) -> list[list[Tile]]:
        chosen = dict(fixed)
        for pick in picks:
            chosen.update(pick)
        return [[chosen[(m, i)] for i in range(len(tokens))] for m, tokens in enumerate(melds)]

    preferred = [ways[0] for ways in options]
    yield build(preferred)
    tried = 1
    open_faces = [k for k, ways in enumerate(options) if len(ways) > 1]
    for depth in (1, 2):
        for faces in itertools.combinations(open_faces, depth):
            for picks in itertools.product(*(options[k][1:] for k in faces)):
                current = list(preferred)
                for k, pick in zip(faces, picks, strict=True):
                    current[k] = pick
                yield build(current)
                tried += 1
                if tried >= _MAX_CHOICES:
                    return
