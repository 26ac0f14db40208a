"""Text renderings: every tile is there, marks are explained, options change only the look."""

from __future__ import annotations

import re

from bot.cli.samples import (
    full_table,
    late_game_table,
    sample_draft,
    sample_game_end,
    sample_match,
    sample_rack,
)
from engine.tiles import Edition
from renderers import draft_text, rack_text, standings_text, table_text

ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


def codes_in(text: str) -> list[str]:
    return re.findall(r"\b(?:[KBOR](?:1[0-3]|[1-9])|J(?:=[KBOR]?\d+)?)(?![0-9])", text)


def test_full_table_text_contains_every_tile() -> None:
    for edition in (Edition.CLASSIC, Edition.XP):
        view = full_table(edition)
        text = table_text(view)
        found = codes_in(text.split("\n", 3)[3])
        expected = [label for m in view.melds for label in m.labels()]
        assert sorted(found) == sorted(expected)
        assert len(found) == edition.size


def test_table_text_has_status_players_numbers_and_marks() -> None:
    view = late_game_table()
    text = table_text(view)
    lines = text.splitlines()
    assert lines[0] == "Rummikub · turn 41"
    assert lines[1] == "Bob to play · 0:08 left · 7 in pool"
    assert lines[2].startswith("Players: Alice 3 tiles, Bob 5 tiles (to play)")
    assert " 6. R2 R3 R4" in lines and "16. R3 R4 [R5]" in lines
    assert "13. K13 B13 J=13" in lines  # a group of three: either missing colour
    assert lines[-1] == "[ ] = last move: Alice played R5"


def test_emoji_and_ansi_only_change_the_look() -> None:
    view = late_game_table()
    plain = table_text(view)
    emoji = table_text(view, emoji=True)
    ansi = table_text(view, ansi=True)
    assert "🟥[R5]" in emoji and "⬛K1" in emoji and "🃏J=13" in emoji
    assert "\x1b[" in ansi
    strip = ANSI_RE.sub("", ansi)
    assert codes_in(strip) == codes_in(plain.replace("[", "").replace("]", ""))
    for square in "🟥⬛🟦🟧🃏":
        emoji = emoji.replace(square, "")
    assert emoji == plain


def test_rack_text_marks_the_new_tile_and_numbers_positions() -> None:
    view = sample_rack()
    text = rack_text(view, positions=True)
    assert text.splitlines()[0] == "Alice's rack (14 tiles, 116 points):"
    assert "1:K1 2:[K2] 3:K13" in text
    assert "just drawn: K2" in text
    assert sorted(codes_in(text.splitlines()[1])) == sorted(str(t) for t in view.tiles)


def test_draft_text_gives_each_reason() -> None:
    text = draft_text(sample_draft())
    assert " 3. [B5] [B6] [B8]   <- not valid: 7 is missing" in text
    assert "! Meld 5 (K11 O11) is not valid: a set needs at least 3 tiles, this has 2." in text
    assert "Your rack (8 tiles" in text


def test_standings_text() -> None:
    assert standings_text(sample_match()).splitlines()[2:4] == [
        "1. Alice, 2 won, total +84",
        "2. Carol, 1 won, total +12",
    ]
    game = standings_text(sample_game_end())
    assert "1. Alice, +47 this game, left: out, total +84, winner" in game
    assert "Bob, -9 this game, left: K4 B5, total -21" in game
