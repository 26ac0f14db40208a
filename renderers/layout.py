"""Where things go: boxes for melds and tiles, computed before any pixel is drawn.

Layouts are plain data, so tests (and anyone debugging a picture) can ask where tile R7 was put
and read the pixels there.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.messages import Translate, english
from engine.tiles import Face, Tile
from renderers.draw import TileGeometry, text_width
from renderers.views import MeldSlot
from renderers.words import say


@dataclass(frozen=True, slots=True)
class Box:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2

    def contains(self, other: Box) -> bool:
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def overlaps(self, other: Box) -> bool:
        return not (
            other.x >= self.right
            or other.right <= self.x
            or other.y >= self.bottom
            or other.bottom <= self.y
        )


@dataclass(frozen=True, slots=True)
class PlacedTile:
    tile: Tile
    face: Face | None
    box: Box
    meld: int | None = None


@dataclass(frozen=True, slots=True)
class PlacedMeld:
    slot: MeldSlot
    tray: Box
    label: Box


@dataclass(frozen=True, slots=True)
class MeldArea:
    tile_width: int
    melds: tuple[PlacedMeld, ...]
    tiles: tuple[PlacedTile, ...]
    height: int


@dataclass(frozen=True, slots=True)
class MeldMetrics:
    """Spacing around melds, all derived from the tile width (``MeldMetrics.of(width)``)."""

    tile_width: int
    tile_height: int
    gap: int
    pad: int
    meld_gap: int
    label_h: int
    row_gap: int
    label_size: int

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(tile_width: int) -> MeldMetrics:
        geo = TileGeometry(tile_width)
        return MeldMetrics(
            tile_width=tile_width,
            tile_height=geo.height,
            gap=geo.gap,
            pad=max(4, round(tile_width * 0.1)),
            meld_gap=max(10, round(tile_width * 0.28)),
            label_h=max(18, round(tile_width * 0.46)),
            row_gap=max(6, round(tile_width * 0.16)),
            label_size=max(14, round(tile_width * 0.37)),
        )

    @property
    def reason_gap(self) -> int:
        """Space between an invalid meld's number badge and its reason."""
        return max(self.pad, round(self.label_size * 0.45))

    def tray_width(
        self, slot: MeldSlot, translate: Translate = english, limit: int | None = None
    ) -> int:
        """Room for the tiles, and for an invalid meld also for its whole reason (up to
        ``limit``, the width of the area), since the reason is what the player needs to read."""
        n = max(1, len(slot.tiles))
        width = n * self.tile_width + (n - 1) * self.gap + 2 * self.pad
        if slot.error:
            badge = max(self.label_h, text_width(str(slot.number), self.label_size, True))
            reason = say(slot.error, translate)
            need = 2 * self.pad + badge + self.reason_gap + text_width(reason, self.label_size)
            width = max(width, need if limit is None else min(need, limit))
        return width

    @property
    def tray_height(self) -> int:
        return self.tile_height + 2 * self.pad


def area_height(
    slots: Sequence[MeldSlot], area_width: int, tile_width: int, translate: Translate = english
) -> int:
    """The height ``layout_melds`` would give, without placing every tile (for size search)."""
    if not slots:
        return 0
    m = MeldMetrics.of(tile_width)
    row_h = m.label_h + m.tray_height
    x, rows = 0, 1
    for slot in slots:
        tw = m.tray_width(slot, translate, area_width)
        if x > 0 and x + tw > area_width:
            x = 0
            rows += 1
        x += tw + m.meld_gap
    return rows * row_h + (rows - 1) * m.row_gap


def layout_melds(
    slots: Sequence[MeldSlot],
    x0: int,
    y0: int,
    area_width: int,
    tile_width: int,
    translate: Translate = english,
) -> MeldArea:
    """Flow melds left to right, top to bottom, in number order (reading order = numbers)."""
    m = MeldMetrics.of(tile_width)
    placed: list[PlacedMeld] = []
    tiles: list[PlacedTile] = []
    x, y = x0, y0
    row_h = m.label_h + m.tray_height
    for slot in slots:
        tw = m.tray_width(slot, translate, area_width)
        if x > x0 and x + tw > x0 + area_width:
            x = x0
            y += row_h + m.row_gap
        label = Box(x, y, tw, m.label_h)  # an invalid meld's reason may be wider than its tray
        tray = Box(x, y + m.label_h, m.tray_width(slot, translate, 0), m.tray_height)
        placed.append(PlacedMeld(slot, tray, label))
        tx = tray.x + m.pad
        for tile, face in zip(slot.tiles, slot.faces, strict=True):
            tiles.append(
                PlacedTile(
                    tile, face, Box(tx, tray.y + m.pad, m.tile_width, m.tile_height), slot.number
                )
            )
            tx += m.tile_width + m.gap
        x += tw + m.meld_gap
    height = (y - y0 + row_h) if slots else 0
    return MeldArea(tile_width, tuple(placed), tuple(tiles), height)


def fits_width(
    slots: Sequence[MeldSlot], area_width: int, tile_width: int, translate: Translate = english
) -> bool:
    m = MeldMetrics.of(tile_width)
    return all(m.tray_width(s, translate, area_width) <= area_width for s in slots)
