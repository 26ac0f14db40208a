"""A 256-colour palette per theme, so PNGs are stored as palette images.

Every picture uses the same few theme colours and their smooth (anti-aliased) blends, so a
palette measured once from the sample scenes of a theme fits every image of that theme. Mapping
an image onto a fixed palette takes about a millisecond; the palette PNG is half the size of the
RGB one and encodes four to five times faster (see benchmarks/bench_render.py).
"""

from __future__ import annotations

import threading

from PIL import Image

from renderers.theme import Theme

_lock = threading.Lock()
_palettes: dict[Theme, Image.Image] = {}


def theme_palette(theme: Theme) -> Image.Image:
    """The palette image for ``theme``: built on first use (0.3-1 s), then only read."""
    with _lock:
        palette = _palettes.get(theme)
        if palette is None:
            palette = _palettes[theme] = _build(theme)
    return palette


def to_palette(image: Image.Image, theme: Theme) -> Image.Image:
    """``image`` mapped onto the theme's palette without dithering (flat colours stay flat)."""
    return image.quantize(palette=theme_palette(theme), dither=Image.Dither.NONE)


def _build(theme: Theme) -> Image.Image:
    from renderers.draft import draw_draft
    from renderers.rack import draw_rack
    from renderers.samples import (
        late_game_table,
        opening_table,
        sample_draft,
        sample_game_end,
        sample_match,
        sample_rack,
    )
    from renderers.standings import draw_standings
    from renderers.table import draw_table

    scenes = [
        draw_table(opening_table(), theme=theme),
        draw_table(late_game_table(), theme=theme),
        draw_draft(sample_draft(), theme=theme),
        draw_rack(sample_rack(), theme=theme, positions=True),
        draw_standings(sample_game_end(), theme=theme),
        draw_standings(sample_match(), theme=theme),
    ]
    width = max(im.width for im in scenes)
    mosaic = Image.new("RGB", (width, sum(im.height for im in scenes)), theme.background)
    y = 0
    for im in scenes:
        mosaic.paste(im, (0, y))
        y += im.height
    return mosaic.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def warm_up(themes: tuple[str, ...] = ("light", "dark")) -> None:
    """Build each theme's palette and the common sprites now (0.3-1 s per theme), so the
    first picture of a game is as quick as the rest; call it once at start-up, off the loop."""
    from renderers.theme import get_theme

    for name in themes:
        theme_palette(get_theme(name))
