"""A player's rack: tiles standing on a two-tier rack, sorted, with the drawn tile marked.

Like a real rack, more than ten tiles are split over two tiers, which keeps the picture compact
enough that each tile stays large on a phone. Sorting by colour leaves a small gap between
colours; ``positions=True`` prints 1, 2, 3... under the tiles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.messages import Msg, Translate, english
from engine.tiles import Tile
from renderers.draw import TileGeometry, TileState, draw_text, draw_tile, encode_png, text_width
from renderers.layout import Box, PlacedTile
from renderers.theme import Theme, get_theme
from renderers.views import RackView
from renderers.words import Text, points_count, say, tiles_count

RACK_TILE_WIDTH = 76


@dataclass(frozen=True, slots=True)
class RackArea:
    tile_width: int
    tiers: tuple[Box, ...]
    tiles: tuple[PlacedTile, ...]
    width: int
    height: int
    positions: bool


def rack_metrics(tile_width: int, positions: bool) -> tuple[int, int, int]:
    """(padding above tiles, ledge height, gap between tiers)."""
    top = max(10, round(tile_width * 0.26))
    ledge = max(10, round(tile_width * (0.34 if positions else 0.16)))
    gap = max(8, round(tile_width * 0.16))
    return top, ledge, gap


def _group_key(tile: Tile, sort_by: str) -> object:
    if tile.is_joker:
        return "joker"
    return tile.color if sort_by == "color" else None


def layout_rack(
    tiles: Sequence[Tile],
    x0: int,
    y0: int,
    *,
    tile_width: int = RACK_TILE_WIDTH,
    per_row: int | None = None,
    sort_by: str = "color",
    positions: bool = False,
) -> RackArea:
    """Place ``tiles`` (already in display order) on one tier per ``per_row`` tiles."""
    geo = TileGeometry(tile_width)
    n = len(tiles)
    if per_row is None:
        per_row = n if n <= 10 else min(16, math.ceil(n / 2))
        per_row = max(per_row, math.ceil(n / 4), 1)
    top, ledge, tier_gap = rack_metrics(tile_width, positions)
    group_gap = round(tile_width * 0.3)
    side = max(8, round(tile_width * 0.14))
    placed: list[PlacedTile] = []
    tiers: list[Box] = []
    y = y0
    widest = 0
    rows = [tiles[i : i + per_row] for i in range(0, n, per_row)] or [[]]
    for row in rows:
        x = x0 + side
        previous: object = None
        for index, tile in enumerate(row):
            key = _group_key(tile, sort_by)
            if index and sort_by != "none" and key != previous:
                x += group_gap
            previous = key
            placed.append(PlacedTile(tile, tile.face, Box(x, y + top, geo.width, geo.height)))
            x += geo.width + geo.gap
        row_w = (x - geo.gap if row else x0 + side + geo.width) - x0 + side
        widest = max(widest, row_w)
        tier_h = top + geo.height + ledge
        tiers.append(Box(x0, y, row_w, tier_h))
        y += tier_h + tier_gap
    tiers = [Box(t.x, t.y, widest, t.h) for t in tiers]
    return RackArea(tile_width, tuple(tiers), tuple(placed), widest, y - tier_gap - y0, positions)


def paint_rack(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    area: RackArea,
    new_tiles: frozenset[Tile],
    translate: Translate = english,
    held: frozenset[Tile] = frozenset(),
) -> None:
    """The rack's tiers and ledges, the tiles, the NEW tags (TAKEN on a joker taken from the
    table in a draft) and optional positions."""
    new, taken = translate("NEW"), translate("TAKEN")
    _, ledge, _ = rack_metrics(area.tile_width, area.positions)
    radius = max(4, round(area.tile_width * 0.12))
    for tier in area.tiers:
        draw.rounded_rectangle(
            (tier.x, tier.y, tier.right, tier.bottom), radius=radius, fill=theme.rack
        )
        draw.rounded_rectangle(
            (tier.x, tier.bottom - ledge, tier.right, tier.bottom),
            radius=radius,
            fill=theme.rack_ledge,
        )
    for index, pt in enumerate(area.tiles, start=1):
        state: TileState = "new" if pt.tile in new_tiles or pt.tile in held else "plain"
        draw_tile(
            canvas,
            theme,
            pt.box.x,
            pt.box.y,
            pt.box.w,
            pt.tile.face,
            joker=pt.tile.copy if pt.tile.is_joker else None,
            state=state,
            background=theme.rack,
            label=False,
        )
        if state == "new":
            tag = taken if pt.tile in held else new
            size = max(12, round(area.tile_width * 0.22))
            tw = text_width(tag, size, bold=True) + size
            th = round(size * 1.35)
            cx = pt.box.x + pt.box.w / 2
            y = pt.box.y - th * 0.7
            draw.rounded_rectangle(
                (cx - tw / 2, y, cx + tw / 2, y + th), radius=th // 2, fill=theme.new_ring
            )
            draw_text(draw, (cx, y + th / 2), tag, size, (255, 255, 255), bold=True, anchor="mm")
        if area.positions:
            size = max(12, round(ledge * 0.62))
            cx = pt.box.x + pt.box.w / 2
            cy = pt.box.bottom + ledge / 2 + 1
            draw_text(draw, (cx, cy), str(index), size, (235, 238, 242), anchor="mm")


def rack_owner(view: RackView) -> Text:
    """``Your rack`` or ``Ann's rack``."""
    return Msg("{name}'s rack", name=view.owner) if view.owner else Msg("Your rack")


