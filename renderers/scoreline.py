"""A player's last match, game by game: a score card and the score line.

The card has a row per player (the one asked about highlighted) and a column per game of the
match, each game's winner ringed, then the total; below it, the running total of every player
after each game, drawn as lines from zero (the one asked about thick, in the accent colour).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.messages import Msg, Translate, english
from engine.tiles import Color
from renderers.draw import draw_text, draw_trophy, encode_png
from renderers.standings import draw_notes
from renderers.table import fit_size, fit_text
from renderers.theme import INK, Theme, get_theme
from renderers.words import Text, say, signed

SCORELINE_WIDTH = 960


@dataclass(frozen=True, slots=True)
class ScoreLineView:
    """One match: ``scores[g][s]`` is seat ``s``'s score in game ``g`` (games played so far),
    ``winners[g]`` that game's winning seat; ``games`` the games planned. ``highlight`` is the
    seat of the player asked about."""

    names: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    winners: tuple[int | None, ...]
    games: int
    highlight: int | None = None
    title: Text = ""
    subtitle: Text = ""
    notes: tuple[Text, ...] = field(default=())

    def __post_init__(self) -> None:
        if any(len(row) != len(self.names) for row in self.scores):
            raise ValueError("Every game needs one score per player.")
        if len(self.winners) != len(self.scores):
            raise ValueError("Every game played needs its winner (or None).")

    def totals(self) -> list[int]:
        return [sum(game[seat] for game in self.scores) for seat in range(len(self.names))]

    def running(self, seat: int) -> list[int]:
        """The seat's total before the first game (0) and after each game."""
        out = [0]
        for game in self.scores:
            out.append(out[-1] + game[seat])
        return out


def scoreline_view(
    names: tuple[str, ...],
    scores: tuple[tuple[int, ...], ...],
    winners: tuple[int | None, ...],
    games: int,
    *,
    highlight: int | None,
    date: str = "",
) -> ScoreLineView:
    """The view of a match for the player in seat ``highlight``, titled with their name and
    the match's date and progress."""
    name = names[highlight] if highlight is not None else ""
    return ScoreLineView(
        names=names,
        scores=scores,
        winners=winners,
        games=games,
        highlight=highlight,
        title=Msg("Last match of {name}", name=name) if name else Msg("Last match"),
        subtitle=Msg(
            "{date} · games played: {played} of {games}",
            date=date,
            played=len(scores),
            games=max(games, len(scores)),
        ),
    )


def _series_colours(theme: Theme, view: ScoreLineView) -> list[tuple[int, int, int]]:
    """A colour per seat: the accent for the highlighted one, tile inks for the others."""
    others = [INK[Color.BLUE], INK[Color.ORANGE], INK[Color.RED], theme.muted, theme.text]
    out: list[tuple[int, int, int]] = []
    next_other = 0
    for seat in range(len(view.names)):
        if seat == view.highlight:
            out.append(theme.accent)
        else:
            out.append(others[next_other % len(others)])
            next_other += 1
    return out


