"""The score line of a match (``stats``): a real PNG per theme and language, every game's
column (unplayed ones shown empty), the asked-about player highlighted."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import translator
from renderers.scoreline import (
    ScoreLineView,
    draw_scoreline,
    render_scoreline,
    scoreline_text,
    scoreline_view,
)
from renderers.theme import DARK, LIGHT


def three_of_four() -> ScoreLineView:
    """Three games of four played; Bob won the second."""
    return scoreline_view(
        ("Ann", "Bob", "AI 1 (hard)"),
        ((52, -30, -22), (-8, 41, -33), (-15, -19, 34)),
        (0, 1, 2),
        4,
        highlight=1,
        date="2026-12-01",
    )


@pytest.mark.parametrize("theme", [LIGHT, DARK])
def test_the_score_line_is_a_png_in_either_theme(theme: object) -> None:
    png = render_scoreline(three_of_four(), theme=theme)  # type: ignore[arg-type]
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.size[0] == 960
        rgb = image.convert("RGB")
        assert rgb.getpixel((2, 2)) == theme.background  # type: ignore[attr-defined]


def test_the_words_follow_the_language_and_the_text_says_the_same() -> None:
    view = three_of_four()
    assert render_scoreline(view, translate=translator("pl")) != render_scoreline(view)
    assert scoreline_text(view).splitlines() == [
        "Last match of Bob",
        "2026-12-01 · games played: 3 of 4",
        "Ann: +52, -8, -15 = +29",
        "Bob *: -30, +41, -19 = -8",
        "AI 1 (hard): -22, -33, +34 = -21",
    ]
    assert scoreline_text(view, translate=translator("pl")).splitlines()[:2] == [
        "Ostatni mecz: Bob",
        "2026-12-01 · rozegrane gry: 3 z 4",
    ]
    assert view.running(1) == [0, -30, 11, -8]


def test_a_bad_view_or_width_is_refused() -> None:
    with pytest.raises(ValueError, match="one score per player"):
        ScoreLineView(names=("Ann", "Bob"), scores=((1, 2, 3),), winners=(0,), games=1)
    with pytest.raises(ValueError, match="its winner"):
        ScoreLineView(names=("Ann", "Bob"), scores=((1, -1),), winners=(), games=1)
    with pytest.raises(ValueError, match="at least 480"):
        draw_scoreline(three_of_four(), width=300)


def test_one_game_with_all_zero_scores_still_draws() -> None:
    view = scoreline_view(("Ann", "Bob"), ((0, 0),), (None,), 1, highlight=0)
    assert draw_scoreline(view).size[0] == 960
