"""Measure each theme's 256-colour palette from the sample scenes and write it where
``renderers.palette`` reads it (``renderers/palettes/<theme>.pal``). Run it after changing a
theme's colours or the way tiles are drawn (a test says when the shipped palettes are stale):

    .venv/bin/python scripts/build_palettes.py
"""

from __future__ import annotations

import sys

from bot.cli.samples import measure_palette
from renderers.palette import PALETTES, palette_path
from renderers.theme import THEMES


def main() -> int:
    PALETTES.mkdir(exist_ok=True)
    for name in THEMES:
        path = palette_path(name)
        path.write_bytes(measure_palette(name))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
