"""What the renderers draw: small frozen snapshots built from engine types.

A view holds only plain values (tiles, faces, names, numbers), so it can be handed to another
thread and rendered there while the game moves on. Builders turn engine objects into views.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from engine.errors import InvalidMeldError
from engine.melds import Meld, analyse
from engine.messages import Msg
from engine.notation import parse_meld_tokens, parse_tokens
from engine.scoring import EndReason
from engine.tiles import Face, Tile, distinct_copies, sort_tiles
from renderers.words import Listing, Plural, Text

if TYPE_CHECKING:
    from engine.draft import Draft
    from engine.game import Game
    from engine.match import Match

SortBy = Literal["color", "number", "none"]

YOUR_TURN = Msg("Your turn")
STANDINGS = Msg("Standings")


def short_reason(message: str) -> str:
    """The reason part of an ``InvalidMeldError`` sentence ("7 is missing")."""
    marker = "is not a valid set: "
    reason = message.split(marker, 1)[1] if marker in message else message
    return reason.rstrip(".")


def meld_reason(err: InvalidMeldError) -> Text:
    """Why a meld is invalid, short: the error's ``reason`` value when its message has one
    (so it is translated with the rest), else the reason cut out of the English sentence."""
    reason = err.msg.params.get("reason")
    if isinstance(reason, str | Msg | Plural):
        return reason
    return short_reason(str(err))


@dataclass(frozen=True, slots=True)
class MeldSlot:
    """One numbered meld position: its tiles, what each shows, and why it is invalid if it is.

    ``faces[i]`` is what ``tiles[i]`` shows or, for a joker, stands for (``None`` when a joker
    in an invalid meld stands for nothing yet). An empty slot is a meld emptied during a draft;
    it keeps its number so the numbers a player sees stay valid.
    """

    number: int
    tiles: tuple[Tile, ...]
    faces: tuple[Face | None, ...]
    error: Text | None = None

    def __post_init__(self) -> None:
        if len(self.tiles) != len(self.faces):
            raise ValueError("a meld slot needs one face per tile")

    @classmethod
    def from_meld(cls, number: int, meld: Meld) -> MeldSlot:
        return cls(number, meld.tiles, meld.faces)

    @classmethod
    def from_tiles(
        cls, number: int, tiles: Sequence[Tile], pins: Mapping[Tile, Face] | None = None
    ) -> MeldSlot:
        """Check ``tiles``: a valid meld is shown in canonical order with joker faces, an
        invalid one as given, with the reason."""
        if not tiles:
            return cls(number, (), ())
        index_pins = {i: pins[t] for i, t in enumerate(tiles) if pins and t in pins}
        try:
            meld = analyse(list(tiles), index_pins, None)
        except InvalidMeldError as err:
            faces = tuple(None if t.is_joker else t.face for t in tiles)
            return cls(number, tuple(tiles), faces, meld_reason(err))
        return cls.from_meld(number, meld)

    @property
    def is_valid(self) -> bool:
        return self.error is None and bool(self.tiles)

    def labels(self) -> tuple[str, ...]:
        """Tile codes with jokers as what they stand for: ``J=R4``, ``J=9``, ``J``."""
        out = []
        for tile, face in zip(self.tiles, self.faces, strict=True):
            if tile.is_joker:
                out.append("J" if face is None else f"J={face}")
            else:
                out.append(str(tile))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A seat as the header shows it."""

    name: Text
    tile_count: int
    is_current: bool = False
    melded: bool = True
    is_ai: bool = False


@dataclass(frozen=True, slots=True)
class TableView:
    """The shared table: numbered melds, the players in turn order and the turn's status.

    ``highlight`` holds the tiles the last committed move placed or moved.
    """

    melds: tuple[MeldSlot, ...]
    players: tuple[PlayerInfo, ...] = ()
    pool_size: int | None = None
    seconds_left: int | None = None
    highlight: frozenset[Tile] = frozenset()
    title: Text = "Rummikub"
    caption: Text = ""

    @property
    def tile_count(self) -> int:
        return sum(len(m.tiles) for m in self.melds)

    @property
    def current(self) -> PlayerInfo | None:
        return next((p for p in self.players if p.is_current), None)


