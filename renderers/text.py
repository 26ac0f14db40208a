"""Plain-text renderings of the same views: alt text, the terminal, screen readers.

Tiles are their codes (``R7``, ``J=R4`` for a joker standing for R4). Marked tiles (last move,
changed this turn, just drawn) are in brackets: ``[R7]``, and a legend line says what the
brackets mean. ``emoji=True`` puts a colour square before each code (🟥R7); ``ansi=True`` colours
the codes for a terminal and shows marked tiles in reverse video instead of brackets.
"""

from __future__ import annotations

from engine.messages import Msg, Translate, english
from engine.tiles import Color, Face, Tile
from renderers.rack import rack_owner
from renderers.standings import ranks
from renderers.views import (
    DraftView,
    MeldSlot,
    PlayerInfo,
    RackView,
    StandingsView,
    TableView,
    clock_text,
)
from renderers.words import Text, points_count, say, signed, tiles_count

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
    slot: MeldSlot,
    marked: frozenset[Tile],
    *,
    emoji: bool = False,
    ansi: bool = False,
    translate: Translate = english,
) -> str:
    number = f"{slot.number:>2}."
    if not slot.tiles:
        return f"{number} " + translate("(empty)")
    tiles = " ".join(
        tile_text(t, f, marked=t in marked, emoji=emoji, ansi=ansi)
        for t, f in zip(slot.tiles, slot.faces, strict=True)
    )
    if slot.error:
        return f"{number} {tiles}   " + say(
            Msg("<- not valid: {reason}", reason=slot.error), translate
        )
    return f"{number} {tiles}"


def player_text(player: PlayerInfo, translate: Translate = english) -> str:
    notes = []
    if player.is_current:
        notes.append(translate("to play"))
    if not player.melded:
        notes.append(translate("no meld yet"))
    if player.is_ai:
        notes.append(translate("AI"))
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"{say(player.name, translate)} {say(tiles_count(player.tile_count), translate)}{extra}"


def status_line(
    current: PlayerInfo | None,
    seconds_left: int | None,
    pool_size: int | None,
    translate: Translate = english,
) -> str:
    parts: list[Text] = []
    if current is not None:
        parts.append(Msg("{name} to play", name=current.name))
    if seconds_left is not None:
        parts.append(Msg("{time} left", time=clock_text(seconds_left)))
    if pool_size is not None:
        parts.append(Msg("{count} in pool", count=pool_size))
    return " · ".join(say(part, translate) for part in parts)


def _mark(ansi: bool, translate: Translate) -> str:
    """What marked tiles look like: ``[ ]``, or the word "marked" where reverse video marks."""
    return translate("marked") if ansi else "[ ]"


def table_text(
    view: TableView, *, emoji: bool = False, ansi: bool = False, translate: Translate = english
) -> str:
    """The table as text: title, status, players in turn order, numbered melds."""
    lines = [say(view.title, translate)]
    status = status_line(view.current, view.seconds_left, view.pool_size, translate)
    if status:
        lines.append(status)
    if view.players:
        players = ", ".join(player_text(p, translate) for p in view.players)
        lines.append(say(Msg("Players: {players}", players=players), translate))
    if view.melds:
        lines += [
            meld_line(m, view.highlight, emoji=emoji, ansi=ansi, translate=translate)
            for m in view.melds
        ]
    else:
        lines.append(translate("No melds on the table yet."))
    mark = _mark(ansi, translate)
    if view.highlight and view.caption:
        last = Msg("{mark} = last move: {caption}", mark=mark, caption=view.caption)
        lines.append(say(last, translate))
    elif view.highlight:
        lines.append(say(Msg("{mark} = last move", mark=mark), translate))
    elif view.caption:
        lines.append(say(view.caption, translate))
    return "\n".join(lines)


def rack_text(
    view: RackView,
    *,
    emoji: bool = False,
    ansi: bool = False,
    positions: bool = False,
    translate: Translate = english,
) -> str:
    """The rack in display order; just-drawn tiles are marked."""
    points = sum(t.rack_value for t in view.tiles)
    head = say(
        Msg(
            "{owner} ({tiles}, {points}):",
            owner=rack_owner(view),
            tiles=tiles_count(len(view.tiles)),
            points=points_count(points),
        ),
        translate,
    )
    if not view.tiles:
        return f"{head} " + translate("empty")
    codes = []
    for index, tile in enumerate(view.ordered(), start=1):
        code = tile_text(tile, marked=tile in view.marked, emoji=emoji, ansi=ansi)
        codes.append(f"{index}:{code}" if positions else code)
    lines = [head, " ".join(codes)]
    mark = _mark(ansi, translate)
    drawn = [t for t in view.ordered() if t in view.new_tiles and t not in view.held]
    if drawn:
        listed = " ".join(str(t) for t in drawn)
        lines.append(say(Msg("{mark} = just drawn: {tiles}", mark=mark, tiles=listed), translate))
    held = [t for t in view.ordered() if t in view.held]
    if held:
        listed = " ".join(str(t) for t in held)
        legend = Msg(
            "{mark} = taken from the table, to play this turn: {tiles}", mark=mark, tiles=listed
        )
        lines.append(say(legend, translate))
    return "\n".join(lines)


def draft_text(
    view: DraftView, *, emoji: bool = False, ansi: bool = False, translate: Translate = english
) -> str:
    """The draft as text: melds (invalid ones with their reason), problems and the rack left."""
    head = say(view.title, translate)
    if view.player:
        head += " · " + say(view.player, translate)
    if view.seconds_left is not None:
        head += " · " + say(Msg("{time} left", time=clock_text(view.seconds_left)), translate)
    lines = [head]
    lines += [
        meld_line(m, view.changed, emoji=emoji, ansi=ansi, translate=translate) for m in view.melds
    ]
    if not view.melds:
        lines.append(translate("The table is empty."))
    if view.changed:
        mark = _mark(ansi, translate)
        lines.append(say(Msg("{mark} = placed or moved this turn", mark=mark), translate))
    if view.is_legal:
        lines.append(
            translate("Legal: done will commit it." if view.changed else "All melds are valid.")
        )
    else:
        problems = [f"! {say(p, translate)}" for p in view.problems]
        lines += problems or ["! " + translate("Not legal yet.")]
    lines.append(rack_text(view.rack, emoji=emoji, ansi=ansi, translate=translate))
    return "\n".join(lines)


def standings_text(view: StandingsView, *, translate: Translate = english) -> str:
    lines = [say(view.title, translate)]
    if view.subtitle:
        lines.append(say(view.subtitle, translate))
    for rank, row in ranks(view):
        parts: list[Text] = [f"{rank}. {say(row.name, translate)}"]
        if view.kind == "game":
            if row.delta is not None:
                parts.append(Msg("{points} this game", points=signed(row.delta)))
            left: Text = " ".join(str(t) for t in row.rack) or (
                Msg("out") if row.is_winner else Msg("none")
            )
            parts.append(Msg("left: {tiles}", tiles=left))
        elif row.games_won is not None:
            parts.append(Msg("{count} won", count=row.games_won))
        parts.append(Msg("total {points}", points=signed(row.score)))
        if row.is_winner:
            parts.append(Msg("winner"))
        lines.append(", ".join(say(part, translate) for part in parts))
    lines += [say(note, translate) for note in view.notes]
    return "\n".join(lines)
