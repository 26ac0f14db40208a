"""The rating ladder and a rating's history, drawn like the standings card.

The ladder has a row per rating (rank, name, rating, games, trend); people are ranked, AI
levels stand among them with an "AI" chip and no rank, a provisional rating is marked, and the
player who asked is highlighted. The history is a line: the rating after each game, the
provisional games in a lighter colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.messages import Msg, Translate, english
from renderers.draw import draw_text, encode_png
from renderers.standings import MEDALS, draw_notes
from renderers.table import fit_size, fit_text
from renderers.theme import RGB, Theme, get_theme
from renderers.words import Plural, Text, say, signed

LADDER_WIDTH = 960
CHART_WIDTH = 960
PROVISIONAL_MARK = "?"


@dataclass(frozen=True, slots=True)
class LadderRow:
    """One rating on the ladder. ``rank`` is None for an AI level; ``trend`` is the change
    over its last games."""

    name: Text
    rating: int
    games: int
    trend: int = 0
    rank: int | None = None
    provisional: bool = False
    ai: bool = False
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class LadderView:
    rows: tuple[LadderRow, ...]
    title: Text = ""  # empty: "Rating ladder"
    subtitle: Text = ""
    notes: tuple[Text, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class RatingChartView:
    """A rating's history: ``points[0]`` before the first game shown, then the rating after
    each game; ``first_game`` is the number of the first game shown (1 when the line starts
    at the beginning) and the games up to ``provisional`` are drawn lighter."""

    points: tuple[int, ...]
    first_game: int = 1
    provisional: int = 0
    title: Text = ""
    subtitle: Text = ""
    notes: tuple[Text, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.points:
            raise ValueError("A rating history needs at least its starting point.")
        if self.first_game < 1:
            raise ValueError("Games are numbered from 1.")


def ladder_view(
    rows: Sequence[LadderRow], *, people: int, provisional_games: int, trend_games: int
) -> LadderView:
    """The ladder titled with how many people it ranks, with notes on the "?" mark (a
    provisional rating) and on what the trend measures."""
    notes: list[Text] = []
    if any(row.provisional for row in rows):
        notes.append(
            Plural(
                provisional_games,
                "? provisional: fewer than {count} game",
                "? provisional: fewer than {count} games",
            )
        )
    notes.append(
        Plural(
            trend_games,
            "Trend: the change in the last game",
            "Trend: the change in the last {count} games",
        )
    )
    return LadderView(
        rows=tuple(rows),
        title=Msg("Rating ladder"),
        subtitle=Plural(people, "{count} player rated", "{count} players rated"),
        notes=tuple(notes),
    )


def rating_chart_view(
    name: str, points: Sequence[int], *, first_game: int, provisional_games: int
) -> RatingChartView:
    """A person's rating history titled with their name, the rating now and their best."""
    if not points:
        raise ValueError("A rating history needs at least its starting point.")
    games = first_game - 1 + len(points) - 1
    notes: tuple[Text, ...] = ()
    if first_game <= provisional_games:
        notes = (Msg("Grey: the games while the rating was provisional"),)
    return RatingChartView(
        points=tuple(points),
        first_game=first_game,
        provisional=provisional_games,
        title=Msg("Rating of {name}", name=name),
        subtitle=Plural(
            games,
            "{rating} after {count} game · best {best}",
            "{rating} after {count} games · best {best}",
            rating=points[-1],
            best=max(points),
        ),
        notes=notes,
    )


def _title(
    draw: ImageDraw.ImageDraw,
    th: Theme,
    title: Text,
    subtitle: Text,
    u: float,
    width: int,
    translate: Translate,
) -> None:
    margin = round(32 * u)
    title_size, sub_size = round(38 * u), round(24 * u)
    words = say(title, translate)
    size = fit_size(words, title_size, width - 2 * margin, bold=True)
    draw_text(
        draw,
        (margin, margin + title_size / 2),
        fit_text(words, size, width - 2 * margin, bold=True),
        size,
        th.text,
        bold=True,
        anchor="lm",
    )
    if subtitle:
        line = fit_text(say(subtitle, translate), sub_size, width - 2 * margin)
        draw_text(draw, (margin, margin + round(66 * u)), line, sub_size, th.muted, anchor="lm")


