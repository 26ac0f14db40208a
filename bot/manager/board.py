"""The board's side of the manager: one player's view of a channel as plain data, and a
change counter per channel that open boards wait on.

A small part with its dependencies handed in (the live tables, the channel locks, how to load
the stored game and how to find a person's language), so it never reaches into the manager
through ``self``. The manager calls :meth:`Boards.changed` from the few places where a
channel's state changes (after each locked command, each timer, each re-send); a board reads
:meth:`Boards.read` again when :meth:`Boards.watch` moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from bot.api import BoardMeld, BoardSeat, BoardState, BoardTile, ChannelRef, PlayerRef
from bot.i18n import translator
from bot.manager.state import LiveTable
from engine import Draft, Game
from engine.errors import InvalidMeldError
from engine.melds import Meld
from engine.messages import Msg
from engine.tiles import Face, Tile
from renderers.views import (
    MeldSlot,
    RackView,
    SortBy,
    draft_view_from_draft,
    last_move_caption,
    rack_view_from_game,
)
from renderers.words import Text
from renderers.words import say as say_text

Load = Callable[[ChannelRef], Awaitable[LiveTable | None]]
ChannelLanguage = Callable[[ChannelRef], Awaitable[str]]
PlayerLanguage = Callable[[str, PlayerRef | None], Awaitable[str]]


class Boards:
    """Reads boards and counts each channel's changes.

    ``table`` (a channel key's live table, or None) and ``lock`` are the manager's own (the
    same tables and the same locks its commands use); ``load`` gives the channel's table as
    storage has it now, with the lock held; ``now`` is the scheduler's clock (deadlines are
    on it). With ``shared`` (several processes on one database) every read asks storage
    whether another process moved the game; a single process's own copy is the stored game,
    so it is read as it is."""

    def __init__(
        self,
        *,
        table: Callable[[str], LiveTable | None],
        lock: Callable[[str], asyncio.Lock],
        load: Load,
        channel_language: ChannelLanguage,
        player_language: PlayerLanguage,
        now: Callable[[], float],
        shared: bool = True,
    ) -> None:
        self._table = table
        self._lock = lock
        self._load = load
        self._channel_language = channel_language
        self._player_language = player_language
        self._now = now
        self._shared = shared
        self._steps: dict[str, int] = {}
        self._moved: dict[str, asyncio.Event] = {}  # only while someone waits

    # ----- changes -------------------------------------------------------------------------

    def changed(self, key: str) -> None:
        """Channel ``key`` may have changed: wake every board waiting on it."""
        self._steps[key] = self._steps.get(key, 0) + 1
        moved = self._moved.pop(key, None)
        if moved is not None:
            moved.set()

    def step(self, key: str) -> int:
        return self._steps.get(key, 0)

    async def watch(self, key: str) -> AsyncIterator[int]:
        """The change counter now, then each new value; changes that come together are seen
        once (the newest counter)."""
        seen = self.step(key)
        yield seen
        while True:
            if self.step(key) == seen:
                moved = self._moved.get(key)
                if moved is None:
                    moved = self._moved[key] = asyncio.Event()
                await moved.wait()
            seen = self.step(key)
            yield seen

    # ----- reading -------------------------------------------------------------------------

    async def read(self, player: PlayerRef, channel: ChannelRef) -> BoardState:
        """``player``'s board of ``channel`` now (see ``bot.api.GameService.board``)."""
        async with self._lock(channel.key):
            table = self._table(channel.key)
            if table is None or self._shared:
                table = await self._load(channel)
            step = self.step(channel.key)
            if table is None:
                lang = await self._player_language(await self._channel_language(channel), player)
                return BoardState(channel.key, "none", lang, step)
            lang = await self._player_language(table.lang, player)
            if table.game is None or table.phase != "playing":
                seats = tuple(
                    BoardSeat(s.name, 0, you=s.player is not None and s.player.same_person(player))
                    for s in table.seats
                )
                return BoardState(channel.key, "lobby", lang, step, seats=seats)
            return self._playing(table, table.game, player, lang, step)

    def _playing(
        self, table: LiveTable, game: Game, player: PlayerRef, lang: str, step: int
    ) -> BoardState:
        seat = table.seat_of(player)
        sort_by: SortBy = "number" if table.sort_by.get(player.key) == "number" else "color"
        names = [s.name for s in table.seats]
        running = not game.finished
        mine = running and seat is not None and seat == game.current
        melds: tuple[BoardMeld, ...]
        rack: tuple[BoardTile, ...] | None = None
        problems: tuple[str, ...] = ()
        can_undo = changed = False
        if mine:
            assert seat is not None
            draft = _draft_of(table, game, seat)
            view = draft_view_from_draft(draft, sort_by=sort_by)
            melds = _draft_melds(draft, view.melds, lang)
            rack = _rack(view.rack)
            problems = tuple(_say(lang, p) for p in view.problems)
            can_undo, changed = draft.can_undo, draft.changed
        else:
            melds = _table_melds(game.table)
            if seat is not None:  # their own rack, never anyone else's
                rack = _rack(rack_view_from_game(game, seat, sort_by=sort_by))
        seats = tuple(
            BoardSeat(
                info.name,
                len(game.players[i].rack),
                current=running and i == game.current,
                ai=info.ai is not None,
                melded=game.players[i].melded,
                you=i == seat,
            )
            for i, info in enumerate(table.seats)
        )
        left = None if table.deadline is None or not running else table.deadline - self._now()
        return BoardState(
            table.channel.key,
            "playing",
            lang,
            step,
            seats=seats,
            turn=game.turn,
            current=table.seats[game.current].name if running else "",
            seconds_left=None if left is None else max(0.0, round(left, 1)),
            pool=len(game.pool),
            melds=melds,
            rack=rack,
            sort_by=sort_by,
            seat=seat,
            name=table.seats[seat].name if seat is not None else "",
            can_act=mine,
            can_undo=can_undo,
            changed=changed,
            problems=problems,
            melded=seat is not None and game.players[seat].melded,
            threshold=table.rules.opening_threshold,
            hints=table.rules.hints,
            last=_say(lang, last_move_caption(game, names)),
        )