@dataclass(frozen=True, slots=True)
class RackView:
    """One player's rack; ``new_tiles`` are the ones just drawn and ``held`` the jokers taken
    from the table in a draft (both marked, each with its own legend)."""

    tiles: tuple[Tile, ...]
    new_tiles: frozenset[Tile] = frozenset()
    sort_by: SortBy = "color"
    owner: Text = ""
    held: frozenset[Tile] = frozenset()

    @property
    def marked(self) -> frozenset[Tile]:
        return self.new_tiles | self.held

    def ordered(self) -> tuple[Tile, ...]:
        if self.sort_by == "none":
            return self.tiles
        return tuple(sort_tiles(self.tiles, by=self.sort_by))


@dataclass(frozen=True, slots=True)
class DraftView:
    """A player's private turn in progress: the draft table, what changed, and the rack left.

    ``changed`` holds tiles placed or moved this turn; invalid melds carry their reason in
    ``MeldSlot.error``; ``problems`` are the sentences that stop ``done`` from committing.
    """

    melds: tuple[MeldSlot, ...]
    rack: RackView
    changed: frozenset[Tile] = frozenset()
    problems: tuple[Text, ...] = ()
    seconds_left: int | None = None
    player: Text = ""
    title: Text = YOUR_TURN

    @property
    def is_legal(self) -> bool:
        return not self.problems and all(m.error is None for m in self.melds)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line: this game's result and/or the match so far."""

    name: Text
    score: int
    delta: int | None = None
    games_won: int | None = None
    rack: tuple[Tile, ...] = ()
    is_winner: bool = False


@dataclass(frozen=True, slots=True)
class StandingsView:
    """A game result (``delta`` and ``rack`` set) or match standings (``games_won`` set)."""

    rows: tuple[StandingRow, ...]
    title: Text = STANDINGS
    subtitle: Text = ""
    kind: Literal["game", "match"] = "match"
    notes: tuple[Text, ...] = field(default=())


# ---------------------------------------------------------------------------------------------
# Builders


def slots_from_melds(melds: Iterable[Meld], start: int = 1) -> tuple[MeldSlot, ...]:
    return tuple(MeldSlot.from_meld(i, m) for i, m in enumerate(melds, start=start))


def slots_from_text(text: str, used: Iterable[Tile] = ()) -> tuple[MeldSlot, ...]:
    """Parse ``"R4 R5 R6 / K9 B9 O9"`` into numbered slots (invalid melds keep their reason).

    Repeated faces become distinct physical copies across the whole table (and apart from the
    tiles in ``used``), so ``R7`` in two melds means both copies.
    """
    groups = parse_meld_tokens(text)
    taken = set(used)
    slots = []
    for number, tokens in enumerate(groups, start=1):
        tiles = []
        for token in tokens:
            tile = token.tile
            while tile in taken:
                tile = tile.with_copy(tile.copy + 1)
            taken.add(tile)
            tiles.append(tile)
        pins = {tiles[i]: t.pin for i, t in enumerate(tokens) if t.pin is not None}
        slots.append(MeldSlot.from_tiles(number, tiles, pins))
    return tuple(slots)


def tiles_from_text(text: str, used: Iterable[Tile] = ()) -> tuple[Tile, ...]:
    """Parse a rack such as ``"R7 J K1"``; copies stay distinct from ``used``."""
    taken = set(used)
    out = []
    for tile in distinct_copies(t.tile for t in parse_tokens(text)):
        while tile in taken:
            tile = tile.with_copy(tile.copy + 1)
        taken.add(tile)
        out.append(tile)
    return tuple(out)


def invalid_meld_problems(slots: Iterable[MeldSlot]) -> tuple[Text, ...]:
    """One sentence per invalid meld, for drafts built by hand (the engine's draft says its own):
    ``Meld 3 (B5 B6 B8) is not valid: 7 is missing.``"""
    return tuple(
        Msg(
            "Meld {number} ({tiles}) is not valid: {reason}.",
            number=slot.number,
            tiles=" ".join(slot.labels()),
            reason=slot.error,
        )
        for slot in slots
        if slot.error
    )


