"""Drawing primitives shared by the renderers: fonts, shapes, cached tile sprites, PNG bytes.

Sprites are drawn once at three times their size and reduced (smooth corners and text), then
cached by everything that affects their pixels; the cache is guarded by a lock and the cached
images are only ever read (pasted), so renderers can run in several threads at once. Fonts are
cached per thread, because a FreeType face is not meant to be shared between threads.
"""

from __future__ import annotations

import functools
import io
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from engine.tiles import Color, Face
from renderers.theme import INK, RGB, SHAPES, Theme

Font = ImageFont.FreeTypeFont
TileState = Literal["plain", "highlight", "changed", "new"]

SUPERSAMPLE = 3
PNG_COMPRESS_LEVEL = 3
"""zlib level for PNG output: level 3 encodes about twice as fast as the default 6 for a file
about 10% larger (see benchmarks/bench_render.py)."""

FONTS = Path(__file__).resolve().parent / "fonts"
FONT_FILES = {
    False: FONTS / "HyperlegiblePlainZero-Regular.ttf",
    True: FONTS / "HyperlegiblePlainZero-Bold.ttf",
}
"""Atkinson Hyperlegible (SIL OFL, ``fonts/OFL.txt``) with a plain zero instead of its slashed
one, which made 10 read like "1Ø" on small tiles (``scripts/plain_zero_font.py`` derives these
files from the ``AtkinsonHyperlegible-*.ttf`` beside them; the font has no OpenType feature
for it). Drawn for legibility at small sizes, and unlike Pillow's built-in Aileron it has the
Latin Extended letters (ą ć ę ł ń ó ś ź ż, ä, é...) that Polish labels and players' names
need."""

_local = threading.local()


