"""The palettes are shipped data measured from the sample scenes, not built by drawing at run
time (which tied the palette module to every renderer)."""

from __future__ import annotations

import pytest

from bot.cli.samples import measure_palette
from renderers.palette import palette_path, theme_palette, to_palette
from renderers.table import draw_table
from renderers.theme import THEMES, get_theme


@pytest.mark.parametrize("name", sorted(THEMES))
def test_shipped_palette_matches_the_sample_scenes(name: str) -> None:
    shipped = palette_path(name).read_bytes()
    assert shipped == measure_palette(name), (
        f"renderers/palettes/{name}.pal is stale: run python scripts/build_palettes.py"
    )


@pytest.mark.parametrize("name", sorted(THEMES))
def test_a_picture_maps_onto_its_theme_palette(name: str) -> None:
    from bot.cli.samples import opening_table

    theme = get_theme(name)
    image = to_palette(draw_table(opening_table(), theme=theme), theme)
    assert image.mode == "P"
    assert image.getpalette()[:30] == theme_palette(theme).getpalette()[:30]
    assert len(image.getcolors(256) or []) > 8  # the tiles' colours, not one flat colour
