"""The table image: decodes, fits chat limits, and shows each tile where and as it should."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from bot.cli.samples import full_table, late_game_table, opening_table
from engine.messages import english
from engine.tiles import Color, Edition
from renderers import layout_table, render_table
from renderers.text import table_text
from renderers.theme import DARK, INK, LIGHT, SHAPES
from renderers.views import PlayerInfo, TableView, slots_from_text, table_view_from_game
from renderers.words import say
from tests.renderers.pixels import decode, distance, face_color, ink_color, marker_shape
from tests.renderers.test_views import NAMES, game

# Telegram photos: at most 10 MB, width + height <= 10000, ratio <= 20; Discord: 10 MB. We aim
# far lower so an image uploads quickly and previews whole: long side <= 1600, under 1 MB.
MAX_SIDE = 1600
MAX_BYTES = 1_000_000


def test_image_decodes_with_the_layout_size() -> None:
    view = late_game_table()
    png = render_table(view)
    image = decode(png)
    lay = layout_table(view)
    assert image.size == (1200, lay.height)
    assert 0.5 < image.height / image.width < 1.0


def test_every_tile_shows_its_colour_where_the_layout_put_it() -> None:
    view = late_game_table()
    image = decode(render_table(view))
    lay = layout_table(view)
    assert len(lay.area.tiles) == view.tile_count
    for placed in lay.area.tiles:
        if placed.tile.is_joker:
            continue
        assert placed.tile.color is not None
        assert ink_color(image, placed.box) is placed.tile.color, placed.tile


def test_colour_is_never_the_only_cue_each_colour_has_its_shape() -> None:
    view = TableView(slots_from_text("K5 B5 O5 R5"))
    image = decode(render_table(view))
    for placed in layout_table(view).area.tiles:
        assert placed.tile.color is not None
        assert marker_shape(image, placed.box) == SHAPES[placed.tile.color]


def test_melds_are_numbered_in_reading_order() -> None:
    lay = layout_table(full_table())
    numbers = [pm.slot.number for pm in sorted(lay.area.melds, key=lambda m: (m.tray.y, m.tray.x))]
    assert numbers == list(range(1, len(lay.area.melds) + 1))


def test_highlighted_tiles_differ_from_the_others() -> None:
    view = late_game_table()
    image = decode(render_table(view))
    lay = layout_table(view)
    highlighted = [p for p in lay.area.tiles if p.tile in view.highlight]
    plain = [p for p in lay.area.tiles if p.tile not in view.highlight]
    assert highlighted and plain
    for p in highlighted:
        assert distance(face_color(image, p.box), LIGHT.highlight_face) < 20
    for p in plain:
        assert distance(face_color(image, p.box), LIGHT.tile_face) < 20


def test_joker_shows_what_it_stands_for_in_that_colour() -> None:
    view = TableView(slots_from_text("B11 B12 J"))  # the joker stands for B13
    image = decode(render_table(view))
    joker = next(p for p in layout_table(view).area.tiles if p.tile.is_joker)
    assert view.melds[0].labels() == ("B11", "B12", "J=B13")
    label_top = joker.box.y + round(joker.box.h * 0.66)
    blue = [
        (x, y)
        for x in range(joker.box.x, joker.box.right)
        for y in range(label_top, joker.box.bottom)
        if distance(image.getpixel((x, y)), INK[Color.BLUE]) < 60
    ]
    assert len(blue) > 20
    # The smiley itself is drawn in the joker's own ink (red for the first joker).
    face_top = joker.box.y + round(joker.box.h * 0.15)
    red = [
        (x, y)
        for x in range(joker.box.x, joker.box.right)
        for y in range(face_top, label_top)
        if distance(image.getpixel((x, y)), INK[Color.RED]) < 60
    ]
    assert len(red) > 100


@pytest.mark.parametrize("edition", [Edition.CLASSIC, Edition.XP])
def test_a_full_table_fits_on_one_image(edition: Edition) -> None:
    view = full_table(edition)
    png = render_table(view)
    image = decode(png)
    lay = layout_table(view)
    assert view.tile_count == edition.size
    assert len(lay.area.tiles) == edition.size
    assert max(image.size) <= MAX_SIDE
    assert len(png) < MAX_BYTES
    boxes = [p.box for p in lay.area.tiles]
    frame = lay.area_box
    for i, box in enumerate(boxes):
        assert frame.contains(box)
        assert all(not box.overlaps(other) for other in boxes[i + 1 :])
    # Still readable when a phone shows it 400 px wide: tiles at least 12 px there.
    assert lay.tile_width * 400 / image.width >= 12


def test_tiles_are_bigger_on_an_emptier_table() -> None:
    assert layout_table(opening_table()).tile_width > layout_table(full_table()).tile_width


def test_header_marks_the_current_player() -> None:
    view = opening_table()
    image = decode(render_table(view))
    lay = layout_table(view)
    for player, box in lay.header.chips:
        sample = image.getpixel((box.x + box.w // 2, box.y + 3))
        expected = LIGHT.accent if player.is_current else LIGHT.chip
        assert distance(sample, expected) < 20, player.name


def test_dark_theme_changes_the_table_not_the_tiles() -> None:
    view = late_game_table()
    light = decode(render_table(view))
    dark = decode(render_table(view, theme="dark"))
    assert distance(dark.getpixel((3, 3)), DARK.background) < 12
    assert distance(light.getpixel((3, 3)), LIGHT.background) < 12
    tile = next(p for p in layout_table(view).area.tiles if p.tile not in view.highlight)
    assert distance(face_color(dark, tile.box), DARK.tile_face) < 20


def test_empty_table_and_many_players() -> None:
    players = tuple(PlayerInfo(f"Player number {i}", 14, is_current=i == 5) for i in range(6))
    view = TableView((), players, pool_size=76, seconds_left=7200)
    image = decode(render_table(view))
    assert image.width == 1200
    lay = layout_table(view)
    assert len(lay.header.chips) == 6
    assert all(box.right <= 1200 for _, box in lay.header.chips)


def test_unknown_theme_is_one_clear_sentence() -> None:
    with pytest.raises(ValueError, match=r"^Unknown theme 'neon'; choose one of dark, light\.$"):
        render_table(opening_table(), theme="neon")


def test_rendering_is_pure_and_thread_safe() -> None:
    views = [opening_table(), late_game_table(), full_table(), full_table(Edition.XP)] * 2
    themes = ["light", "dark"] * 4
    serial = [render_table(v, theme=t) for v, t in zip(views, themes, strict=True)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        pairs = list(zip(views, themes, strict=True))
        parallel = list(pool.map(lambda vt: render_table(vt[0], theme=vt[1]), pairs))
    assert parallel == serial


def test_other_widths_scale_the_whole_picture() -> None:
    small = decode(render_table(late_game_table(), width=720))
    assert small.width == 720
    assert layout_table(late_game_table(), width=720).tile_width < 58
    with pytest.raises(ValueError, match="at least 480 pixels"):
        render_table(late_game_table(), width=300)


def test_the_last_move_highlights_only_the_tiles_its_caption_names() -> None:
    """The caption "Alice played R5" marks R5, not the melds around it (a real game marks what
    was placed: see test_a_real_play_highlights_what_it_placed)."""
    view = late_game_table()
    image = decode(render_table(view))
    marked = [
        str(p.tile)
        for p in layout_table(view).area.tiles
        if distance(face_color(image, p.box), LIGHT.highlight_face) < 20
    ]
    assert marked == ["R5"]
    assert say(view.caption, english).endswith("played R5")


def test_a_real_play_highlights_what_it_placed() -> None:
    g = game(["R5 K1 K2", "B1 B2", "O1"], "R2 R3 R4 / K3 B3 O3", [True, True, True])
    draft = g.draft()
    draft.apply_text("play R5 to 1")
    outcome = g.commit(draft)
    view = table_view_from_game(g, NAMES)
    image = decode(render_table(view))
    marked = {
        p.tile
        for p in layout_table(view).area.tiles
        if distance(face_color(image, p.box), LIGHT.highlight_face) < 20
    }
    assert marked == set(outcome.placed) and [str(t) for t in marked] == ["R5"]


@pytest.mark.parametrize(
    ("lang", "title"),
    [
        ("en", "Rummikub · game over: Ann wins"),
        ("pl", "Rummikub · koniec gry: wygrywa Ann"),
    ],
)
def test_the_table_after_the_last_play_names_the_winner(lang: str, title: str) -> None:
    from bot.i18n import translator

    g = game(["K9 B9 O9", "R2 R3", "J"], "R4 R5 R6", [True, True, False])
    draft = g.draft()
    draft.apply_text("play K9 B9 O9")
    g.commit(draft)
    view = table_view_from_game(g, NAMES)
    assert table_text(view, translate=translator(lang)).splitlines()[0] == title
    image = decode(render_table(view, translate=translator(lang)))
    plain = decode(render_table(replace(view, title="Rummikub"), translate=translator(lang)))
    header = (0, 0, image.width, layout_table(view).area_box.y)
    assert image.crop(header).tobytes() != plain.crop(header).tobytes()
