"""The turn draft: a private working copy of the table and a rack, edited step by step.

Every step either applies completely or raises ``IllegalMoveError`` and changes nothing. States
are snapshotted (not reverse-computed), so ``undo`` is exact and ``reset`` is free. Meld numbers
stay stable for the whole turn: emptied melds keep their number (shown empty) and new melds get
new numbers; the table is compacted only when the turn is committed. The draft records each step
as text (``steps``) so a restart can rebuild it by replaying them.

The draft is a value: it knows the rules (``engine.rules``) but no solver. ``auto`` reaches it
already resolved into a table by meld number (``engine.steps.apply_step`` asks the solver);
its slots and states are in ``engine.slots``, the choice of physical copies for a table stated
by faces in ``engine.copies``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

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
from engine.copies import COPY_PROBLEMS, copy_choices
from engine.errors import IllegalMoveError, InvalidMeldError
from engine.melds import Meld, MeldKind, analyse
from engine.messages import Msg, either
from engine.notation import TileToken
from engine.rules import turn_problems
from engine.settings import Rules
from engine.slots import DraftState, Slot, keep_numbers
from engine.tiles import Face, Tile


class Seated(Protocol):
    """What a draft reads of its player's seat: the rack, and whether they have melded."""

    @property
    def rack(self) -> Sequence[Tile]: ...
    @property
    def melded(self) -> bool: ...


class Position(Protocol):
    """What a draft reads of the game it was opened on (an ``engine.Game``): the table, the
    seats and the rules. Declared here so that the draft does not import the game that holds
    it."""

    @property
    def table(self) -> Sequence[Meld]: ...
    @property
    def players(self) -> Sequence[Seated]: ...
    @property
    def rules(self) -> Rules: ...


ON_RACK = Msg("on your rack")
NOTHING_TO_UNDO = Msg("There is nothing to undo.")
"""The plain answer to ``undo`` at the start of a turn (not an error: nothing changes)."""


def _in_meld(number: int) -> Msg:
    return Msg("in meld {number}", number=number)