def _trend_mark(
    draw: ImageDraw.ImageDraw, x: float, cy: float, r: float, trend: int, th: Theme
) -> RGB:
    """A triangle up (gain) or down (loss), or a short bar (no change); its colour."""
    if trend > 0:
        draw.polygon(
            [(x - r, cy + r * 0.7), (x + r, cy + r * 0.7), (x, cy - r * 0.9)], fill=th.accent
        )
        return th.accent
    if trend < 0:
        draw.polygon(
            [(x - r, cy - r * 0.7), (x + r, cy - r * 0.7), (x, cy + r * 0.9)], fill=th.error
        )
        return th.error
    draw.rectangle((x - r, cy - r * 0.18, x + r, cy + r * 0.18), fill=th.muted)
    return th.muted


def _ai_chip(
    draw: ImageDraw.ImageDraw, x: float, cy: float, u: float, th: Theme, translate: Translate
) -> float:
    """The "AI" chip before an AI level's name; returns the x after it."""
    w, h = round(44 * u), round(28 * u)
    draw.rounded_rectangle((x, cy - h / 2, x + w, cy + h / 2), radius=round(8 * u), fill=th.rack)
    words = translate("AI")
    draw_text(draw, (x + w / 2, cy), words, round(17 * u), (255, 255, 255), bold=True, anchor="mm")
    return x + w + round(10 * u)


