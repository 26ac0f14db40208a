"""The shared table image: a status header, the numbered melds and the last move highlighted.

The image is ``width`` pixels wide (1200 by default: crisp on a desktop and still readable when a
phone shrinks it to a third). Tiles are as large as the table allows: an opening table gets big
tiles, a crowded one smaller tiles, so the picture keeps a landscape-ish shape that Discord and
Telegram previews show whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.messages import Msg, Translate, english
from engine.tiles import Tile
from renderers.draw import (
    TileState,
    badge_sprite,
    cached_sprite,
    draw_clock,
    draw_play_marker,
    draw_stack,
    draw_text,
    draw_tile,
    encode_png,
    paste_text,
    text_width,
    tray_sprite,
)
from renderers.layout import Box, MeldArea, MeldMetrics, area_height, fits_width, layout_melds
from renderers.theme import Theme, get_theme
from renderers.views import MeldSlot, PlayerInfo, TableView, clock_text
from renderers.words import say

DEFAULT_WIDTH = 1200
TILE_SIZES = (88, 80, 72, 64, 58, 52, 48, 44, 40, 36)
"""Tile widths tried (at width 1200, scaled with the width), largest first."""


def fit_text(text: str, size: int, max_width: int, *, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it is at most ``max_width`` pixels wide."""
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold) > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def fit_size(
    text: str, size: int, max_width: int, *, bold: bool = False, least: float = 0.7
) -> int:
    """The largest font size, from ``size`` down to ``least`` of it, at which ``text`` fits
    ``max_width`` (a long title in a wordier language shrinks a little before it is cut)."""
    smallest = max(1, round(size * least))
    while size > smallest and text_width(text, size, bold) > max_width:
        size -= 1
    return size


