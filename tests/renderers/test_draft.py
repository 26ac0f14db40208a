"""The private draft image: changed tiles marked, invalid melds red with their reason."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from bot.cli.samples import sample_draft
from bot.i18n import translator
from renderers import render_draft
from renderers.draft import layout_draft
from renderers.draw import text_width
from renderers.layout import Box, MeldMetrics
from renderers.theme import LIGHT, RGB
from renderers.words import say
from tests.renderers.pixels import decode, distance, ink_color


def test_changed_tiles_and_invalid_melds_are_marked() -> None:
    view = sample_draft()
    image = decode(render_draft(view))
    lay = layout_draft(view)
    assert image.size == (lay.width, lay.height)
    for placed in lay.area.tiles:
        rim = image.getpixel((placed.box.x + placed.box.w // 2, placed.box.y + 3))
        changed = distance(rim, LIGHT.changed_ring) < 40
        assert changed is (placed.tile in view.changed), placed.tile
        if placed.tile.color is not None:
            assert ink_color(image, placed.box) is placed.tile.color
    for pm in lay.area.melds:
        corner = image.getpixel((pm.tray.x + pm.tray.w // 2, pm.tray.bottom - 2))
        red = distance(corner, LIGHT.error) < 40
        assert red is (pm.slot.error is not None), pm.slot.number


def test_reasons_are_listed_and_the_rack_is_shown() -> None:
    view = sample_draft()
    lay = layout_draft(view)
    reasons = " ".join(line for _, line in lay.problem_lines)
    assert "7 is missing" in reasons
    assert "at least 3 tiles" in reasons
    assert {p.tile for p in lay.rack.tiles} == set(view.rack.tiles)
    assert all(lay.area.tiles[-1].box.bottom < p.box.y for p in lay.rack.tiles)


def _ink_columns(image: Image.Image, box: Box, colour: RGB) -> list[int]:
    """Columns of ``box`` with at least one pixel close to ``colour``."""
    return [
        x
        for x in range(box.x, box.right)
        if any(distance(image.getpixel((x, y)), colour) < 120 for y in range(box.y, box.bottom))
    ]


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_an_invalid_melds_reason_stands_apart_from_its_number_and_is_not_cut(lang: str) -> None:
    translate = translator(lang)
    view = sample_draft()
    image = decode(render_draft(view, translate=translate))
    lay = layout_draft(view, translate=translate)
    m = MeldMetrics.of(lay.area.tile_width)
    bad = [pm for pm in lay.area.melds if pm.slot.error is not None]
    assert len(bad) == 2
    for pm in bad:
        assert pm.slot.error is not None
        columns = _ink_columns(image, pm.label, LIGHT.error)
        badge_end = next(x for x, nxt in itertools.pairwise(columns) if nxt > x + 1)
        text_start = columns[columns.index(badge_end) + 1]
        assert text_start - badge_end >= 0.35 * m.label_size, pm.slot.number  # not "37 is..."
        reason = say(pm.slot.error, translate)
        assert columns[-1] - text_start >= text_width(reason, m.label_size) - 0.3 * m.label_size