def draw_ladder(
    view: LadderView,
    *,
    theme: str | Theme = "light",
    width: int = LADDER_WIDTH,
    translate: Translate = english,
) -> Image.Image:
    """The ladder as a Pillow image (``render_ladder`` for PNG bytes)."""
    if width < 480:
        raise ValueError(f"A ladder needs a width of at least 480 pixels, not {width}.")
    th = get_theme(theme)
    u = width / LADDER_WIDTH
    margin = round(32 * u)
    cell, head_size = round(26 * u), round(20 * u)
    row_h, head_h = round(64 * u), round(40 * u)
    top = margin + round(56 * u) + (round(36 * u) if view.subtitle else 0)
    rows = view.rows or (LadderRow(Msg("No rated games yet"), 0, 0),)
    notes_h = round(34 * u) * len(view.notes)
    height = top + head_h + row_h * len(rows) + round(20 * u) + notes_h + margin
    canvas = Image.new("RGB", (width, height), th.background)
    draw = ImageDraw.Draw(canvas)
    _title(draw, th, view.title or Msg("Rating ladder"), view.subtitle, u, width, translate)
    right = width - margin
    trend_x = right
    games_x = right - round(150 * u)
    rating_x = games_x - round(130 * u)
    player_x = margin + round(70 * u)
    gap = round(12 * u)
    hy = top + head_h / 2
    heads = [
        (translate("Player"), player_x, "lm", rating_x - round(150 * u) - player_x),
        (translate("Rating"), rating_x, "rm", round(140 * u)),
        (translate("Games"), games_x, "rm", games_x - rating_x - gap),
        (translate("Trend"), trend_x, "rm", trend_x - games_x - gap),
    ]
    for words, x, anchor, room in heads:
        draw_text(
            draw,
            (x, hy),
            fit_text(words, head_size, max(20, room)),
            head_size,
            th.muted,
            anchor=anchor,
        )
    y = top + head_h
    for index, row in enumerate(rows):
        fill = th.tray if index % 2 == 0 else th.background
        if row.highlight:
            fill = th.highlight_face if th.name == "light" else th.chip
        draw.rounded_rectangle(
            (margin - round(12 * u), y, right + round(12 * u), y + row_h - round(6 * u)),
            radius=round(14 * u),
            fill=fill,
            outline=th.highlight_ring if row.highlight else None,
            width=max(2, round(3 * u)),
        )
        cy = y + (row_h - round(6 * u)) / 2
        ink = (32, 33, 36) if row.highlight and th.name == "light" else th.text
        soft = (92, 96, 100) if row.highlight and th.name == "light" else th.muted
        cx = margin + round(22 * u)
        if row.rank is not None and row.rank <= len(MEDALS) and view.rows:
            r = round(17 * u)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MEDALS[row.rank - 1])
            draw_text(
                draw,
                (cx, cy),
                str(row.rank),
                round(20 * u),
                (255, 255, 255),
                bold=True,
                anchor="mm",
            )
        elif row.rank is not None:
            draw_text(draw, (cx, cy), str(row.rank), cell, th.muted, bold=True, anchor="mm")
        name_x = _ai_chip(draw, player_x, cy, u, th, translate) if row.ai else player_x
        name_room = rating_x - round(150 * u) - name_x
        name = fit_text(say(row.name, translate), cell, max(40, int(name_room)), bold=not row.ai)
        draw_text(
            draw, (name_x, cy), name, cell, soft if row.ai else ink, bold=not row.ai, anchor="lm"
        )
        if not view.rows:
            break
        mark_w = round(18 * u)
        rating_ink = soft if row.provisional else ink
        draw_text(
            draw, (rating_x - mark_w, cy), str(row.rating), cell, rating_ink, bold=True, anchor="rm"
        )
        if row.provisional:
            draw_text(
                draw,
                (rating_x, cy),
                PROVISIONAL_MARK,
                cell,
                th.highlight_ring,
                bold=True,
                anchor="rm",
            )
        draw_text(draw, (games_x, cy), str(row.games), cell, ink, anchor="rm")
        colour = _trend_mark(draw, trend_x - round(90 * u), cy, round(9 * u), row.trend, th)
        if row.highlight and th.name == "light":
            colour = (22, 110, 78) if row.trend > 0 else (170, 20, 30) if row.trend < 0 else soft
        trend = signed(row.trend) if row.trend else "0"
        draw_text(draw, (trend_x, cy), trend, cell, colour, bold=True, anchor="rm")
        y += row_h
    y += round(20 * u)
    draw_notes(draw, view.notes, (margin, y), width - 2 * margin, u, th, translate)
    return canvas


def render_ladder(
    view: LadderView,
    *,
    theme: str | Theme = "light",
    width: int = LADDER_WIDTH,
    translate: Translate = english,
) -> bytes:
    """PNG bytes of the ladder: pure and thread-safe."""
    th = get_theme(theme)
    return encode_png(draw_ladder(view, theme=th, width=width, translate=translate), th)


def ladder_text(view: LadderView, *, translate: Translate = english) -> str:
    """The ladder in words (alt text, the terminal): a line per rating."""
    lines = [say(view.title or Msg("Rating ladder"), translate)]
    if view.subtitle:
        lines.append(say(view.subtitle, translate))
    for row in view.rows:
        rank = f"{row.rank}." if row.rank is not None else "AI"
        mark = PROVISIONAL_MARK if row.provisional else ""
        trend = signed(row.trend) if row.trend else "0"
        games = say(Plural(row.games, "{count} game", "{count} games"), translate)
        star = " *" if row.highlight else ""
        lines.append(
            f"{rank} {say(row.name, translate)}{star}: {row.rating}{mark}, {games}, {trend}"
        )
    lines.extend(say(note, translate) for note in view.notes)
    return "\n".join(lines)


