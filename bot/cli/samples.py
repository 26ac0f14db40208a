"""Sample views and the command that draws them: ``python -m bot.cli.samples docs/images``.

The same views feed the tests and the benchmark, so the pictures in the docs are the ones that
are checked and timed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engine.messages import Msg, Translate, english
from engine.tiles import COLORS, Edition
from renderers.draft import render_draft
from renderers.rack import render_rack
from renderers.scoreline import ScoreLineView, render_scoreline, scoreline_view
from renderers.standings import render_standings
from renderers.table import render_table
from renderers.theme import Theme, get_theme

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage
from renderers.views import (
    DraftView,
    MeldSlot,
    PlayerInfo,
    RackView,
    StandingRow,
    StandingsView,
    TableView,
    invalid_meld_problems,
    slots_from_text,
    tiles_from_text,
)


def full_table_slots(edition: Edition = Edition.CLASSIC) -> tuple[MeldSlot, ...]:
    """Every tile of the box on the table in valid melds (the largest table there can be)."""
    texts: list[str] = []
    # First copy: one group of four per number.
    texts += [" ".join(f"{c.code}{n}" for c in COLORS) for n in range(1, 14)]
    # Second copy: runs 1-4, 5-9, 10-13 per colour; the first two jokers extend runs.
    for i, c in enumerate(COLORS):
        low = " ".join(f"{c.code}{n}" for n in range(1, 5))
        texts.append(low + (" J" if i < 2 else ""))
        texts.append(" ".join(f"{c.code}{n}" for n in range(5, 10)))
        texts.append(" ".join(f"{c.code}{n}" for n in range(10, 14)))
    if edition is Edition.XP:
        # Third copy: runs 1-6 (the other two jokers extend two of them) and 7-13.
        for i, c in enumerate(COLORS):
            texts.append(" ".join(f"{c.code}{n}" for n in range(1, 7)) + (" J" if i < 2 else ""))
            texts.append(" ".join(f"{c.code}{n}" for n in range(7, 14)))
    slots = slots_from_text(" / ".join(texts))
    assert sum(len(s.tiles) for s in slots) == edition.size
    return slots


def players(current: int, counts: Sequence[int], melded: Sequence[bool]) -> tuple[PlayerInfo, ...]:
    names = ("Alice", "Bob", "Carol", "Dmitri", "Eve", "Farouk")
    return tuple(
        PlayerInfo(names[i], n, is_current=i == current, melded=m)
        for i, (n, m) in enumerate(zip(counts, melded, strict=True))
    )


def opening_table() -> TableView:
    slots = slots_from_text("K10 B10 O10 / R11 R12 R13")
    return TableView(
        slots,
        players(3, (11, 14, 11, 14), (True, False, True, False)),
        pool_size=48,
        seconds_left=54,
        highlight=frozenset(slots[1].tiles),
        title=Msg("Rummikub · turn {turn}", turn=4),
        caption=Msg("{name} played {tiles}", name="Carol", tiles="R11 R12 R13"),
    )


LATE_GAME = (
    "K1 K2 K3 K4 / B1 O1 R1 / K5 B5 O5 R5 / B2 B3 B4 J / O2 O3 O4 / R2 R3 R4 / "
    "K6 K7 K8 K9 K10 / B6 B7 B8 B9 / O6 O7 O8 / R6 R7 R8 R9 R10 R11 / K11 B11 O11 / "
    "K12 B12 O12 R12 / K13 B13 J=R13 / O9 O10 O11 O12 O13 / B10 K10 R10 / R3 R4 R5 / "
    "B11 B12 B13 / K7 O7 R7 B7 / O1 O2 O3"
)


def late_game_table() -> TableView:
    slots = slots_from_text(LATE_GAME)
    placed = next(t for t in slots[15].tiles if str(t) == "R5")  # what the caption says
    return TableView(
        slots,
        players(1, (3, 5, 2, 9), (True, True, True, True)),
        pool_size=7,
        seconds_left=8,
        highlight=frozenset({placed}),
        title=Msg("Rummikub · turn {turn}", turn=41),
        caption=Msg("{name} played {tiles}", name="Alice", tiles="R5"),
    )


def full_table(edition: Edition = Edition.CLASSIC) -> TableView:
    slots = full_table_slots(edition)
    n = 4 if edition is Edition.CLASSIC else 6
    return TableView(
        slots,
        players(0, (0,) * n, (True,) * n),
        pool_size=0,
        seconds_left=60,
        highlight=frozenset(slots[-1].tiles),
        title=Msg("Every tile on the table ({count})", count=edition.size),
    )


def sample_rack() -> RackView:
    tiles = tiles_from_text("R7 K1 K2 B5 B5 O11 O12 J R1 R13 K13 B9 O3 O4")
    return RackView(tiles, new_tiles=frozenset({tiles[2]}), owner="Alice")


def sample_draft() -> DraftView:
    table = "K10 B10 O10 / R11 R12 R13 / B5 B6 B8 / O7 O8 O9 O10 / K11 O11"
    slots = slots_from_text(table)
    rack_tiles = tiles_from_text(
        "R7 K1 K2 B9 O12 J R1 K13", used=[t for s in slots for t in s.tiles]
    )
    changed = frozenset(slots[2].tiles) | frozenset(slots[4].tiles) | {slots[3].tiles[-1]}
    problems = invalid_meld_problems(slots)
    return DraftView(
        slots,
        RackView(rack_tiles),
        changed=changed,
        problems=problems,
        seconds_left=31,
        player="Bob",
    )


def sample_match() -> StandingsView:
    rows = (
        StandingRow("Alice", 84, games_won=2),
        StandingRow("Bob", -21, games_won=0),
        StandingRow("Carol", 12, games_won=1),
        StandingRow("Dmitri", -75, games_won=0),
    )
    return StandingsView(
        rows,
        title=Msg("Match standings"),
        subtitle=Msg("After game {number} of {games}", number=3, games=4),
        kind="match",
        notes=(Msg("Most games won wins the match; total score breaks ties."),),
    )


def sample_game_end() -> StandingsView:
    rows = (
        StandingRow("Alice", 84, delta=47, rack=(), is_winner=True),
        StandingRow("Bob", -21, delta=-9, rack=tiles_from_text("K4 B5")),
        StandingRow("Carol", 12, delta=-8, rack=tiles_from_text("R8")),
        StandingRow("Dmitri", -75, delta=-30, rack=tiles_from_text("J")),
    )
    return StandingsView(
        rows,
        title=Msg("Rummikub! {name} wins game {number}", name="Alice", number=3),
        subtitle=Msg("Game {number} of {games}", number=3, games=4),
        kind="game",
    )


def sample_last_match() -> ScoreLineView:
    """Bob's last match (``stats Bob``): three games of four played, Bob won the second."""
    return scoreline_view(
        ("Alice", "Bob", "AI 1 (hard)"),
        ((52, -30, -22), (-8, 41, -33), (-15, -19, 34)),
        (0, 1, 2),
        4,
        highlight=1,
        date="2026-12-01",
    )