def wrap_text(text: str, size: int, max_width: int, *, max_lines: int = 3) -> list[str]:
    """Greedy word wrap to ``max_width`` pixels; the last allowed line is cut with an ellipsis."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and text_width(candidate, size) > max_width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return [fit_text(line, size, max_width) for line in lines]


@dataclass(frozen=True, slots=True)
class Header:
    """Laid-out header parts: the title row and the player chips."""

    height: int
    chips: tuple[tuple[PlayerInfo, Box], ...]


@dataclass(frozen=True, slots=True)
class TableLayout:
    width: int
    height: int
    margin: int
    header: Header
    area: MeldArea
    area_box: Box
    caption_box: Box | None

    @property
    def tile_width(self) -> int:
        return self.area.tile_width


def _unit(width: int) -> float:
    return width / DEFAULT_WIDTH


def _chip_size(player: PlayerInfo, u: float, translate: Translate) -> tuple[int, int, str]:
    h = round(46 * u)
    size = round(24 * u)
    name = fit_text(say(player.name, translate) or "?", size, round(260 * u), bold=True)
    w = round(16 * u) + text_width(name, size, bold=True) + round(12 * u) + round(40 * u)
    if player.is_current:
        w += round(26 * u)
    note = chip_note(player, translate)
    if note:
        w += text_width(note, round(17 * u)) + round(10 * u)
    w += round(14 * u)
    return w, h, name


def chip_note(player: PlayerInfo, translate: Translate = english) -> str:
    """The small grey words after the tile count: "AI", "no meld"."""
    words = ((translate("AI"), player.is_ai), (translate("no meld"), not player.melded))
    return " · ".join(word for word, on in words if on)


def layout_header(
    players: Sequence[PlayerInfo], width: int, margin: int, translate: Translate = english
) -> Header:
    u = _unit(width)
    y = margin + round(56 * u)
    x = margin
    chips: list[tuple[PlayerInfo, Box]] = []
    row_h = round(46 * u)
    for player in players:
        w, h, _ = _chip_size(player, u, translate)
        if x > margin and x + w > width - margin:
            x = margin
            y += row_h + round(10 * u)
        chips.append((player, Box(x, y, w, h)))
        x += w + round(12 * u)
    bottom = y + row_h if players else margin + round(44 * u)
    return Header(bottom + round(18 * u), tuple(chips))


def _status_chip(theme: Theme, kind: str, text: str, urgent: bool, u: float) -> Image.Image:
    """A cached chip: a clock or pool icon and its value."""

    def make() -> Image.Image:
        h = round(44 * u)
        size = round(24 * u)
        w = round(52 * u) + text_width(text, size, bold=True) + round(16 * u)
        im = Image.new("RGB", (w, h), theme.background)
        d = ImageDraw.Draw(im)
        fill = theme.error if urgent else theme.chip
        ink = (255, 255, 255) if urgent else theme.text
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, fill=fill)
        icon = draw_stack if kind == "pool" else draw_clock
        icon(d, round(28 * u), h / 2, round(12 * u), ink)
        draw_text(d, (round(48 * u), h / 2), text, size, ink, bold=True, anchor="lm")
        return im

    return cached_sprite(("status", theme, kind, text, urgent, u), make)


def draw_status(
    canvas: Image.Image,
    theme: Theme,
    width: int,
    margin: int,
    *,
    title: str,
    seconds_left: int | None,
    pool_size: int | None,
    translate: Translate = english,
) -> None:
    """Title on the left; time left and pool size as chips on the right."""
    u = _unit(width)
    h = round(44 * u)
    y = margin
    x = width - margin
    for kind, value in (("pool", pool_size), ("clock", seconds_left)):
        if value is None:
            continue
        if kind == "pool":
            text = say(Msg("{count} in pool", count=value), translate)
        else:
            text = clock_text(value)
        chip = _status_chip(theme, kind, text, kind == "clock" and value <= 10, u)
        x -= chip.width
        canvas.paste(chip, (x, y))
        x -= round(12 * u)
    title_size = round(34 * u)
    title_text = fit_text(title, title_size, max(40, x - margin - round(12 * u)), bold=True)
    paste_text(
        canvas,
        (margin, y + h / 2),
        title_text,
        title_size,
        theme.text,
        theme.background,
        bold=True,
        anchor="lm",
    )


def _player_chip(theme: Theme, player: PlayerInfo, u: float, translate: Translate) -> Image.Image:
    """A cached chip: play marker for the current player, name, tile count on a little tile,
    and notes ("AI", "no meld" until the initial meld is made)."""
    w, h, name = _chip_size(player, u, translate)
    note = chip_note(player, translate)

    def make() -> Image.Image:
        im = Image.new("RGB", (w, h), theme.background)
        d = ImageDraw.Draw(im)
        current = player.is_current
        fill = theme.accent if current else theme.chip
        ink = theme.accent_text if current else theme.text
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, fill=fill)
        x = round(16 * u)
        cy = h / 2
        if current:
            draw_play_marker(d, x + round(8 * u), cy, round(9 * u), ink)
            x += round(26 * u)
        size = round(24 * u)
        draw_text(d, (x, cy), name, size, ink, bold=True, anchor="lm")
        x += text_width(name, size, bold=True) + round(12 * u)
        tw, th = round(40 * u), round(32 * u)
        d.rounded_rectangle(
            (x, cy - th / 2, x + tw, cy + th / 2),
            radius=round(6 * u),
            fill=theme.tile_face,
            outline=theme.tile_outline,
        )
        count = str(player.tile_count)
        draw_text(d, (x + tw / 2, cy), count, round(20 * u), (32, 33, 36), bold=True, anchor="mm")
        x += tw + round(10 * u)
        if note:
            muted = ink if current else theme.muted
            draw_text(d, (x, cy), note, round(17 * u), muted, anchor="lm")
        return im

    key = ("player", theme, player.is_current, player.tile_count, name, note, w, u)
    return cached_sprite(key, make)


def draw_players(
    canvas: Image.Image,
    theme: Theme,
    width: int,
    header: Header,
    translate: Translate = english,
) -> None:
    u = _unit(width)
    for player, box in header.chips:
        canvas.paste(_player_chip(theme, player, u, translate), (box.x, box.y))


def choose_tile_width(
    slots: Sequence[MeldSlot],
    area_width: int,
    max_area_height: int,
    width: int,
    translate: Translate = english,
) -> int:
    """The largest tile size whose layout fits the area (the smallest one if none does)."""
    u = _unit(width)
    sizes = [max(24, round(s * u)) for s in TILE_SIZES]
    for size in sizes:
        if not fits_width(slots, area_width, size, translate):
            continue
        if area_height(slots, area_width, size, translate) <= max_area_height:
            return size
    return sizes[-1]


def layout_table(
    view: TableView,
    *,
    width: int = DEFAULT_WIDTH,
    max_height: int | None = None,
    translate: Translate = english,
) -> TableLayout:
    """Where every part of the table image goes (the same layout ``draw_table`` paints)."""
    if width < 480:
        raise ValueError(f"A table image needs a width of at least 480 pixels, not {width}.")
    u = _unit(width)
    margin = round(28 * u)
    header = layout_header(view.players, width, margin, translate)
    caption_h = round(50 * u) if view.caption else 0
    limit = max_height if max_height is not None else round(width * 0.9)
    area_w = width - 2 * margin
    area_max = max(100, limit - header.height - caption_h - margin)
    tile_w = choose_tile_width(view.melds, area_w, area_max, width, translate)
    area = layout_melds(view.melds, margin, header.height, area_w, tile_w, translate)
    area_h = area.height if view.melds else round(160 * u)
    area_box = Box(margin, header.height, area_w, area_h)
    y = header.height + area_h + round(14 * u)
    caption_box = None
    if view.caption:
        caption_box = Box(margin, y, area_w, caption_h - round(14 * u))
        y += caption_h
    height = y + margin - round(14 * u)
    return TableLayout(width, height, margin, header, area, area_box, caption_box)


def paint_melds(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    area: MeldArea,
    state_of: Callable[[Tile], TileState],
    *,
    show_reasons: bool = True,
    translate: Translate = english,
) -> None:
    """Trays, number badges (with the reason for an invalid meld) and tiles."""
    m = MeldMetrics.of(area.tile_width)
    tray_fill: dict[int, tuple[int, int, int]] = {}
    for pm in area.melds:
        bad = pm.slot.error is not None
        fill = theme.error_tray if bad else theme.tray
        tray_fill[pm.slot.number] = fill
        t = pm.tray
        tray = tray_sprite(
            t.w,
            t.h,
            round(m.pad * 1.6),
            fill,
            theme.error if bad else theme.tray_edge,
            max(2, m.pad // 2) if bad else 1,
            theme.background,
        )
        canvas.paste(tray, (t.x, t.y))
        size = m.label_size
        bh = pm.label.h - max(3, m.pad // 2)
        badge = badge_sprite(
            str(pm.slot.number),
            size,
            bh,
            theme.error if bad else theme.text,
            theme.background,
            theme.background,
        )
        bx, by = pm.label.x + m.pad, pm.label.y
        canvas.paste(badge, (bx, by))
        if bad and show_reasons and pm.slot.error:
            start = bx + badge.width + m.reason_gap
            reason = say(pm.slot.error, translate)
            reason = fit_text(reason, size, max(10, pm.label.right - m.pad // 2 - start))
            paste_text(
                canvas,
                (start, by + bh / 2),
                reason,
                size,
                theme.error,
                theme.background,
                anchor="lm",
            )
        if not pm.slot.tiles:
            empty = fit_text(translate("empty"), size, t.w - 2 * m.pad)
            paste_text(canvas, t.center, empty, size, theme.muted, fill, anchor="mm")
    for pt in area.tiles:
        joker = pt.tile.copy if pt.tile.is_joker else None
        draw_tile(
            canvas,
            theme,
            pt.box.x,
            pt.box.y,
            pt.box.w,
            pt.tile.face,
            joker=joker,
            stands_for=pt.face if pt.tile.is_joker else None,
            state=state_of(pt.tile),
            background=tray_fill[pt.meld or 0],
        )


def draw_caption(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    box: Box,
    text: str,
    width: int,
) -> None:
    """The last move, with a swatch in the highlight colour as its legend."""
    u = _unit(width)
    sw, sh = round(22 * u), round(28 * u)
    cy = box.y + box.h / 2
    draw.rounded_rectangle(
        (box.x, cy - sh / 2, box.x + sw, cy + sh / 2),
        radius=round(5 * u),
        fill=theme.highlight_face,
        outline=theme.highlight_ring,
        width=max(2, round(3 * u)),
    )
    size = round(24 * u)
    x = box.x + sw + round(12 * u)
    line = fit_text(text, size, box.right - x)
    paste_text(canvas, (x, cy), line, size, theme.text, theme.background, anchor="lm")


def draw_table(
    view: TableView,
    *,
    theme: str | Theme = "light",
    width: int = DEFAULT_WIDTH,
    max_height: int | None = None,
    translate: Translate = english,
) -> Image.Image:
    """The table as a Pillow image (use ``render_table`` for PNG bytes); ``translate`` says
    its words in the reader's language."""
    th = get_theme(theme)
    lay = layout_table(view, width=width, max_height=max_height, translate=translate)
    canvas = Image.new("RGB", (lay.width, lay.height), th.background)
    draw = ImageDraw.Draw(canvas)
    draw_status(
        canvas,
        th,
        width,
        lay.margin,
        title=say(view.title, translate),
        seconds_left=view.seconds_left,
        pool_size=view.pool_size,
        translate=translate,
    )
    draw_players(canvas, th, width, lay.header, translate)
    if view.melds:
        highlight = view.highlight

        def state_of(tile: Tile) -> TileState:
            return "highlight" if tile in highlight else "plain"

        paint_melds(canvas, draw, th, lay.area, state_of, translate=translate)
    else:
        b = lay.area_box
        draw.rounded_rectangle(
            (b.x, b.y, b.right, b.bottom), radius=round(18 * _unit(width)), fill=th.tray
        )
        size = round(30 * _unit(width))
        empty = fit_text(translate("No melds on the table yet"), size, b.w - 2 * lay.margin)
        draw_text(draw, b.center, empty, size, th.muted, anchor="mm")
    if lay.caption_box is not None:
        caption = say(view.caption, translate)
        draw_caption(canvas, draw, th, lay.caption_box, caption, width)
    return canvas


def render_table(
    view: TableView,
    *,
    theme: str | Theme = "light",
    width: int = DEFAULT_WIDTH,
    max_height: int | None = None,
    translate: Translate = english,
) -> bytes:
    """PNG bytes of the table image: pure and thread-safe (call it via ``asyncio.to_thread``)."""
    th = get_theme(theme)
    image = draw_table(view, theme=th, width=width, max_height=max_height, translate=translate)
    return encode_png(image, th)
