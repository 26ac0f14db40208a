"""Plain-text renderings of the same views: alt text, the terminal, screen readers.

Tiles are their codes (``R7``, ``J=R4`` for a joker standing for R4). Marked tiles (last move,
changed this turn, just drawn) are in brackets: ``[R7]``, and a legend line says what the
brackets mean. ``emoji=True`` puts a colour square before each code (🟥R7); ``ansi=True`` colours
the codes for a terminal and shows marked tiles in reverse video instead of brackets.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.tiles import Color, Face, Tile
from renderers.standings import ranks
from renderers.theme import COLOR_NAMES
from renderers.views import (
    DraftView,
    MeldSlot,
    PlayerInfo,
    RackView,
    StandingsView,
    TableView,
    clock_text,
)

EMOJI: dict[Color | None, str] = {
    Color.BLACK: "⬛",
    Color.BLUE: "🟦",
    Color.ORANGE: "🟧",
    Color.RED: "🟥",
    None: "🃏",
}

ANSI: dict[Color | None, str] = {
    Color.BLACK: "\x1b[1;37m",  # bold white: black would vanish on a dark terminal
    Color.BLUE: "\x1b[1;34m",
    Color.ORANGE: "\x1b[1;33m",
    Color.RED: "\x1b[1;31m",
    None: "\x1b[1;35m",
}
ANSI_MARK = "\x1b[7m"
ANSI_RESET = "\x1b[0m"


def tile_code(tile: Tile, face: Face | None = None) -> str:
    """``R7``; a joker as what it stands for when known (``J=R4``, ``J=9``), else ``J``."""
    if tile.is_joker:
        return "J" if face is None or face.number == 0 else f"J={face}"
    return str(tile)


def tile_text(
    tile: Tile,
    face: Face | None = None,
    *,
    marked: bool = False,
    emoji: bool = False,
    ansi: bool = False,
) -> str:
    code = tile_code(tile, face)
    if ansi:
        start = ANSI[tile.color] + (ANSI_MARK if marked else "")
        code = f"{start}{code}{ANSI_RESET}"
    elif marked:
        code = f"[{code}]"
    if emoji:
        code = EMOJI[tile.color] + code
    return code


def meld_line(
    slot: MeldSlot, marked: frozenset[Tile], *, emoji: bool = False, ansi: bool = False
) -> str:
    number = f"{slot.number:>2}."
    if not slot.tiles:
        return f"{number} (empty)"
    tiles = " ".join(
        tile_text(t, f, marked=t in marked, emoji=emoji, ansi=ansi)
        for t, f in zip(slot.tiles, slot.faces, strict=True)
    )
    if slot.error:
        return f"{number} {tiles}   <- not valid: {slot.error}"
    return f"{number} {tiles}"


def player_text(player: PlayerInfo) -> str:
    tiles = f"{player.tile_count} tile{'s' if player.tile_count != 1 else ''}"
    notes = []
    if player.is_current:
        notes.append("to play")
    if not player.melded:
        notes.append("no meld yet")
    if player.is_ai:
        notes.append("AI")
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"{player.name} {tiles}{extra}"


def status_line(current: PlayerInfo | None, seconds_left: int | None, pool_size: int | None) -> str:
    parts = []
    if current is not None:
        parts.append(f"{current.name} to play")
    if seconds_left is not None:
        parts.append(f"{clock_text(seconds_left)} left")
    if pool_size is not None:
        parts.append(f"{pool_size} in pool")
    return " · ".join(parts)


def table_text(view: TableView, *, emoji: bool = False, ansi: bool = False) -> str:
    """The table as text: title, status, players in turn order, numbered melds."""
    lines = [view.title]
    status = status_line(view.current, view.seconds_left, view.pool_size)
    if status:
        lines.append(status)
    if view.players:
        lines.append("Players: " + ", ".join(player_text(p) for p in view.players))
    if view.melds:
        lines += [meld_line(m, view.highlight, emoji=emoji, ansi=ansi) for m in view.melds]
    else:
        lines.append("No melds on the table yet.")
    legend = "marked" if ansi else "[ ]"
    if view.highlight:
        lines.append(f"{legend} = last move" + (f": {view.caption}" if view.caption else ""))
    elif view.caption:
        lines.append(view.caption)
    return "\n".join(lines)


def rack_text(
    view: RackView, *, emoji: bool = False, ansi: bool = False, positions: bool = False
) -> str:
    """The rack in display order; just-drawn tiles are marked."""
    owner = f"{view.owner}'s rack" if view.owner else "Your rack"
    points = sum(t.rack_value for t in view.tiles)
    head = f"{owner} ({len(view.tiles)} tiles, {points} points):"
    if not view.tiles:
        return f"{head} empty"
    codes = []
    for index, tile in enumerate(view.ordered(), start=1):
        code = tile_text(tile, marked=tile in view.new_tiles, emoji=emoji, ansi=ansi)
        codes.append(f"{index}:{code}" if positions else code)
    lines = [head, " ".join(codes)]
    if view.new_tiles:
        drawn = " ".join(str(t) for t in view.new_tiles)
        lines.append(f"{'marked' if ansi else '[ ]'} = just drawn: {drawn}")
    return "\n".join(lines)


def draft_text(view: DraftView, *, emoji: bool = False, ansi: bool = False) -> str:
    """The draft as text: melds (invalid ones with their reason), problems and the rack left."""
    head = f"{view.title} · {view.player}" if view.player else view.title
    if view.seconds_left is not None:
        head += f" · {clock_text(view.seconds_left)} left"
    lines = [head]
    lines += [meld_line(m, view.changed, emoji=emoji, ansi=ansi) for m in view.melds]
    if not view.melds:
        lines.append("The table is empty.")
    if view.changed:
        lines.append(f"{'marked' if ansi else '[ ]'} = placed or moved this turn")
    if view.is_legal:
        lines.append("Legal: done will commit it." if view.changed else "All melds are valid.")
    else:
        lines += [f"! {p}" for p in view.problems] or ["! Not legal yet."]
    lines.append(rack_text(view.rack, emoji=emoji, ansi=ansi))
    return "\n".join(lines)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def standings_text(view: StandingsView) -> str:
    lines = [view.title]
    if view.subtitle:
        lines.append(view.subtitle)
    for rank, row in ranks(view):
        parts = [f"{rank}. {row.name}"]
        if view.kind == "game":
            if row.delta is not None:
                parts.append(f"{_signed(row.delta)} this game")
            left = " ".join(str(t) for t in row.rack) or ("out" if row.is_winner else "none")
            parts.append(f"left: {left}")
        elif row.games_won is not None:
            parts.append(f"{row.games_won} won")
        parts.append(f"total {_signed(row.score)}")
        if row.is_winner:
            parts.append("winner")
        lines.append(", ".join(parts))
    lines += list(view.notes)
    return "\n".join(lines)


def color_legend(colors: Iterable[Color]) -> str:
    """``R = red (diamond)``-style lines, for help texts."""
    from renderers.theme import SHAPES

    return "\n".join(f"{c.code} = {COLOR_NAMES[c]} ({SHAPES[c]})" for c in colors)
