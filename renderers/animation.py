"""A whole game as one animated image: the deal, then the table after every turn.

Each frame is the shared table picture (players, pool, the melds with the tiles of that turn's
play highlighted, a caption saying what happened), so an animation has ``turns + 1`` frames.
Frames share the theme's palette, which keeps a GIF small: a 100-turn game at the default
width is a few hundred KB to a few MB (docs/records.md has figures), well inside Discord's and
Telegram's upload limits; ``max_bytes`` makes it narrower if it would not fit.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from PIL import Image

from engine.game import Game
from engine.messages import Msg, Translate, english
from engine.record import GameRecord, replay_record
from engine.scoring import EndReason
from renderers.palette import to_palette
from renderers.table import draw_table
from renderers.theme import Theme, get_theme
from renderers.views import TableView, seat_name, table_view_from_game

Format = Literal["gif", "png"]

DEFAULT_WIDTH = 800
"""Frame width in pixels: readable in a chat preview, and 100 frames stay small."""
MAX_BYTES = 8_000_000
"""Discord's smallest attachment limit (free accounts); Telegram allows 10 MB for a photo and
50 MB for an animation."""
PLAY_SECONDS = 6.0
"""How long the turns of a game take to play through (each turn 60-600 ms)."""
MIN_WIDTH = 480
"""The narrowest table picture (the table renderer's own limit)."""
FIRST_MS, LAST_MS = 1000, 3000
"""How long the deal and the final table stay up."""


def frame_durations(frames: int, *, play_seconds: float = PLAY_SECONDS) -> list[int]:
    """Milliseconds per frame: the deal, the turns (sharing ``play_seconds``), the end."""
    if frames <= 1:
        return [LAST_MS] * frames
    turns = frames - 1
    each = max(60, min(600, round(1000 * play_seconds / turns / 10) * 10))
    return [FIRST_MS] + [each] * (turns - 1) + [LAST_MS]


def turn_view(game: Game, names: Sequence[str], ai: Sequence[int]) -> TableView:
    """The table as the channel saw it live at this point of the game: titled with the turn
    now being played (after turn 3 that is turn 4, as the status line says; at the deal
    turn 1), or the winner once the game is over."""
    view = table_view_from_game(game, names, ai_seats=ai)
    result = game.result
    if result is not None:
        winner = seat_name(names, result.winner)
        if result.reason is EndReason.OUT:
            return replace(view, title=Msg("Rummikub! {name} wins", name=winner))
        return replace(view, title=Msg("{name} wins with the lowest rack", name=winner))
    return view


def frames(
    record: GameRecord,
    *,
    theme: str | Theme = "light",
    width: int = DEFAULT_WIDTH,
    translate: Translate = english,
) -> list[Image.Image]:
    """One RGB image per position (the deal, then after each turn), all the same size; the
    record is replayed through the rules, so a tampered one raises ``RecordError``."""
    th = get_theme(theme)
    names = record.names
    ai = [i for i, seat in enumerate(record.seats) if seat.ai is not None]
    images = []
    for step in replay_record(record):
        view = turn_view(step.game, names, ai)
        images.append(draw_table(view, theme=th, width=width, translate=translate))
    height = max(im.height for im in images)
    out = []
    for im in images:
        if im.height != height:
            canvas = Image.new("RGB", (im.width, height), th.background)
            canvas.paste(im, (0, 0))
            im = canvas
        out.append(im)
    return out


def encode(images: Sequence[Image.Image], theme: Theme, fmt: Format) -> bytes:
    """An animated GIF or PNG (APNG) of ``images``, looping, on the theme's palette."""
    if not images:
        raise ValueError("An animation needs at least one frame.")
    paletted = [to_palette(im, theme) for im in images]
    durations = frame_durations(len(paletted))
    out = io.BytesIO()
    first, rest = paletted[0], paletted[1:]
    if fmt == "gif":
        first.save(
            out,
            format="GIF",
            save_all=True,
            append_images=rest,
            duration=durations,
            loop=0,
            optimize=False,
            disposal=1,
        )
    else:
        first.save(
            out,
            format="PNG",
            save_all=True,
            append_images=rest,
            duration=durations,
            loop=0,
            disposal=0,
            blend=0,
            compress_level=6,
        )
    return out.getvalue()


def animate(
    record: GameRecord,
    *,
    fmt: Format = "gif",
    theme: str | Theme = "light",
    width: int = DEFAULT_WIDTH,
    max_bytes: int = MAX_BYTES,
    translate: Translate = english,
) -> bytes:
    """The animation's bytes: one frame per turn plus the deal. If it would be larger than
    ``max_bytes`` it is drawn narrower (down to ``MIN_WIDTH``) until it fits, else ValueError."""
    th = get_theme(theme)
    while True:
        data = encode(frames(record, theme=th, width=width, translate=translate), th, fmt)
        if len(data) <= max_bytes:
            return data
        if width <= MIN_WIDTH:
            raise ValueError(
                f"The animation is {len(data) // 1024} KB even at {width} px wide, more than "
                f"the {max_bytes // 1024} KB allowed."
            )
        width = max(MIN_WIDTH, width * 3 // 4)
