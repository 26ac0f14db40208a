"""Game result and match standings."""

from __future__ import annotations

from bot.cli.samples import sample_game_end, sample_match
from renderers import render_standings
from renderers.standings import ranked
from renderers.theme import LIGHT
from tests.renderers.pixels import decode, distance


def test_match_ranks_by_games_won_then_score() -> None:
    names = [r.name for r in ranked(sample_match())]
    assert names == ["Alice", "Carol", "Bob", "Dmitri"]


def test_game_end_puts_the_winner_first_and_marks_the_row() -> None:
    view = sample_game_end()
    assert ranked(view)[0].name == "Alice"
    image = decode(render_standings(view))
    assert image.width == 960
    ring = [
        (x, y)
        for x in range(0, image.width, 4)
        for y in range(0, image.height, 2)
        if distance(image.getpixel((x, y)), LIGHT.highlight_ring) < 30
    ]
    assert ring, "the winner's row has a gold outline"


def test_both_themes_render() -> None:
    for view in (sample_game_end(), sample_match()):
        light = decode(render_standings(view))
        dark = decode(render_standings(view, theme="dark"))
        assert light.size == dark.size
        assert light.getpixel((2, 2)) != dark.getpixel((2, 2))
