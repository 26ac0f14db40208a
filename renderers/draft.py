"""The private draft view: the table as the player is rearranging it, and the rack left.

Tiles placed or moved this turn get a teal ring and dot; an invalid meld gets a red tray with the
reason next to its number; the sentences that stop ``done`` are listed under the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.messages import Msg, Translate, english
from engine.tiles import Tile
from renderers.draw import TileState, draw_text, encode_png, text_width
from renderers.layout import Box, MeldArea, layout_melds
from renderers.rack import RackArea, layout_rack, paint_rack
from renderers.table import (
    DEFAULT_WIDTH,
    choose_tile_width,
    draw_status,
    fit_text,
    paint_melds,
    wrap_text,
)
from renderers.theme import Theme, get_theme
from renderers.views import DraftView
from renderers.words import Plural, Text, points_count, say, tiles_count


@dataclass(frozen=True, slots=True)
class DraftLayout:
    width: int
    height: int
    margin: int
    legend_y: int
    area: MeldArea
    area_box: Box
    problems_y: int
    problem_lines: tuple[tuple[bool, str], ...]
    rack_title_y: int
    rack: RackArea


def _u(width: int) -> float:
    return width / DEFAULT_WIDTH


def layout_draft(
    view: DraftView, *, width: int = DEFAULT_WIDTH, translate: Translate = english
) -> DraftLayout:
    if width < 480:
        raise ValueError(f"A draft image needs a width of at least 480 pixels, not {width}.")
    u = _u(width)
    margin = round(28 * u)
    legend_y = margin + round(58 * u)
    top = legend_y + round(48 * u)
    area_w = width - 2 * margin
    tile_w = choose_tile_width(view.melds, area_w, round(width * 0.5), width, translate)
    area = layout_melds(view.melds, margin, top, area_w, tile_w, translate)
    area_h = area.height if view.melds else round(120 * u)
    y = top + area_h + round(16 * u)
    size = round(22 * u)
    lines = tuple(
        (first, line)
        for problem in view.problems
        for first, line in _numbered(
            wrap_text(say(problem, translate), size, area_w - round(30 * u))
        )
    )
    problems_y = y
    y += len(lines) * round(34 * u) + (round(10 * u) if lines else 0)
    rack_title_y = y
    y += round(44 * u)
    rack_tile = min(round(64 * u), max(tile_w, round(56 * u)))
    n = len(view.rack.tiles)
    fit = max(1, (area_w - 6 * round(rack_tile * 0.3)) // (rack_tile + rack_tile // 14))
    per_row = min(max(n, 1), fit)
    rack = layout_rack(
        view.rack.ordered(),
        margin,
        y,
        tile_width=rack_tile,
        per_row=per_row,
        sort_by=view.rack.sort_by,
    )
    height = y + rack.height + margin
    return DraftLayout(
        width,
        height,
        margin,
        legend_y,
        area,
        Box(margin, top, area_w, area_h),
        problems_y,
        lines,
        rack_title_y,
        rack,
    )


def _numbered(lines: list[str]) -> list[tuple[bool, str]]:
    return [(i == 0, line) for i, line in enumerate(lines)]


def draft_status(view: DraftView) -> Text:
    """The verdict next to the legend: legal, or why not yet."""
    if view.is_legal:
        return Msg("Legal: done will commit it") if view.changed else Msg("All melds are valid")
    bad = sum(1 for m in view.melds if m.error is not None)
    if bad:
        reason: Text = Plural(bad, "{count} invalid meld", "{count} invalid melds")
    elif view.problems:
        reason = Msg("not ready")
    else:
        reason = Msg("see below")
    return Msg("Not legal yet: {reason}", reason=reason)


def _legend(
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    x: int,
    y: int,
    view: DraftView,
    u: float,
    right: int,
    translate: Translate,
) -> None:
    size = round(22 * u)
    sw, sh = round(22 * u), round(28 * u)
    cy = y + round(16 * u)
    draw.rounded_rectangle(
        (x, cy - sh / 2, x + sw, cy + sh / 2),
        radius=round(5 * u),
        fill=theme.tile_face,
        outline=theme.changed_ring,
        width=max(2, round(3 * u)),
    )
    x += sw + round(10 * u)
    status = say(draft_status(view), translate)
    status_w = min(text_width(status, size, bold=True), (right - x) // 2)
    legend = fit_text(translate("placed or moved this turn"), size, right - x - status_w - 30)
    draw_text(draw, (x, cy), legend, size, theme.muted, anchor="lm")
    x += text_width(legend, size) + round(30 * u)
    status = fit_text(status, size, right - x, bold=True)
    ink = theme.accent if view.is_legal else theme.error
    draw_text(draw, (x, cy), status, size, ink, bold=True, anchor="lm")


def draw_draft(
    view: DraftView,
    *,
    theme: str | Theme = "light",
    width: int = DEFAULT_WIDTH,
    translate: Translate = english,
) -> Image.Image:
    """The draft as a Pillow image (use ``render_draft`` for PNG bytes)."""
    th = get_theme(theme)
    u = _u(width)
    lay = layout_draft(view, width=width, translate=translate)
    canvas = Image.new("RGB", (lay.width, lay.height), th.background)
    draw = ImageDraw.Draw(canvas)
    title = say(view.title, translate)
    if view.player:
        title += " · " + say(view.player, translate)
    draw_status(
        canvas, th, width, lay.margin, title=title, seconds_left=view.seconds_left, pool_size=None
    )
    _legend(draw, th, lay.margin, lay.legend_y, view, u, width - lay.margin, translate)
    changed = view.changed

    def state_of(tile: Tile) -> TileState:
        return "changed" if tile in changed else "plain"

    if view.melds:
        paint_melds(canvas, draw, th, lay.area, state_of, translate=translate)
    else:
        b = lay.area_box
        draw.rounded_rectangle((b.x, b.y, b.right, b.bottom), radius=round(18 * u), fill=th.tray)
        empty = fit_text(translate("The table is empty"), round(28 * u), b.w - 2 * lay.margin)
        draw_text(draw, b.center, empty, round(28 * u), th.muted, anchor="mm")
    size = round(22 * u)
    y = lay.problems_y
    for first, line in lay.problem_lines:
        cy = y + round(16 * u)
        r = round(5 * u)
        if first:
            draw.ellipse((lay.margin + 4, cy - r, lay.margin + 4 + 2 * r, cy + r), fill=th.error)
        draw_text(draw, (lay.margin + round(24 * u), cy), line, size, th.error, anchor="lm")
        y += round(34 * u)
    rack = view.rack
    points = sum(t.rack_value for t in rack.tiles)
    label = Msg(
        "Rack left: {tiles}, {points}",
        tiles=tiles_count(len(rack.tiles)),
        points=points_count(points),
    )
    label_size = round(24 * u)
    draw_text(
        draw,
        (lay.margin, lay.rack_title_y + round(20 * u)),
        fit_text(say(label, translate), label_size, width - 2 * lay.margin, bold=True),
        label_size,
        th.text,
        bold=True,
        anchor="lm",
    )
    paint_rack(canvas, draw, th, lay.rack, rack.new_tiles, translate, rack.held)
    return canvas


def render_draft(
    view: DraftView,
    *,
    theme: str | Theme = "light",
    width: int = DEFAULT_WIDTH,
    translate: Translate = english,
) -> bytes:
    """PNG bytes of the draft image: pure and thread-safe."""
    th = get_theme(theme)
    return encode_png(draw_draft(view, theme=th, width=width, translate=translate), th)
