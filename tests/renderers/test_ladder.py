"""The rating ladder and a rating's history (``leaderboard``, ``stats``): real PNGs in both
themes and languages, read back the way a person looks at them (the asker's row highlighted,
gains green and losses red, a provisional rating marked, the provisional games grey), and
their text forms."""

from __future__ import annotations

from collections import Counter

import pytest
from PIL import Image

from bot.cli.samples import sample_ladder, sample_rating_history
from bot.i18n import translator
from renderers.ladder import (
    CHART_WIDTH,
    LADDER_WIDTH,
    LadderRow,
    draw_ladder,
    draw_rating_chart,
    ladder_text,
    ladder_view,
    rating_chart_text,
    rating_chart_view,
    render_ladder,
    render_rating_chart,
)
from renderers.theme import DARK, LIGHT, RGB, Theme
from tests.renderers.pixels import decode, distance

TOP = 32 + 56 + 36 + 40  # margin, title, subtitle, column heads: the first row starts here
ROW = 64


def row_centre(index: int) -> int:
    return TOP + ROW * index + 29


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> Counter[RGB]:
    crop = image.crop(box).convert("RGB")
    return Counter(crop.get_flattened_data())  # type: ignore[arg-type]


def near(counts: Counter[RGB], colour: RGB, within: int = 12) -> int:
    return sum(n for c, n in counts.items() if distance(c, colour) <= within)


@pytest.mark.parametrize("theme", [LIGHT, DARK])
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_ladder_and_the_history_are_pngs_in_every_theme_and_language(
    theme: Theme, lang: str
) -> None:
    tr = translator(lang)
    ladder = decode(render_ladder(sample_ladder(), theme=theme, translate=tr))
    chart = decode(render_rating_chart(sample_rating_history(), theme=theme, translate=tr))
    assert ladder.width == LADDER_WIDTH and chart.width == CHART_WIDTH
    assert ladder.getpixel((2, 2)) == theme.background == chart.getpixel((2, 2))
    assert render_ladder(sample_ladder(), theme=theme, translate=tr) == render_ladder(
        sample_ladder(), theme=theme, translate=tr
    )  # pure: the same view gives the same bytes


def test_the_words_follow_the_language() -> None:
    assert render_ladder(sample_ladder(), translate=translator("pl")) != render_ladder(
        sample_ladder()
    )
    polish = ladder_text(sample_ladder(), translate=translator("pl")).splitlines()
    assert polish[:2] == ["Ranking", "4 graczy w rankingu"]
    assert "4. Dan: 1203?, 3 gry, +203" in polish
    assert polish[-2:] == ["? tymczasowa: mniej niż 5 gier", "Trend: zmiana w ostatnich 5 grach"]


def test_the_ladder_in_words_ranks_people_and_shows_the_ai_levels_unranked() -> None:
    assert ladder_text(sample_ladder()).splitlines() == [
        "Rating ladder",
        "4 players rated",
        "1. Alice: 1764, 41 games, +38",
        "AI hard: 1702, 63 games, -12",
        "2. Bob *: 1598, 26 games, +55",
        "3. Cleo Łukasiewicz: 1421, 19 games, -24",
        "AI medium: 1380, 52 games, +6",
        "4. Dan: 1203?, 3 games, +203",
        "AI easy: 1011, 25 games, 0",
        "? provisional: fewer than 5 games",
        "Trend: the change in the last 5 games",
    ]


def test_the_askers_row_is_highlighted_and_trends_are_coloured() -> None:
    image = draw_ladder(sample_ladder(), theme=LIGHT)
    bob = row_centre(2)  # Alice, hard, Bob
    assert image.getpixel((500, bob)) == LIGHT.highlight_face
    assert image.getpixel((500, row_centre(0))) != LIGHT.highlight_face
    trend_mark = (928 - 90 - 10, 0, 928 - 90 + 10, 0)
    for row, colour in ((0, LIGHT.accent), (1, LIGHT.error), (3, LIGHT.error), (6, LIGHT.muted)):
        y = row_centre(row)
        found = colours(image, (trend_mark[0], y - 8, trend_mark[2], y + 8))
        assert near(found, colour) > 20, (row, found.most_common(3))


def test_a_provisional_rating_is_marked() -> None:
    image = draw_ladder(sample_ladder(), theme=LIGHT)
    mark = (560, 0, 660, 0)  # beside the rating column
    dan, alice = row_centre(5), row_centre(0)
    assert near(colours(image, (mark[0], dan - 14, mark[2], dan + 14)), LIGHT.highlight_ring) > 10
    assert (
        near(colours(image, (mark[0], alice - 14, mark[2], alice + 14)), LIGHT.highlight_ring) == 0
    )
    settled = ladder_view(
        [LadderRow("Ann", 1500, 20)], people=1, provisional_games=5, trend_games=5
    )
    assert "? provisional" not in ladder_text(settled)  # no mark, no note


def test_an_empty_ladder_says_so() -> None:
    empty = ladder_view([], people=0, provisional_games=5, trend_games=5)
    assert decode(render_ladder(empty)).width == LADDER_WIDTH


def test_the_history_line_shows_the_provisional_games_grey_and_the_rating_now() -> None:
    view = sample_rating_history()
    assert rating_chart_text(view).splitlines()[:2] == [
        "Rating of Bob",
        "1598 after 26 games · best 1598",
    ]
    image = draw_rating_chart(view, theme=DARK)
    found = colours(image, (0, 0, image.width, image.height))
    assert near(found, DARK.muted) > 200  # the five provisional games
    assert near(found, DARK.accent) > 1000  # the rest of the line
    assert near(found, DARK.highlight_ring) > 50  # the last game's point
    later = rating_chart_view("Bob", [1500, 1510, 1490], first_game=40, provisional_games=5)
    assert later.notes == ()  # no provisional game shown: no note about grey
    assert rating_chart_text(later).splitlines()[-1] == "40: 1510, 41: 1490"
    late = colours(draw_rating_chart(later, theme=DARK), (0, 0, CHART_WIDTH, 400))
    assert near(late, DARK.accent) > 200


def test_a_bad_view_or_width_is_refused() -> None:
    with pytest.raises(ValueError, match="starting point"):
        rating_chart_view("Bob", [], first_game=1, provisional_games=5)
    with pytest.raises(ValueError, match="at least 480"):
        draw_ladder(sample_ladder(), width=300)
    with pytest.raises(ValueError, match="at least 480"):
        draw_rating_chart(sample_rating_history(), width=300)