def draw_rating_chart(
    view: RatingChartView,
    *,
    theme: str | Theme = "light",
    width: int = CHART_WIDTH,
    translate: Translate = english,
) -> Image.Image:
    """A rating's history as a Pillow image (``render_rating_chart`` for PNG bytes)."""
    if width < 480:
        raise ValueError(f"A rating chart needs a width of at least 480 pixels, not {width}.")
    th = get_theme(theme)
    u = width / CHART_WIDTH
    margin = round(32 * u)
    label = round(20 * u)
    top = margin + round(56 * u) + (round(36 * u) if view.subtitle else 0)
    chart_h = round(300 * u)
    notes_h = round(34 * u) * len(view.notes)
    height = top + round(20 * u) + chart_h + round(56 * u) + notes_h + margin
    canvas = Image.new("RGB", (width, height), th.background)
    draw = ImageDraw.Draw(canvas)
    _title(draw, th, view.title, view.subtitle, u, width, translate)
    right = width - margin
    plot_left, plot_right = margin + round(86 * u), right - round(20 * u)
    plot_top = top + round(20 * u)
    plot_bottom = plot_top + chart_h
    draw.rounded_rectangle(
        (margin, plot_top - round(12 * u), right, plot_bottom + round(12 * u)),
        radius=round(14 * u),
        fill=th.tray,
    )
    low, high = min(view.points), max(view.points)
    pad = max(10, (high - low) // 8)
    low, high = low - pad, high + pad
    steps = max(1, len(view.points) - 1)

    def at(step: int, value: int) -> tuple[float, float]:
        px = plot_left + (plot_right - plot_left) * step / steps
        py = plot_bottom - (plot_bottom - plot_top) * (value - low) / (high - low)
        return px, py

    last, best = view.points[-1], max(view.points)
    for value in sorted({min(view.points), best, last}):
        py = at(0, value)[1]
        draw.line((plot_left, py, plot_right, py), fill=th.tray_edge, width=max(1, round(2 * u)))
        draw_text(draw, (plot_left - round(12 * u), py), str(value), label, th.muted, anchor="rm")
    count = len(view.points) - 1
    ticks = sorted({0, count // 2, count}) if count else [0]
    for step in ticks:  # the game numbers: the start of the line, the middle, the last game
        number = view.first_game - 1 + step
        draw_text(
            draw,
            (at(step, low)[0], plot_bottom + round(30 * u)),
            str(number),
            label,
            th.muted,
            anchor="mm",
        )
    points = [at(step, value) for step, value in enumerate(view.points)]
    thick = max(2, round(5 * u))
    settled = max(0, view.provisional - (view.first_game - 1))  # provisional steps shown
    for step in range(1, len(points)):
        colour = th.muted if step <= settled else th.accent
        draw.line((points[step - 1], points[step]), fill=colour, width=thick)
    dot = thick + round(2 * u)
    for step, (px, py) in enumerate(points):
        colour = th.muted if step <= settled else th.accent
        if step == len(points) - 1:
            colour = th.highlight_ring
        draw.ellipse((px - dot, py - dot, px + dot, py + dot), fill=colour)
    draw_notes(
        draw,
        view.notes,
        (margin, plot_bottom + round(56 * u)),
        width - 2 * margin,
        u,
        th,
        translate,
    )
    return canvas


def render_rating_chart(
    view: RatingChartView,
    *,
    theme: str | Theme = "light",
    width: int = CHART_WIDTH,
    translate: Translate = english,
) -> bytes:
    """PNG bytes of a rating's history: pure and thread-safe."""
    th = get_theme(theme)
    return encode_png(draw_rating_chart(view, theme=th, width=width, translate=translate), th)


def rating_chart_text(view: RatingChartView, *, translate: Translate = english) -> str:
    """The history in words: the title, then the rating after each game."""
    lines = [say(view.title, translate)] if view.title else []
    if view.subtitle:
        lines.append(say(view.subtitle, translate))
    first = view.first_game
    lines.append(", ".join(f"{first + i}: {v}" for i, v in enumerate(view.points[1:])) or "-")
    return "\n".join(lines)
