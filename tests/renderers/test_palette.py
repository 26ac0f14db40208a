"""The palettes are shipped data measured from the sample scenes, not built by drawing at run
time (which tied the palette module to every renderer)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.cli.samples import measure_palette, opening_table, sample_mosaic
from renderers.palette import palette_image, palette_path, theme_palette, to_palette
from renderers.table import draw_table
from renderers.theme import THEMES, get_theme


def mapping_error(mosaic: Image.Image, palette: Image.Image) -> float:
    """The mean colour error (0-255 per channel) of ``mosaic`` mapped onto ``palette``."""
    mapped = mosaic.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    return sum(ImageStat.Stat(ImageChops.difference(mosaic, mapped)).mean) / 3


@pytest.mark.parametrize("name", sorted(THEMES))
def test_shipped_palette_still_fits_the_sample_scenes(name: str) -> None:
    """Within a quarter of what a palette measured afresh gets: a change of colours or of the
    way tiles are drawn that makes it worse says to measure it again."""
    mosaic = sample_mosaic(name)
    shipped = mapping_error(mosaic, palette_image(palette_path(name).read_bytes()))
    fresh = mapping_error(mosaic, palette_image(measure_palette(name)))
    assert shipped <= fresh * 1.25 + 0.05, (
        f"renderers/palettes/{name}.pal no longer fits the pictures ({shipped:.3f} against "
        f"{fresh:.3f}): run python scripts/build_palettes.py"
    )
    assert shipped < 1.5  # about a hundredth of a channel's range


@pytest.mark.parametrize("name", sorted(THEMES))
def test_a_picture_maps_onto_its_theme_palette(name: str) -> None:
    theme = get_theme(name)
    image = to_palette(draw_table(opening_table(), theme=theme), theme)
    assert image.mode == "P"
    assert image.getpalette()[:30] == theme_palette(theme).getpalette()[:30]
    assert len(image.getcolors(256) or []) > 8  # the tiles' colours, not one flat colour