def clock_text(seconds: int) -> str:
    """Time left as people read it: ``0:42``, ``12:05``, ``5h 12m``, ``2d 3h``."""
    seconds = max(0, seconds)
    if seconds < 3600:
        return f"{seconds // 60}:{seconds % 60:02d}"
    if seconds < 86400:
        return f"{seconds // 3600}h {seconds % 3600 // 60:02d}m"
    return f"{seconds // 86400}d {seconds % 86400 // 3600}h"


# ---------------------------------------------------------------------------------------------
# Builders from a live game (engine.game, engine.draft, engine.match)


def seat_name(names: Sequence[str], seat: int) -> Text:
    """The seat's player name, or ``Player 3`` (counting from 1) when there is none."""
    if seat < len(names) and names[seat]:
        return names[seat]
    return Msg("Player {number}", number=seat + 1)


def last_move_caption(game: Game, names: Sequence[str]) -> Text:
    """One line about the last finished turn ("Bob played R5 R6 R7"), or "" before any."""
    last = game.last
    if last is None:
        return ""
    who = seat_name(names, last.seat)
    if last.kind == "play":
        placed = " ".join(str(t) for t in sort_tiles(last.placed))
        if last.timed_out:
            return Msg("{name} played {tiles} when time ran out", name=who, tiles=placed)
        return Msg("{name} played {tiles}", name=who, tiles=placed)
    if last.kind == "draw":
        if last.timed_out:
            return Msg("{name} drew a tile when time ran out", name=who)
        return Msg("{name} drew a tile", name=who)
    if last.kind == "penalty":
        return Plural(
            len(last.drawn),
            "{name} ran out of time mid-move and drew {count} tile",
            "{name} ran out of time mid-move and drew {count} tiles",
            name=who,
        )
    return Msg("{name} passed (the pool is empty)", name=who)


def table_view_from_game(
    game: Game,
    names: Sequence[str],
    *,
    seconds_left: int | None = None,
    ai_seats: Iterable[int] = (),
    title: Text | None = None,
) -> TableView:
    """The shared table: players listed in turn order from the first player, the tiles the
    last play placed highlighted."""
    ai = set(ai_seats)
    count = len(game.players)
    order = [(game.starter + i) % count for i in range(count)]
    players = tuple(
        PlayerInfo(
            seat_name(names, seat),
            len(game.players[seat].rack),
            is_current=seat == game.current and not game.finished,
            melded=game.players[seat].melded,
            is_ai=seat in ai,
        )
        for seat in order
    )
    last = game.last
    highlight = frozenset(last.placed) if last is not None and last.kind == "play" else frozenset()
    if title is None:
        if game.result is not None:
            winner = seat_name(names, game.result.winner)
            title = (
                Msg("Rummikub · game over: {name} wins", name=winner)
                if game.result.reason is EndReason.OUT
                else Msg("Rummikub · game over: {name} wins with the lowest rack", name=winner)
            )
        else:
            title = Msg("Rummikub · turn {turn}", turn=game.turn)
    return TableView(
        slots_from_melds(game.table),
        players,
        pool_size=len(game.pool),
        seconds_left=None if game.finished else seconds_left,
        highlight=highlight,
        title=title,
        caption=last_move_caption(game, names),
    )


def just_drawn(game: Game, seat: int) -> tuple[Tile, ...]:
    """The tiles ``seat`` drew in the turn that just ended (one, or a timeout penalty's
    three), while that turn is still the last one played; nothing once anyone has moved since
    or when the seat's last turn was a play."""
    last = game.last
    if last is None or last.seat != seat or last.kind not in ("draw", "penalty"):
        return ()
    rack = set(game.players[seat].rack)
    return tuple(t for t in last.drawn if t in rack)


