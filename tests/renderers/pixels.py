"""Reading a rendered PNG back the way a person looks at it: which colour is this tile, which
shape is under its number, what is the face colour."""

from __future__ import annotations

import io
from collections import Counter

from PIL import Image

from engine.tiles import Color
from renderers.layout import Box
from renderers.theme import INK, RGB

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def decode(png: bytes) -> Image.Image:
    assert png.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def distance(a: RGB, b: RGB) -> int:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True))


def inner(box: Box, fraction: float = 0.14) -> Box:
    dx, dy = round(box.w * fraction), round(box.h * fraction * 0.75)
    return Box(box.x + dx, box.y + dy, box.w - 2 * dx, box.h - 2 * dy - round(box.h * 0.06))


def face_color(image: Image.Image, box: Box) -> RGB:
    """The most common colour inside a tile: its face."""
    crop = image.crop((box.x, box.y, box.right, box.bottom))
    counts = Counter(crop.get_flattened_data())
    colour: RGB = counts.most_common(1)[0][0]
    return colour


def ink_pixels(image: Image.Image, box: Box) -> list[tuple[int, int, RGB]]:
    """Pixels inside the tile (away from its rim) that clearly differ from the face."""
    area = inner(box)
    face = face_color(image, box)
    out = []
    for y in range(area.y, area.bottom):
        for x in range(area.x, area.right):
            pixel = image.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if distance(pixel, face) > 150:
                out.append((x, y, (pixel[0], pixel[1], pixel[2])))
    return out


def ink_color(image: Image.Image, box: Box) -> Color:
    """The tile colour a viewer would name: the ink colour most of the number's pixels are
    closest to."""
    votes: Counter[Color] = Counter()
    for _, _, pixel in ink_pixels(image, box):
        nearest = min(INK, key=lambda c: distance(INK[c], pixel))
        if distance(INK[nearest], pixel) < 90:
            votes[nearest] += 1
    assert votes, f"no ink found in tile at {box}"
    return votes.most_common(1)[0][0]


def marker_shape(image: Image.Image, box: Box) -> str:
    """The shape under the number, told apart by geometry only (no colour): how much of its
    bounding box it fills and where it is widest."""
    cut = box.y + round(box.h * 0.66)
    points = [(x, y) for x, y, _ in ink_pixels(image, box) if y >= cut]
    assert points, f"no marker found in tile at {box}"
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    width = max(xs) - min(xs) + 1
    height = max(ys) - min(ys) + 1
    fill = len(points) / (width * height)
    if fill > 0.9:
        return "square"
    if fill > 0.68:
        return "circle"
    rows = Counter(ys)
    widest = max(rows, key=lambda y: rows[y])
    position = (widest - min(ys)) / max(1, height - 1)
    return "triangle" if position > 0.7 else "diamond"
