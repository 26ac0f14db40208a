"""The private draft image: changed tiles marked, invalid melds red with their reason."""

from __future__ import annotations

from renderers import render_draft
from renderers.draft import layout_draft
from renderers.samples import sample_draft
from renderers.theme import LIGHT
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