def draw_scoreline(
    view: ScoreLineView,
    *,
    theme: str | Theme = "light",
    width: int = SCORELINE_WIDTH,
    translate: Translate = english,
) -> Image.Image:
    """The match card and score line as a Pillow image (``render_scoreline`` for PNG bytes)."""
    if width < 480:
        raise ValueError(f"A score line needs a width of at least 480 pixels, not {width}.")
    th = get_theme(theme)
    u = width / SCORELINE_WIDTH
    margin = round(32 * u)
    title_size, sub_size, cell, head_size = (
        round(38 * u),
        round(24 * u),
        round(26 * u),
        round(20 * u),
    )
    row_h, head_h = round(60 * u), round(40 * u)
    chart_h = round(260 * u)
    top = margin + round(56 * u) + (round(36 * u) if view.subtitle else 0)
    seats = len(view.names)
    notes_h = round(34 * u) * len(view.notes)
    chart_top = top + head_h + row_h * seats + round(28 * u)
    height = chart_top + round(36 * u) + chart_h + round(40 * u) + notes_h + margin
    canvas = Image.new("RGB", (width, height), th.background)
    draw = ImageDraw.Draw(canvas)
    colours = _series_colours(th, view)
    right = width - margin

    title = say(view.title, translate) or translate("Last match")
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

    # the card: player, one column per game, total
    name_right = margin + round(300 * u)
    total_w = round(120 * u)
    games = max(view.games, len(view.scores), 1)
    span = (right - total_w - name_right) / games
    game_x = [name_right + span * (g + 0.5) for g in range(games)]
    hy = top + head_h / 2
    heads: list[tuple[str, float, str, int]] = [
        (translate("Player"), margin + round(44 * u), "lm", name_right - margin)
    ]
    heads += [
        (say(Msg("Game {number}", number=g + 1), translate), x, "mm", int(span) - 4)
        for g, x in enumerate(game_x)
    ]
    heads.append((translate("Total"), right, "rm", total_w))
    for words, x, anchor, room in heads:
        text = fit_text(words, head_size, max(20, room))
        draw_text(draw, (x, hy), text, head_size, th.muted, anchor=anchor)
    y = top + head_h
    totals = view.totals()
    for seat, name in enumerate(view.names):
        mine = seat == view.highlight
        fill = th.tray if seat % 2 == 0 else th.background
        if mine:
            fill = th.highlight_face if th.name == "light" else th.chip
        box = (margin - round(12 * u), y, right + round(12 * u), y + row_h - round(6 * u))
        draw.rounded_rectangle(
            box,
            radius=round(14 * u),
            fill=fill,
            outline=th.highlight_ring if mine else None,
            width=max(2, round(3 * u)),
        )
        cy = y + (row_h - round(6 * u)) / 2
        ink = (32, 33, 36) if mine and th.name == "light" else th.text
        r = round(9 * u)
        dot_x = margin + round(14 * u)
        draw.ellipse((dot_x - r, cy - r, dot_x + r, cy + r), fill=colours[seat])
        draw_text(
            draw,
            (margin + round(44 * u), cy),
            fit_text(name, cell, name_right - margin - round(56 * u), bold=True),
            cell,
            ink,
            bold=True,
            anchor="lm",
        )
        for g, x in enumerate(game_x):
            if g >= len(view.scores):
                draw_text(draw, (x, cy), "–", cell, th.muted, anchor="mm")
                continue
            score = view.scores[g][seat]
            won = view.winners[g] == seat
            colour = th.accent if score >= 0 else th.error
            if mine and th.name == "light":
                colour = (22, 110, 78) if score >= 0 else (170, 20, 30)
            text_x = x
            if won:  # the game's winner: a cup before the score, the two centred together
                cup = round(12 * u)
                text_x = x + cup
                draw_trophy(draw, x - cup - round(28 * u), cy, cup, th.highlight_ring)
            draw_text(draw, (text_x, cy), signed(score), cell, colour, bold=won, anchor="mm")
        draw_text(draw, (right, cy), signed(totals[seat]), cell, ink, bold=True, anchor="rm")
        y += row_h

    # the score line: running totals after each game
    label = translate("Score after each game")
    draw_text(draw, (margin, chart_top + round(14 * u)), label, head_size, th.muted, anchor="lm")
    plot_left, plot_right = margin + round(70 * u), right - round(16 * u)
    plot_top = chart_top + round(36 * u)
    plot_bottom = plot_top + chart_h
    lines = [view.running(seat) for seat in range(seats)]
    low = min(0, *(min(line) for line in lines))
    high = max(0, *(max(line) for line in lines))
    if high == low:
        high, low = high + 1, low - 1
    draw.rounded_rectangle(
        (margin, plot_top - round(10 * u), right, plot_bottom + round(10 * u)),
        radius=round(14 * u),
        fill=th.tray,
    )

    def at(step: int, value: int) -> tuple[float, float]:
        px = plot_left + (plot_right - plot_left) * step / games
        py = plot_bottom - (plot_bottom - plot_top) * (value - low) / (high - low)
        return px, py

    zero = at(0, 0)[1]
    draw.line((plot_left, zero, plot_right, zero), fill=th.tray_edge, width=max(1, round(2 * u)))
    for value in {low, 0, high}:
        draw_text(
            draw,
            (plot_left - round(12 * u), at(0, value)[1]),
            signed(value),
            head_size,
            th.muted,
            anchor="rm",
        )
    for step in range(games + 1):  # 0: before the first game, then after game 1, 2, ...
        step_x = at(step, 0)[0]
        draw_text(
            draw, (step_x, plot_bottom + round(24 * u)), str(step), head_size, th.muted, anchor="mm"
        )
    order = [s for s in range(seats) if s != view.highlight]
    if view.highlight is not None:
        order.append(view.highlight)  # drawn last, on top
    for seat in order:
        points = [at(step, value) for step, value in enumerate(lines[seat])]
        thick = round((6 if seat == view.highlight else 3) * u) or 1
        if len(points) > 1:
            draw.line(points, fill=colours[seat], width=thick, joint="curve")
        dot = thick + round(2 * u)
        for px, py in points:
            draw.ellipse((px - dot, py - dot, px + dot, py + dot), fill=colours[seat])
    notes_at = (margin, plot_bottom + round(52 * u))
    draw_notes(draw, view.notes, notes_at, width - 2 * margin, u, th, translate)
    return canvas


def render_scoreline(
    view: ScoreLineView,
    *,
    theme: str | Theme = "light",
    width: int = SCORELINE_WIDTH,
    translate: Translate = english,
) -> bytes:
    """PNG bytes of the score line: pure and thread-safe."""
    th = get_theme(theme)
    return encode_png(draw_scoreline(view, theme=th, width=width, translate=translate), th)


def scoreline_text(view: ScoreLineView, *, translate: Translate = english) -> str:
    """The same in words (alt text, the terminal): a line per player, game by game."""
    lines = [say(view.title, translate) or translate("Last match")]
    if view.subtitle:
        lines.append(say(view.subtitle, translate))
    totals = view.totals()
    for seat, name in enumerate(view.names):
        games = ", ".join(signed(game[seat]) for game in view.scores) or "-"
        mark = " *" if seat == view.highlight else ""
        lines.append(f"{name}{mark}: {games} = {signed(totals[seat])}")
    return "\n".join(lines)
