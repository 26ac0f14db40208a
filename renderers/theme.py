"""Colours and colour-blind-safe shapes for tiles, and the light and dark themes.

Tile faces are the same cream in both themes (they are physical tiles); only the table around
them changes. Every colour also has a shape printed under the number, so colour is never the
only cue: black square, blue circle, orange triangle, red diamond.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tiles import Color

RGB = tuple[int, int, int]

INK: dict[Color, RGB] = {
    Color.BLACK: (32, 33, 36),
    Color.BLUE: (18, 94, 190),
    Color.ORANGE: (226, 112, 0),
    Color.RED: (204, 28, 44),
}
"""Number colours on a cream face, chosen to stay apart from each other and from the face."""

SHAPES: dict[Color, str] = {
    Color.BLACK: "square",
    Color.BLUE: "circle",
    Color.ORANGE: "triangle",
    Color.RED: "diamond",
}


@dataclass(frozen=True, slots=True)
class Theme:
    """Everything a renderer paints that is not a tile's number."""

    name: str
    background: RGB
    tray: RGB
    tray_edge: RGB
    text: RGB
    muted: RGB
    accent: RGB
    accent_text: RGB
    chip: RGB
    tile_face: RGB
    tile_edge: RGB
    tile_outline: RGB
    highlight_face: RGB
    highlight_ring: RGB
    changed_ring: RGB
    new_ring: RGB
    error: RGB
    error_tray: RGB
    rack: RGB
    rack_ledge: RGB
    joker_ink: tuple[RGB, RGB]


LIGHT = Theme(
    name="light",
    background=(232, 237, 233),
    tray=(214, 224, 216),
    tray_edge=(190, 204, 193),
    text=(28, 36, 32),
    muted=(92, 104, 98),
    accent=(22, 110, 78),
    accent_text=(255, 255, 255),
    chip=(250, 252, 250),
    tile_face=(251, 245, 228),
    tile_edge=(206, 192, 160),
    tile_outline=(150, 138, 112),
    highlight_face=(255, 236, 140),
    highlight_ring=(232, 160, 0),
    changed_ring=(0, 150, 170),
    new_ring=(30, 150, 60),
    error=(200, 30, 40),
    error_tray=(246, 212, 210),
    rack=(58, 64, 72),
    rack_ledge=(36, 40, 46),
    joker_ink=((204, 28, 44), (32, 33, 36)),
)

DARK = Theme(
    name="dark",
    background=(30, 34, 40),
    tray=(44, 50, 58),
    tray_edge=(62, 70, 80),
    text=(232, 236, 240),
    muted=(150, 160, 172),
    accent=(64, 190, 140),
    accent_text=(16, 24, 20),
    chip=(48, 54, 63),
    tile_face=(246, 239, 220),
    tile_edge=(178, 164, 132),
    tile_outline=(120, 110, 90),
    highlight_face=(255, 232, 120),
    highlight_ring=(255, 184, 0),
    changed_ring=(40, 200, 220),
    new_ring=(70, 210, 100),
    error=(255, 92, 92),
    error_tray=(84, 40, 44),
    rack=(70, 76, 86),
    rack_ledge=(20, 22, 26),
    joker_ink=((204, 28, 44), (32, 33, 36)),
)

THEMES: dict[str, Theme] = {"light": LIGHT, "dark": DARK}


def get_theme(theme: str | Theme) -> Theme:
    """Look a theme up by name ("light" or "dark"), or pass a ``Theme`` through."""
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        names = ", ".join(sorted(THEMES))
        raise ValueError(f"Unknown theme {theme!r}; choose one of {names}.") from None
