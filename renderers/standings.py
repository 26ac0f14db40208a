"""Game result and match standings: a ranked card, the winner with a trophy.

A game result shows what each player was left holding (small tiles), the points this game and
the total; match standings show games won and the total score (most games won ranks first,
total score breaks ties, as the rules say).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.messages import Translate, english
from renderers.draw import (
    TileGeometry,
    draw_text,
    draw_tile,
    draw_trophy,
    encode_png,
)
from renderers.table import fit_size, fit_text
from renderers.theme import Theme, get_theme
from renderers.views import StandingRow, StandingsView
from renderers.words import Text, say, signed

STANDINGS_WIDTH = 960


MEDALS = ((232, 168, 0), (150, 160, 172), (192, 120, 64))
"""Gold, silver and bronze rank badges."""


def _key(view: StandingsView, row: StandingRow) -> tuple[int, ...]:
    if view.kind == "game":
        return (not row.is_winner, -row.score)
    return (-(row.games_won or 0), -row.score)


def ranked(view: StandingsView) -> list[StandingRow]:
    """Rows in rank order: winner of the game first; in a match most games won, then score."""
    return sorted(view.rows, key=lambda r: _key(view, r))


def ranks(view: StandingsView) -> list[tuple[int, StandingRow]]:
    """``(rank, row)`` in order; rows that tie on every criterion share a rank."""
    out: list[tuple[int, StandingRow]] = []
    for position, row in enumerate(ranked(view), start=1):
        if out and _key(view, out[-1][1]) == _key(view, row):
            out.append((out[-1][0], row))
        else:
            out.append((position, row))
    return out


def draw_standings(
    view: StandingsView,
    *,
    theme: str | Theme = "light",
    width: int = STANDINGS_WIDTH,
    translate: Translate = english,
) -> Image.Image:
    """The standings as a Pillow image (use ``render_standings`` for PNG bytes)."""
    if width < 480:
        raise ValueError(f"A standings image needs a width of at least 480 pixels, not {width}.")
    th = get_theme(theme)
    u = width / STANDINGS_WIDTH
    margin = round(32 * u)
    title_size, sub_size, cell = round(38 * u), round(24 * u), round(26 * u)
    row_h = round(72 * u)
    head_h = round(40 * u)
    notes_h = round(34 * u) * len(view.notes)
    top = margin + round(56 * u) + (round(36 * u) if view.subtitle else 0)
    rows = ranks(view)
    height = top + head_h + row_h * len(rows) + round(20 * u) + notes_h + margin
    canvas = Image.new("RGB", (width, height), th.background)
    draw = ImageDraw.Draw(canvas)
    title = say(view.title, translate)
    size = fit_size(title, title_size, width - 2 * margin, bold=True)
    draw_text(
        draw,
        (margin, margin + title_size / 2),
        fit_text(title, size, width - 2 * margin, bold=True),
        size,
        th.text,
        bold=True,
        anchor="lm",
    )
    if view.subtitle:
        subtitle = fit_text(say(view.subtitle, translate), sub_size, width - 2 * margin)
        draw_text(draw, (margin, margin + round(66 * u)), subtitle, sub_size, th.muted, anchor="lm")
    right = width - margin
    if view.kind == "game":
        columns = [margin + round(330 * u), right - round(150 * u), right]
    else:
        columns = [right - round(190 * u), right]
    hy = top + head_h / 2
    head_size = round(20 * u)
    gap = round(12 * u)
    player_x = margin + round(70 * u)
    # (words, x, anchor, room): each heading is cut to the room its column has.
    heads = [(translate("Player"), player_x, "lm", columns[0] - player_x - gap)]
    if view.kind == "game":
        heads += [
            (translate("Left on rack"), columns[0], "lm", columns[1] - round(150 * u) - columns[0]),
            (translate("This game"), columns[1], "rm", round(150 * u) - gap),
            (translate("Total"), columns[2], "rm", columns[2] - columns[1] - gap),
        ]
    else:
        heads += [
            (translate("Games won"), columns[0], "rm", round(190 * u)),
            (translate("Score"), columns[1], "rm", columns[1] - columns[0] - gap),
        ]
    for words, x, anchor, room in heads:
        text = fit_text(words, head_size, max(20, room))
        draw_text(draw, (x, hy), text, head_size, th.muted, anchor=anchor)
    y = top + head_h
    for index, (rank, row) in enumerate(rows):
        fill = th.tray if index % 2 == 0 else th.background
        if row.is_winner:
            fill = th.highlight_face if th.name == "light" else th.chip
        draw.rounded_rectangle(
            (margin - round(12 * u), y, right + round(12 * u), y + row_h - round(6 * u)),
            radius=round(14 * u),
            fill=fill,
            outline=th.highlight_ring if row.is_winner else None,
            width=max(2, round(3 * u)),
        )
        cy = y + (row_h - round(6 * u)) / 2
        ink = (32, 33, 36) if row.is_winner and th.name == "light" else th.text
        if row.is_winner:
            draw_trophy(draw, margin + round(22 * u), cy, round(17 * u), th.highlight_ring)
        elif rank <= len(MEDALS):
            r = round(17 * u)
            cx = margin + round(22 * u)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MEDALS[rank - 1])
            draw_text(
                draw, (cx, cy), str(rank), round(20 * u), (255, 255, 255), bold=True, anchor="mm"
            )
        else:
            draw_text(
                draw,
                (margin + round(22 * u), cy),
                str(rank),
                cell,
                th.muted,
                bold=True,
                anchor="mm",
            )
        name_w = columns[0] - margin - round(90 * u)
        draw_text(
            draw,
            (margin + round(70 * u), cy),
            fit_text(say(row.name, translate), cell, name_w, bold=True),
            cell,
            ink,
            bold=True,
            anchor="lm",
        )
        if view.kind == "game":
            _rack(
                canvas,
                draw,
                th,
                row,
                (columns[0], columns[1] - round(150 * u)),
                cy,
                u,
                fill,
                translate,
            )
            if row.delta is not None:
                good = row.delta >= 0
                color = th.accent if good else th.error
                if row.is_winner and th.name == "light":
                    color = (22, 110, 78)
                draw_text(
                    draw,
                    (columns[1], cy),
                    signed(row.delta),
                    cell,
                    color,
                    bold=True,
                    anchor="rm",
                )
            draw_text(draw, (columns[2], cy), signed(row.score), cell, ink, bold=True, anchor="rm")
        else:
            won = "-" if row.games_won is None else str(row.games_won)
            draw_text(draw, (columns[0], cy), won, cell, ink, bold=True, anchor="rm")
            pip = round(7 * u)
            x = columns[0] - round(40 * u)
            for _ in range(min(row.games_won or 0, 12)):
                draw.ellipse((x - 2 * pip, cy - pip, x, cy + pip), fill=th.highlight_ring)
                x -= round(24 * u)
            draw_text(draw, (columns[1], cy), signed(row.score), cell, ink, bold=True, anchor="rm")
        y += row_h
    y += round(20 * u)
    draw_notes(draw, view.notes, (margin, y), width - 2 * margin, u, th, translate)
    return canvas


def draw_notes(
    draw: ImageDraw.ImageDraw,
    notes: Sequence[Text],
    at: tuple[int, int],
    span: int,
    u: float,
    theme: Theme,
    translate: Translate,
) -> int:
    """The notes under a results picture, a muted line each from ``at``, cut to ``span``
    pixels; returns the y below the last one."""
    x, y = at
    for note in notes:
        draw_text(
            draw,
            (x, y + round(14 * u)),
            fit_text(say(note, translate), round(22 * u), span),
            round(22 * u),
            theme.muted,
            anchor="lm",
        )
        y += round(34 * u)
    return y


def _rack(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    row: StandingRow,
    span: tuple[int, int],
    cy: float,
    u: float,
    background: tuple[int, int, int],
    translate: Translate,
) -> None:
    """The tiles left on a player's rack, as small tiles (shrunk to fit the column)."""
    x0, x1 = span
    if not row.rack:
        label = translate("out!" if row.is_winner else "none")
        label = fit_text(label, round(24 * u), x1 - x0)
        draw_text(draw, (x0, cy), label, round(24 * u), theme.muted, anchor="lm")
        return
    n = len(row.rack)
    room = x1 - x0
    width = max(14, min(round(36 * u), int(room / n) - 3))
    geo = TileGeometry(width)
    x = x0
    y = round(cy - geo.height / 2)
    for tile in row.rack:
        if x + geo.width > x1:
            draw_text(draw, (x, cy), "…", round(24 * u), theme.muted, anchor="lm")
            break
        draw_tile(
            canvas,
            theme,
            x,
            y,
            width,
            tile.face,
            joker=tile.copy if tile.is_joker else None,
            background=background,
            label=False,
        )
        x += geo.width + geo.gap


def render_standings(
    view: StandingsView,
    *,
    theme: str | Theme = "light",
    width: int = STANDINGS_WIDTH,
    translate: Translate = english,
) -> bytes:
    """PNG bytes of the standings image: pure and thread-safe."""
    th = get_theme(theme)
    return encode_png(draw_standings(view, theme=th, width=width, translate=translate), th)