def rack_view_from_game(
    game: Game, seat: int, *, sort_by: SortBy = "color", owner: Text = ""
) -> RackView:
    """A seat's rack with the tiles it has just drawn marked."""
    player = game.players[seat]
    new = frozenset(just_drawn(game, seat))
    return RackView(tuple(player.rack), new_tiles=new, sort_by=sort_by, owner=owner)


def rack_view_from_draft(draft: Draft, *, sort_by: SortBy = "color", owner: Text = "") -> RackView:
    """The rack as a draft leaves it: the tiles not yet placed, and jokers taken from the
    table (marked as held, to be played this turn)."""
    held = tuple(draft.held)
    return RackView(tuple(draft.rack) + held, held=frozenset(held), sort_by=sort_by, owner=owner)


def draft_view_from_draft(
    draft: Draft,
    *,
    player: str = "",
    seconds_left: int | None = None,
    sort_by: SortBy = "color",
) -> DraftView:
    """The private draft: slots keep their turn-long numbers; jokers taken from the table and
    not yet placed are shown on the rack, marked."""
    slots = []
    for number, slot in enumerate(draft.slots, start=1):
        if not slot.tiles:
            slots.append(MeldSlot(number, (), ()))
            continue
        try:
            slots.append(MeldSlot.from_meld(number, slot.meld()))
        except InvalidMeldError as err:
            faces = tuple(None if t.is_joker else t.face for t in slot.tiles)
            slots.append(MeldSlot(number, slot.tiles, faces, meld_reason(err)))
    rack = rack_view_from_draft(draft, sort_by=sort_by)
    problems: tuple[Text, ...] = tuple(draft.problem_messages()) if draft.changed else ()
    return DraftView(
        tuple(slots),
        rack,
        changed=draft.touched,
        problems=problems,
        seconds_left=seconds_left,
        player=player,
    )


def game_end_view(game: Game, names: Sequence[str], *, match: Match | None = None) -> StandingsView:
    """A finished game: the winner, each rack left, this game's points and match totals."""
    result = game.result
    if result is None:
        raise ValueError("The game is not over yet, so it has no result to show.")
    totals = match.totals() if match is not None else list(result.scores)
    rows = tuple(
        StandingRow(
            seat_name(names, seat),
            totals[seat],
            delta=result.scores[seat],
            rack=tuple(sort_tiles(game.players[seat].rack)),
            is_winner=seat == result.winner,
        )
        for seat in range(len(game.players))
    )
    winner = seat_name(names, result.winner)
    out = result.reason is EndReason.OUT
    title: Text
    subtitle: Text = ""
    if match is None:
        title = (
            Msg("Rummikub! {name} wins", name=winner)
            if out
            else Msg("{name} wins with the lowest rack", name=winner)
        )
    else:
        number = len(match.results)
        title = (
            Msg("Rummikub! {name} wins game {number}", name=winner, number=number)
            if out
            else Msg("{name} wins game {number} with the lowest rack", name=winner, number=number)
        )
        subtitle = Msg("Game {number} of {games}", number=number, games=match.games)
    notes: tuple[Text, ...] = () if out else (Msg("The pool ran out and nobody could play."),)
    return StandingsView(rows, title=title, subtitle=subtitle, kind="game", notes=notes)


def match_view(match: Match, names: Sequence[str]) -> StandingsView:
    """Match standings: games won, then total score; the leader (or winner) marked."""
    wins, totals = match.wins(), match.totals()
    winners = set(match.winners())
    rows = tuple(
        StandingRow(
            seat_name(names, seat), totals[seat], games_won=wins[seat], is_winner=seat in winners
        )
        for seat in range(match.players)
    )
    played = len(match.results)
    title: Text
    if match.finished:
        champions = Listing(tuple(seat_name(names, s) for s in sorted(winners)))
        title = Plural(
            len(winners), "{names} wins the match", "{names} win the match", names=champions
        )
    else:
        title = Msg("Match standings")
    return StandingsView(
        rows,
        title=title,
        subtitle=Msg("After game {number} of {games}", number=played, games=match.games),
        kind="match",
        notes=(Msg("Most games won wins the match; total score breaks ties."),),
    )
