"""Render and PNG-encode timings for tables of growing size.

Run: ``.venv/bin/python benchmarks/bench_render.py [--repeat 30]``

For an empty table, a 40-tile table, the full classic table (106 tiles) and the full XP table
(160 tiles) it prints the median time to draw the image, to encode it as PNG, the total, the
ratio of drawing to encoding and the file size. Encoding is the floor (the notes on Pillow
measured it at most of the cost), so drawing is measured against it in the same run. Targets: a
full classic table drawn and encoded in under 40 ms median, drawing no slower than encoding.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.cli.samples import full_table, late_game_table
from engine.tiles import Edition
from renderers.draw import encode_png, sprite_cache_size
from renderers.palette import theme_palette
from renderers.table import draw_table, render_table
from renderers.theme import LIGHT
from renderers.views import TableView

TARGET_MS = 40.0


def forty_tile_table() -> TableView:
    view = late_game_table()
    melds = []
    count = 0
    for slot in view.melds:
        if count + len(slot.tiles) > 40:
            break
        melds.append(slot)
        count += len(slot.tiles)
    return TableView(
        tuple(melds),
        view.players,
        pool_size=view.pool_size,
        seconds_left=view.seconds_left,
        highlight=view.highlight,
        title=view.title,
        caption=view.caption,
    )


def empty_table() -> TableView:
    view = late_game_table()
    return TableView((), view.players, pool_size=78, seconds_left=60, title="Rummikub · turn 1")


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args(argv)
    cases = [
        ("empty", empty_table()),
        ("40 tiles", forty_tile_table()),
        ("full 106", full_table()),
        ("full XP 160", full_table(Edition.XP)),
    ]
    start = time.perf_counter()
    image = draw_table(full_table())
    sprites = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    theme_palette(LIGHT)
    palette = (time.perf_counter() - start) * 1000
    print(
        f"cold start: first full table {sprites:.0f} ms ({sprite_cache_size()} sprites cached), "
        f"light palette {palette:.0f} ms (once per theme and process)"
    )
    print()
    header = (
        f"{'table':<12} {'tiles':>5} {'size':>10} {'draw ms':>8} {'encode ms':>9} "
        f"{'total ms':>8} {'draw/enc':>8} {'PNG KB':>6}   {'RGB PNG ms':>10} {'RGB KB':>6}"
    )
    print(header)
    print("-" * len(header))
    verdict = 0
    for name, view in cases:
        image = draw_table(view)
        draw = median_ms(lambda v=view: draw_table(v), args.repeat)
        encode = median_ms(lambda im=image: encode_png(im, LIGHT), args.repeat)
        total = median_ms(lambda v=view: render_table(v), args.repeat)
        rgb = median_ms(lambda im=image: encode_png(im), max(5, args.repeat // 3))
        size = len(encode_png(image, LIGHT)) / 1024
        rgb_size = len(encode_png(image)) / 1024
        print(
            f"{name:<12} {view.tile_count:>5} {image.width:>4}x{image.height:<5} {draw:>8.1f} "
            f"{encode:>9.1f} {total:>8.1f} {draw / encode:>8.2f} {size:>6.0f}   "
            f"{rgb:>10.1f} {rgb_size:>6.0f}"
        )
        if name == "full 106":
            ok_time = total < TARGET_MS
            ok_ratio = draw <= encode
            print(
                f"{'':<12} target: total < {TARGET_MS:.0f} ms {'PASS' if ok_time else 'FAIL'}, "
                f"draw <= encode {'PASS' if ok_ratio else 'FAIL'}"
            )
            verdict = 0 if ok_time and ok_ratio else 1
    print()
    print(
        "encode = palette mapping + PNG (what render_* ship); RGB PNG = the same image encoded "
        "as RGB at the same zlib level, for reference."
    )
    return verdict


if __name__ == "__main__":
    sys.exit(main())