def font(size: int, bold: bool = False) -> Font:
    """The bundled font at ``size`` px (regular or bold), cached per thread."""
    cache: dict[tuple[int, bool], Font] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = {}
        _local.fonts = cache
    found = cache.get((size, bold))
    if found is None:
        found = cache[size, bold] = ImageFont.truetype(str(FONT_FILES[bold]), size)
    return found


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` in the bundled font (cached: layouts ask often)."""
    left, _, right, _ = font(size, bold).getbbox(text)
    return math.ceil(right - left)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)


def paste_text(
    canvas: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    background: RGB,
    *,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    """Like ``draw_text`` on a flat ``background``, from a cached sprite of the text: most
    header text (names, counts, titles) repeats from one image to the next."""

    def make() -> Image.Image:
        box = font(size, bold).getbbox(text, anchor=anchor)
        left, top, right, bottom = (
            math.floor(box[0]),
            math.floor(box[1]),
            *map(math.ceil, box[2:]),
        )
        im = Image.new("RGB", (max(1, right - left), max(1, bottom - top)), background)
        draw_text(ImageDraw.Draw(im), (-left, -top), text, size, fill, bold=bold, anchor=anchor)
        im.info["offset"] = (left, top)
        return im

    sprite = cached_sprite(("text", text, size, fill, background, bold, anchor), make)
    left, top = sprite.info["offset"]
    canvas.paste(sprite, (round(xy[0] + left), round(xy[1] + top)))


def draw_shape(
    draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: RGB
) -> None:
    """A small solid shape of radius ``r``: square, circle, triangle or diamond."""
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif shape == "square":
        k = r * 0.86
        draw.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill)
    elif shape == "triangle":
        draw.polygon(
            [(cx, cy - r * 1.05), (cx + r * 1.1, cy + r * 0.85), (cx - r * 1.1, cy + r * 0.85)],
            fill=fill,
        )
    elif shape == "diamond":
        k = r * 1.15
        draw.polygon(
            [(cx, cy - k), (cx + k * 0.85, cy), (cx, cy + k), (cx - k * 0.85, cy)], fill=fill
        )
    else:
        raise ValueError(f"Unknown shape {shape!r}.")


def draw_play_marker(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    """A right-pointing triangle (the "to play" marker; the font has no symbol glyphs)."""
    draw.polygon([(cx - r * 0.7, cy - r), (cx + r, cy), (cx - r * 0.7, cy + r)], fill=fill)


def draw_clock(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: RGB) -> None:
    width = max(2, round(r / 4))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=width)
    draw.line([(cx, cy), (cx, cy - r * 0.6)], fill=ink, width=width)
    draw.line([(cx, cy), (cx + r * 0.45, cy + r * 0.2)], fill=ink, width=width)


def draw_stack(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: RGB) -> None:
    """Two tiles lying face down, one on the other: the pool."""
    w, h = r * 1.1, r * 1.5
    width = max(2, round(r / 5))
    for dx, dy, solid in ((-r * 0.35, -r * 0.3, False), (r * 0.35, r * 0.3, True)):
        box = (cx + dx - w / 2, cy + dy - h / 2, cx + dx + w / 2, cy + dy + h / 2)
        draw.rounded_rectangle(
            box,
            radius=max(1, round(r / 4)),
            fill=ink if solid else None,
            outline=None if solid else ink,
            width=width,
        )


def draw_trophy(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: RGB) -> None:
    width = max(2, round(r / 5))
    draw.pieslice((cx - r * 0.7, cy - r * 1.3, cx + r * 0.7, cy + r * 0.3), 0, 180, fill=ink)
    draw.arc((cx - r, cy - r * 0.9, cx - r * 0.3, cy - r * 0.1), 90, 270, fill=ink, width=width)
    draw.arc((cx + r * 0.3, cy - r * 0.9, cx + r, cy - r * 0.1), 270, 90, fill=ink, width=width)
    draw.rectangle((cx - r * 0.12, cy + r * 0.2, cx + r * 0.12, cy + r * 0.7), fill=ink)
    draw.rectangle((cx - r * 0.5, cy + r * 0.7, cx + r * 0.5, cy + r * 0.95), fill=ink)


# ---------------------------------------------------------------------------------------------
# Tile sprites


@dataclass(frozen=True, slots=True)
class TileGeometry:
    """Pixel sizes derived from one tile width, shared by layout code and sprites."""

    width: int

    @property
    def height(self) -> int:
        return round(self.width * 1.32)

    @property
    def gap(self) -> int:
        return max(2, round(self.width / 14))


def tile_label(face: Face | None) -> str:
    """The small "stands for" text on a joker: ``R4``, ``9`` (either missing colour) or ``?``."""
    if face is None:
        return "?"
    return str(face)


_sprite_lock = threading.Lock()
_sprites: dict[tuple[object, ...], Image.Image] = {}
SPRITE_CACHE_LIMIT = 4000
"""Cached sprites are small; the cap only guards a long-running bot against odd sizes."""


def cached_sprite(key: tuple[object, ...], make: Callable[[], Image.Image]) -> Image.Image:
    """The sprite for ``key``, made once (under a lock) and then only read."""
    with _sprite_lock:
        sprite = _sprites.get(key)
        if sprite is None:
            if len(_sprites) >= SPRITE_CACHE_LIMIT:
                _sprites.clear()
            sprite = _sprites[key] = make()
    return sprite


def tray_sprite(
    width: int, height: int, radius: int, fill: RGB, outline: RGB, line: int, background: RGB
) -> Image.Image:
    """A rounded panel with smooth corners (drawn large and reduced), cached."""

    def make() -> Image.Image:
        s = SUPERSAMPLE
        im = Image.new("RGB", (width * s, height * s), background)
        ImageDraw.Draw(im).rounded_rectangle(
            (0, 0, width * s - 1, height * s - 1),
            radius=radius * s,
            fill=fill,
            outline=outline,
            width=line * s,
        )
        return im.reduce(s)

    return cached_sprite(("tray", width, height, radius, fill, outline, line, background), make)


def badge_sprite(
    text: str, size: int, height: int, fill: RGB, ink: RGB, background: RGB
) -> Image.Image:
    """A pill (a circle for one or two digits) with bold ``text`` centred in it, cached."""

    def make() -> Image.Image:
        s = SUPERSAMPLE
        width = max(height, text_width(text, size, bold=True) + height // 2)
        im = Image.new("RGB", (width * s, height * s), background)
        d = ImageDraw.Draw(im)
        d.rounded_rectangle(
            (0, 0, width * s - 1, height * s - 1), radius=height * s // 2, fill=fill
        )
        draw_text(d, (width * s / 2, height * s / 2), text, size * s, ink, bold=True, anchor="mm")
        return im.reduce(s)

    return cached_sprite(("badge", text, size, height, fill, ink, background), make)


def tile_sprite(
    theme: Theme,
    width: int,
    face: Face,
    *,
    joker: int | None = None,
    stands_for: Face | None = None,
    state: TileState = "plain",
    background: RGB,
    label: bool = True,
) -> Image.Image:
    """An RGB image of one tile on ``background``: the cached, read-only sprite.

    ``face`` is what a real tile shows; for a joker pass ``joker`` (which copy: red or black
    face) and ``stands_for`` (the small label under the face; ``label=False`` on a rack).
    """
    key = ("tile", theme.name, width, face, joker, stands_for, state, background, label)
    return cached_sprite(
        key,
        lambda: _make_tile(theme, width, face, joker, stands_for, state, background, label),
    )


def sprite_cache_size() -> int:
    with _sprite_lock:
        return len(_sprites)


def _make_tile(
    theme: Theme,
    width: int,
    face: Face,
    joker: int | None,
    stands_for: Face | None,
    state: TileState,
    background: RGB,
    label: bool,
) -> Image.Image:
    geo = TileGeometry(width)
    s = SUPERSAMPLE
    w, h = geo.width * s, geo.height * s
    im = Image.new("RGB", (w, h), background)
    d = ImageDraw.Draw(im)
    radius = round(w * 0.13)
    edge = max(s * 2, round(h * 0.06))
    line = s
    face_fill = theme.highlight_face if state == "highlight" else theme.tile_face
    # Body (the tile's thickness shows as a darker band at the bottom), then the face.
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=theme.tile_outline)
    d.rounded_rectangle(
        (line, line * 2, w - 1 - line, h - 1 - line), radius=radius, fill=theme.tile_edge
    )
    d.rounded_rectangle((line, line, w - 1 - line, h - 1 - edge), radius=radius, fill=face_fill)
    ring = {
        "highlight": theme.highlight_ring,
        "changed": theme.changed_ring,
        "new": theme.new_ring,
    }.get(state)
    ring_w = max(s * 2, round(w * 0.075))
    if ring is not None:
        d.rounded_rectangle(
            (line, line, w - 1 - line, h - 1 - edge), radius=radius, outline=ring, width=ring_w
        )
    if state == "changed":
        r = w * 0.085
        cx, cy = w - ring_w - r * 1.6, ring_w + r * 1.6
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.changed_ring)
    face_h = h - edge
    if joker is None:
        assert face.color is not None
        ink = INK[face.color]
        size = round(w * (0.56 if face.number < 10 else 0.5))
        draw_text(d, (w / 2, face_h * 0.42), str(face.number), size, ink, bold=True, anchor="mm")
        draw_shape(d, SHAPES[face.color], w / 2, face_h * 0.79, w * 0.085, ink)
    else:
        ink = theme.joker_ink[joker % 2]
        _draw_joker(d, w, face_h, ink, face_fill, stands_for if label else None, label)
    return im.reduce(s)


def _draw_joker(
    d: ImageDraw.ImageDraw,
    w: int,
    face_h: int,
    ink: RGB,
    face_fill: RGB,
    stands_for: Face | None,
    label: bool,
) -> None:
    cx, cy, r = w / 2, face_h * (0.36 if label else 0.47), w * (0.27 if label else 0.32)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    eye = r * 0.16
    for ex in (cx - r * 0.38, cx + r * 0.38):
        d.ellipse(
            (ex - eye, cy - r * 0.3 - eye * 1.3, ex + eye, cy - r * 0.3 + eye * 1.3), fill=face_fill
        )
    mouth = r * 0.62
    d.arc(
        (cx - mouth, cy - mouth * 0.75, cx + mouth, cy + mouth * 0.95),
        20,
        160,
        fill=face_fill,
        width=max(2, round(r * 0.14)),
    )
    if not label:
        return
    text = tile_label(stands_for)
    if stands_for is not None and stands_for.color is not None:
        label_ink = INK[stands_for.color]
    else:
        label_ink = (90, 84, 70)
    size = round(w * (0.3 if len(text) <= 2 else 0.26))
    draw_text(d, (cx, face_h * 0.8), text, size, label_ink, bold=True, anchor="mm")


def draw_tile(
    canvas: Image.Image,
    theme: Theme,
    x: int,
    y: int,
    width: int,
    tile_face: Face,
    *,
    joker: int | None = None,
    stands_for: Face | None = None,
    state: TileState = "plain",
    background: RGB,
    label: bool = True,
) -> None:
    sprite = tile_sprite(
        theme,
        width,
        tile_face,
        joker=joker,
        stands_for=stands_for,
        state=state,
        background=background,
        label=label,
    )
    canvas.paste(sprite, (x, y))


def ink_of(color: Color) -> RGB:
    return INK[color]


# ---------------------------------------------------------------------------------------------
# Output


def encode_png(
    image: Image.Image, theme: Theme | None = None, *, compress_level: int = PNG_COMPRESS_LEVEL
) -> bytes:
    """PNG bytes of ``image`` (no metadata, so equal images give equal bytes).

    With ``theme`` the image is stored as a palette PNG on that theme's palette: about half the
    bytes and several times faster than RGB, with no visible difference.
    """
    if theme is not None:
        from renderers.palette import to_palette

        image = to_palette(image, theme)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()
