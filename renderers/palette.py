"""A 256-colour palette per theme, so PNGs are stored as palette images.

Every picture uses the same few theme colours and their smooth (anti-aliased) blends, so a
palette measured once from the sample scenes of a theme fits every image of that theme. The
palettes are data, shipped beside this module (``palettes/<theme>.pal``: 256 RGB triples),
measured by ``python scripts/build_palettes.py`` from the sample scenes of ``bot.cli.samples``;
a test fails when they no longer match the scenes. Mapping an image onto a fixed palette takes
about a millisecond; the palette PNG is half the size of the RGB one and encodes four to five
times faster (see benchmarks/bench_render.py).
"""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import Image

from renderers.theme import Theme

PALETTES = Path(__file__).resolve().parent / "palettes"
COLOURS = 256

_lock = threading.Lock()
_palettes: dict[str, Image.Image] = {}


def palette_path(name: str) -> Path:
    """Where the palette of the theme called ``name`` is shipped."""
    return PALETTES / f"{name}.pal"


def palette_image(rgb: bytes) -> Image.Image:
    """A "P" image carrying the palette ``rgb`` (256 RGB triples), as ``quantize`` takes it."""
    if len(rgb) != 3 * COLOURS:
        raise ValueError(f"a palette is {3 * COLOURS} bytes, not {len(rgb)}")
    image = Image.new("P", (1, 1))
    image.putpalette(rgb)
    return image


def theme_palette(theme: Theme) -> Image.Image:
    """The palette image for ``theme``, read from its file on first use."""
    with _lock:
        palette = _palettes.get(theme.name)
        if palette is None:
            palette = _palettes[theme.name] = palette_image(palette_path(theme.name).read_bytes())
    return palette


def to_palette(image: Image.Image, theme: Theme) -> Image.Image:
    """``image`` mapped onto the theme's palette without dithering (flat colours stay flat)."""
    return image.quantize(palette=theme_palette(theme), dither=Image.Dither.NONE)


def warm_up(themes: tuple[str, ...] = ("light", "dark")) -> None:
    """Read each theme's palette now, so the first picture of a game is as quick as the rest;
    call it once at start-up, off the loop."""
    from renderers.theme import get_theme

    for name in themes:
        theme_palette(get_theme(name))
