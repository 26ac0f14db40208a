"""The rack image: sorted as asked, the drawn tile marked, two tiers when it is long."""

from __future__ import annotations

import itertools

from bot.cli.samples import sample_rack
from renderers import render_rack
from renderers.rack import rack_layout
from renderers.theme import LIGHT, SHAPES
from renderers.views import RackView, tiles_from_text
from tests.renderers.pixels import decode, distance, ink_color, ink_pixels, marker_shape


def reading_order(view: RackView, **options: bool) -> list[str]:
    placed = rack_layout(view, **options).tiles
    return [str(p.tile) for p in sorted(placed, key=lambda p: (p.box.y, p.box.x))]


def test_sorted_by_colour_then_number_jokers_last() -> None:
    view = RackView(tiles_from_text("R7 K1 J B5 K13 O2 R1"), sort_by="color")
    assert reading_order(view) == ["K1", "K13", "B5", "O2", "R1", "R7", "J"]


def test_sorted_by_number() -> None:
    view = RackView(tiles_from_text("R7 K1 J B5 K13 O2 R1"), sort_by="number")
    assert reading_order(view) == ["K1", "R1", "O2", "B5", "R7", "K13", "J"]


def test_tiles_read_back_in_their_colours_and_shapes() -> None:
    view = sample_rack()
    image = decode(render_rack(view))
    for placed in rack_layout(view).tiles:
        if placed.tile.color is None:
            continue
        assert ink_color(image, placed.box) is placed.tile.color
        assert marker_shape(image, placed.box) == SHAPES[placed.tile.color]


def test_new_tile_is_marked_and_no_other() -> None:
    view = sample_rack()
    image = decode(render_rack(view))
    (new,) = view.new_tiles
    for placed in rack_layout(view).tiles:
        rim = image.getpixel((placed.box.x + placed.box.w // 2, placed.box.y + 3))
        is_ring = distance(rim, LIGHT.new_ring) < 40
        assert is_ring is (placed.tile == new), placed.tile


def test_long_rack_uses_two_tiers_and_fits_a_phone() -> None:
    view = sample_rack()  # 14 tiles
    lay = rack_layout(view)
    tiers = sorted({p.box.y for p in lay.tiles})
    assert len(tiers) == 2
    image = decode(render_rack(view))
    assert image.width < 900
    # Shown 360 px wide on a phone, each tile is still at least 30 px wide.
    assert lay.tile_width * 360 / image.width >= 30


def test_positions_make_room_under_the_tiles() -> None:
    view = sample_rack()
    plain = decode(render_rack(view))
    numbered = decode(render_rack(view, positions=True))
    assert numbered.height > plain.height


def test_empty_and_huge_racks_render() -> None:
    assert decode(render_rack(RackView(()))).width >= 360
    big = RackView(tiles_from_text(" ".join(f"R{n} B{n} K{n}" for n in range(1, 14))))
    image = decode(render_rack(big, theme="dark"))
    assert len({p.box.y for p in rack_layout(big).tiles}) == 3
    assert max(image.size) <= 1600


def test_a_ten_shows_a_plain_zero_with_an_empty_middle() -> None:
    """The zero of 10 is an oval with nothing inside (a slashed zero made 10 read like 1Ø)."""
    view = RackView(tiles_from_text("K10 B10 O10 R10"))
    image = decode(render_rack(view))
    for placed in rack_layout(view).tiles:
        box = placed.box
        number = [(x, y) for x, y, _ in ink_pixels(image, box) if y < box.y + box.h * 0.62]
        columns = sorted({x for x, _ in number})
        gap = next(x for x, nxt in itertools.pairwise(columns) if nxt > x + 1)
        zero = [(x, y) for x, y in number if x > gap]
        x0, x1 = min(x for x, _ in zero), max(x for x, _ in zero)
        y0, y1 = min(y for _, y in zero), max(y for _, y in zero)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        middle = {(x, y) for x in range(cx - 2, cx + 3) for y in range(cy - 3, cy + 4)}
        assert not middle & set(zero), placed.tile
        assert (cx, y0) in set(zero) or any((cx + d, y0) in set(zero) for d in (-1, 1))