SAMPLES: dict[str, Callable[[str, Translate], bytes]] = {
    "table-opening.png": lambda theme, tr: render_table(opening_table(), theme=theme, translate=tr),
    "table-late-game.png": lambda theme, tr: render_table(
        late_game_table(), theme=theme, translate=tr
    ),
    "table-full.png": lambda theme, tr: render_table(full_table(), theme=theme, translate=tr),
    "table-full-xp.png": lambda theme, tr: render_table(
        full_table(Edition.XP), theme=theme, translate=tr
    ),
    "rack.png": lambda theme, tr: render_rack(
        sample_rack(), theme=theme, positions=True, translate=tr
    ),
    "draft-invalid.png": lambda theme, tr: render_draft(sample_draft(), theme=theme, translate=tr),
    "game-end.png": lambda theme, tr: render_standings(
        sample_game_end(), theme=theme, translate=tr
    ),
    "match-standings.png": lambda theme, tr: render_standings(
        sample_match(), theme=theme, translate=tr
    ),
    "stats-last-match.png": lambda theme, tr: render_scoreline(
        sample_last_match(), theme=theme, translate=tr
    ),
}


def sample_mosaic(theme: str | Theme) -> PILImage:
    """Every sample scene drawn in ``theme``, one below the other, in one RGB picture."""
    from PIL import Image

    from renderers.draft import draw_draft
    from renderers.rack import draw_rack
    from renderers.standings import draw_standings
    from renderers.table import draw_table

    chosen = get_theme(theme)
    scenes = [
        draw_table(opening_table(), theme=chosen),
        draw_table(late_game_table(), theme=chosen),
        draw_draft(sample_draft(), theme=chosen),
        draw_rack(sample_rack(), theme=chosen, positions=True),
        draw_standings(sample_game_end(), theme=chosen),
        draw_standings(sample_match(), theme=chosen),
    ]
    width = max(im.width for im in scenes)
    mosaic = Image.new("RGB", (width, sum(im.height for im in scenes)), chosen.background)
    y = 0
    for im in scenes:
        mosaic.paste(im, (0, y))
        y += im.height
    return mosaic


def measure_palette(theme: str | Theme) -> bytes:
    """The 256-colour palette of ``theme`` as ``renderers.palette`` ships it: a median-cut
    quantization of the mosaic of every sample scene drawn in that theme (256 RGB triples)."""
    from PIL import Image

    quantized = sample_mosaic(theme).quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    rgb = bytes(quantized.getpalette() or [])[: 3 * 256]
    while len(rgb) < 3 * 256:  # fewer colours than 256: repeat one, which maps nothing new
        rgb += rgb[:3]
    return rgb


def sample_file_name(name: str, theme: str = "light", lang: str = "en") -> str:
    """``table-opening.png``, ``table-opening-dark.png``, ``table-opening-pl.png``,
    ``table-opening-dark-pl.png``: theme and language in the name, so samples of every theme
    and language can share one folder."""
    stem = name.removesuffix(".png")
    if theme != "light":
        stem += f"-{theme}"
    if lang != "en":
        stem += f"-{lang}"
    return f"{stem}.png"


def write_samples(
    folder: Path,
    themes: Sequence[str] = ("light", "dark"),
    translate: Translate = english,
    lang: str = "en",
) -> list[Path]:
    """Draw every sample in every theme into ``folder`` (named by ``sample_file_name``), its
    words said through ``translate`` (the language ``lang``); return the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for theme in themes:
        for name, render in SAMPLES.items():
            path = folder / sample_file_name(name, theme, lang)
            path.write_bytes(render(theme, translate))
            written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.cli.samples", description="Draw the sample images for the docs."
    )
    parser.add_argument("folder", type=Path, help="where to write the PNG files")
    parser.add_argument(
        "--theme", action="append", choices=("light", "dark"), help="only these themes"
    )
    args = parser.parse_args(argv)
    for path in write_samples(args.folder, args.theme or ("light", "dark")):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