def rack_title(view: RackView, translate: Translate = english) -> str:
    """``Your rack · 14 tiles · 87 points``."""
    points = sum(t.rack_value for t in view.tiles)
    parts = (rack_owner(view), tiles_count(len(view.tiles)), points_count(points))
    return " · ".join(say(part, translate) for part in parts)


def draw_rack(
    view: RackView,
    *,
    theme: str | Theme = "light",
    tile_width: int = RACK_TILE_WIDTH,
    positions: bool = False,
    translate: Translate = english,
) -> Image.Image:
    """The rack as a Pillow image (use ``render_rack`` for PNG bytes)."""
    th = get_theme(theme)
    margin = max(16, round(tile_width * 0.3))
    title_size = max(18, round(tile_width * 0.36))
    title_h = round(title_size * 1.7)
    area = rack_layout(view, tile_width=tile_width, positions=positions)
    title = rack_title(view, translate)
    width = max(area.width + 2 * margin, text_width(title, title_size, True) + 2 * margin, 360)
    height = margin + title_h + area.height + margin
    canvas = Image.new("RGB", (width, height), th.background)
    draw = ImageDraw.Draw(canvas)
    draw_text(
        draw,
        (margin, margin + title_size * 0.6),
        title,
        title_size,
        th.text,
        bold=True,
        anchor="lm",
    )
    if not view.tiles:
        tier = area.tiers[0]
        draw_text(
            draw,
            (tier.x + tier.w // 2, tier.y + tier.h // 2),
            translate("empty"),
            title_size,
            th.muted,
            anchor="mm",
        )
    paint_rack(canvas, draw, th, area, view.new_tiles, translate, view.held)
    return canvas


def rack_layout(
    view: RackView, *, tile_width: int = RACK_TILE_WIDTH, positions: bool = False
) -> RackArea:
    """Where ``draw_rack`` puts each tile (for tests and tools)."""
    margin = max(16, round(tile_width * 0.3))
    title_h = round(max(18, round(tile_width * 0.36)) * 1.7)
    return layout_rack(
        view.ordered(),
        margin,
        margin + title_h,
        tile_width=tile_width,
        sort_by=view.sort_by,
        positions=positions,
    )


def render_rack(
    view: RackView,
    *,
    theme: str | Theme = "light",
    tile_width: int = RACK_TILE_WIDTH,
    positions: bool = False,
    translate: Translate = english,
) -> bytes:
    """PNG bytes of the rack image: pure and thread-safe."""
    th = get_theme(theme)
    image = draw_rack(
        view, theme=th, tile_width=tile_width, positions=positions, translate=translate
    )
    return encode_png(image, th)
