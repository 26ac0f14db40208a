"""Derive the bundled faces with a plain zero from Atkinson Hyperlegible.

Atkinson Hyperlegible draws its zero with a slash. On a tile, "10" then reads like "1Ø" at
small sizes, and the font offers no OpenType feature (its GSUB has aalt, case, ccmp, frac, locl,
ordn, pnum, sups, tnum) and no alternate glyph for a plain zero. This script keeps every other
glyph and replaces the zero's outline: the outer oval stays, and the two counters the slash
splits become one counter, the outer oval scaled into their common bounding box (so the
strokes keep their width). The face is renamed, as the SIL OFL (fonts/OFL.txt) asks of a
modified version. Run it again after updating the source fonts:

    pip install -e '.[fonts]'
    python scripts/plain_zero_font.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools.ttLib import TTFont
from fontTools.ttLib.tables import ttProgram
from fontTools.ttLib.tables._g_l_y_f import GlyphCoordinates

FONTS = Path(__file__).resolve().parents[1] / "renderers" / "fonts"
SOURCE_FAMILY = "Atkinson Hyperlegible"
FAMILY = "Hyperlegible Plain Zero"
STYLES = ("Regular", "Bold")


def contours(glyph: object, coordinates: list[tuple[int, int]]) -> list[range]:
    """The point index ranges of each contour of a simple glyph."""
    out, start = [], 0
    for end in glyph.endPtsOfContours:  # type: ignore[attr-defined]
        out.append(range(start, end + 1))
        start = end + 1
    return out


def plain_zero(source: Path, target: Path) -> None:
    font = TTFont(source)
    glyf = font["glyf"]
    zero = glyf["zero"]
    if zero.isComposite() or zero.numberOfContours != 3:
        raise SystemExit(f"{source.name}: the zero is not the slashed outline this expects")
    points = [(int(x), int(y)) for x, y in zero.coordinates]
    flags = list(zero.flags)
    outer, *counters = sorted(
        contours(zero, points),
        key=lambda r: -(max(points[i][0] for i in r) - min(points[i][0] for i in r)),
    )

    def box(indexes: list[int]) -> tuple[int, int, int, int]:
        xs = [points[i][0] for i in indexes]
        ys = [points[i][1] for i in indexes]
        return min(xs), min(ys), max(xs), max(ys)

    ox0, oy0, ox1, oy1 = box(list(outer))
    ix0, iy0, ix1, iy1 = box([i for r in counters for i in r])
    sx, sy = (ix1 - ix0) / (ox1 - ox0), (iy1 - iy0) / (oy1 - oy0)
    # The counter runs the other way round from the outer contour, as TrueType fills by it.
    inner = [
        (round(ix0 + (points[i][0] - ox0) * sx), round(iy0 + (points[i][1] - oy0) * sy))
        for i in reversed(outer)
    ]
    new_points = [points[i] for i in outer] + inner
    new_flags = [flags[i] for i in outer] + [flags[i] for i in reversed(outer)]
    zero.coordinates = GlyphCoordinates(new_points)
    zero.flags = bytearray(new_flags)
    zero.endPtsOfContours = [len(outer) - 1, 2 * len(outer) - 1]
    zero.numberOfContours = 2
    zero.program = ttProgram.Program()  # the old hints name points that are gone
    zero.program.fromBytecode(b"")
    zero.recalcBounds(glyf)
    if "DSIG" in font:
        del font["DSIG"]  # a signature of the original file no longer holds
    for record in font["name"].names:
        text = record.toUnicode()
        if SOURCE_FAMILY in text:
            record.string = text.replace(SOURCE_FAMILY, FAMILY)
        elif record.nameID == 6 and text.startswith("AtkinsonHyperlegible"):
            record.string = text.replace("AtkinsonHyperlegible", FAMILY.replace(" ", ""))
    font.save(target)


def main() -> int:
    for style in STYLES:
        source = FONTS / f"AtkinsonHyperlegible-{style}.ttf"
        target = FONTS / f"{FAMILY.replace(' ', '')}-{style}.ttf"
        plain_zero(source, target)
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