def _draft_of(table: LiveTable, game: Game, seat: int) -> Draft:
    """The seat's draft of this turn: the one under way, else a fresh one (not kept: reading
    changes nothing)."""
    if table.draft is not None and table.draft.seat == seat:
        return table.draft
    return game.draft(seat)


def _say(lang: str, text: Text) -> str:
    return say_text(text, translator(lang))


def _tile(tile: Tile, face: Face | None, marked: bool) -> BoardTile:
    joker_face = "" if not tile.is_joker or face is None or face.number == 0 else str(face)
    return BoardTile(
        tile.code,
        str(tile),
        tile.color.code if tile.color is not None else "",
        tile.number,
        joker_face,
        marked,
    )


def _rack(view: RackView) -> tuple[BoardTile, ...]:
    return tuple(_tile(tile, None, tile in view.marked) for tile in view.ordered())


def _table_melds(melds: Sequence[Meld]) -> tuple[BoardMeld, ...]:
    return tuple(
        BoardMeld(
            number,
            tuple(_tile(t, f, False) for t, f in zip(meld.tiles, meld.faces, strict=True)),
            True,
            kind=meld.kind.value,
        )
        for number, meld in enumerate(melds, start=1)
    )


def _draft_melds(draft: Draft, slots: Sequence[MeldSlot], lang: str) -> tuple[BoardMeld, ...]:
    """The draft's melds with what changed marked and, for an invalid one, the sentence
    ``done`` gives about it (``Meld 3: R5 R6 R8 is not a valid set: 7 is missing.``)."""
    changed = draft.touched
    out = []
    for slot, drafted in zip(slots, draft.slots, strict=True):
        tiles = tuple(
            _tile(t, f, t in changed) for t, f in zip(slot.tiles, slot.faces, strict=True)
        )
        if not drafted.tiles:
            out.append(BoardMeld(slot.number, (), False))
            continue
        try:
            kind = drafted.meld().kind.value
        except InvalidMeldError as err:
            sentence = Msg("Meld {number}: {reason}", number=slot.number, reason=err.msg)
            out.append(BoardMeld(slot.number, tiles, False, _say(lang, sentence)))
            continue
        out.append(BoardMeld(slot.number, tiles, True, kind=kind))
    return tuple(out)