class Draft:
    """The current player's working copy of the table and their rack."""

    def __init__(self, game: Position, seat: int) -> None:
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
        """Parse and apply one step such as ``play R5 R6 R7`` or ``move R7 from 2 to new``
        (``auto`` only when resolved: every typed or stored step goes through
        ``engine.steps.apply_step``)."""
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
            if action.layout is None:
                raise TypeError(
                    "an auto step needs the solver: apply it with engine.steps.apply_step"
                )
            new = self._lay_out(action.layout)
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

    def layout_of(self, melds: Sequence[Meld]) -> tuple[Slot, ...]:
        """The draft's slots after stating ``melds`` as the whole table (exact copies), the
        melds the player sees kept at their numbers: what an ``auto`` answer looks like."""
        arranged = self._arrange_tokens([Slot.of(m).tokens() for m in melds], exact=True)
        return keep_numbers(self.state.slots, arranged.slots)

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

    def take(self, tokens: Sequence[TileToken], source: Sequence[Tile], where: Msg) -> list[Tile]:
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
        tiles = self.take(action.tiles, available, ON_RACK)
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
        tiles = self.take(action.tiles, source.tiles, _in_meld(action.source))
        left = tuple(t for t in source.tiles if t not in tiles)
        pins_left = tuple((t, f) for t, f in source.pins if t in left)
        slots[src] = Slot(left, pins_left).normalised()
        # A face pinned in the old meld says nothing about the new one: only typed pins move.
        moved_pins = tuple(self._pins(action.tiles, tiles).items())
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
            return self.take([token], slot.tiles, _in_meld(number))[0]
        try:
            meld = slot.meld()
        except InvalidMeldError:
            meld = None
        if meld is not None and not token.tile.is_joker:
            for tile, face in zip(meld.tiles, meld.faces, strict=True):
                if tile.is_joker and face == token.tile.face:
                    return tile
        return self.take([token], slot.tiles, _in_meld(number))[0]

    def _swap(self, action: Swap) -> DraftState:
        state = self.state
        index = self._slot_index(action.meld)
        src = None if action.source is None else self._slot_index(action.source)
        slot = state.slots[index]
        jokers = [t for t in slot.tiles if t.is_joker]
        if not jokers:
            raise IllegalMoveError("Meld {number} has no joker.", number=action.meld)
        own = set(self.base_rack)
        if not own.issuperset(jokers) or (src is not None and not self._is_new(src)):
            self._need_melded(Msg("take a joker"))
        try:
            meld = slot.meld()
        except InvalidMeldError:
            raise IllegalMoveError(
                "Meld {number} is not a valid set right now, so its joker stands for "
                "nothing; fix it first.",
                number=action.meld,
            ) from None
        if src is None:
            replacement = self.take([action.tile], state.rack, ON_RACK)[0]
        else:
            if src == index:
                raise IllegalMoveError("Take the replacement tile from another meld or your rack.")
            replacement = self.take([action.tile], state.slots[src].tiles, _in_meld(src + 1))[0]
        if replacement.is_joker:
            raise IllegalMoveError("Swap a joker for the real tile it stands for, not a joker.")
        joker = None
        for candidate in sorted(jokers, key=lambda j: j in own):
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
        if joker not in own:
            self._need_melded(Msg("take a joker"))
        slots = list(state.slots)
        rack = list(state.rack)
        if src is None:
            rack.remove(replacement)
        else:
            src_slot = slots[src]
            kept = tuple(t for t in src_slot.tiles if t != replacement)
            slots[src] = Slot(kept, tuple(p for p in src_slot.pins if p[0] in kept)).normalised()
            slot = slots[index]
        new_tiles = tuple(replacement if t == joker else t for t in slot.tiles)
        slots[index] = Slot(new_tiles, tuple(p for p in slot.pins if p[0] != joker)).normalised()
        if joker in own:  # the player's own joker, laid this turn, goes back to the rack
            back = {*rack, joker}
            mine = tuple(t for t in self.base_rack if t in back)
            return DraftState(tuple(slots), mine, state.held)
        return DraftState(tuple(slots), tuple(rack), (*state.held, joker))

    def _arrange_tokens(
        self, melds: Sequence[Sequence[TileToken]], exact: bool = False
    ) -> DraftState:
        """The state after stating the whole table: faces, with the physical copies chosen so
        that the turn is legal if any choice makes it so (table copies kept where they are
        wherever possible); the first choice when none does (``done`` then says why)."""
        state = self.state
        first: DraftState | None = None
        own = frozenset(self.base_rack)
        for choice in copy_choices(melds, state.slots, state.held, state.rack, exact, own):
            slots: list[Slot] = []
            for tokens, tiles in zip(melds, choice, strict=True):
                pins = self._pins(tokens, tiles)
                slots.append(Slot(tuple(tiles), tuple(pins.items())).normalised())
            used = {t for tiles in choice for t in tiles}
            rack = tuple(t for t in self.base_rack if t not in used)
            candidate = DraftState(tuple(slots), rack, ())
            problems = self._state_problems(candidate)
            if not problems:
                return candidate
            if first is None:
                first = candidate
                if not any(p.template in COPY_PROBLEMS for p in problems):
                    break  # which copy is where cannot fix this
        assert first is not None
        return first

    def _lay_out(self, layout: Sequence[Sequence[TileToken]]) -> DraftState:
        """The state after a resolved ``auto``: the whole table by meld number (exact copies,
        an empty slot for a meld it used up), checked like ``arrange``."""
        if len(layout) < len(self.state.slots):
            raise IllegalMoveError(
                "That table has no place for meld {number}; keep every meld number "
                "(write - for a meld that is used up).",
                number=len(layout) + 1,
            )
        arranged = self._arrange_tokens([tokens for tokens in layout if tokens], exact=True)
        placed = iter(arranged.slots)
        slots = tuple(next(placed) if tokens else Slot(()) for tokens in layout)
        return DraftState(slots, arranged.rack, arranged.held)

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
