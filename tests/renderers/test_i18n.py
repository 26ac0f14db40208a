"""Every word the renderers show comes from the message catalog, in English and in Polish.

Three checks, each able to catch what the others miss: the syntax tree of renderers/ (every
template has its Polish with the same blanks; no English literal is handed to a drawing or
measuring function), a text rendering with a marking translator (nothing English is said
outside a template), and real Polish pictures and texts.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

import pytest

from bot.cli.samples import (
    late_game_table,
    opening_table,
    sample_draft,
    sample_game_end,
    sample_match,
    sample_rack,
)
from bot.i18n import translator
from bot.i18n.pl_pictures import PL
from engine.messages import Msg
from renderers import (
    draft_text,
    rack_text,
    render_draft,
    render_rack,
    render_standings,
    render_table,
    standings_text,
    table_text,
)
from renderers.views import (
    game_end_view,
    match_view,
    rack_view_from_game,
    table_view_from_game,
)
from renderers.words import FORMS, Listing, Plural, say, tiles_count
from tests.renderers.catalog_scan import ROOT, blanks, template_ids
from tests.renderers.pixels import decode
from tests.renderers.test_views import game

SOURCES = [
    *sorted((ROOT / "renderers").glob("*.py")),
    ROOT / "bot" / "cli" / "render.py",
    ROOT / "bot" / "cli" / "samples.py",
    ROOT / "bot" / "presenter.py",
]
PL_TR = translator("pl")


# ----- the catalog --------------------------------------------------------------------------


def test_the_scan_finds_templates_of_every_kind() -> None:
    found = template_ids(SOURCES)
    assert "Rummikub · turn {turn}" in found  # Msg(...)
    assert "{count} tile|{count} tiles" in found  # Plural(...)
    assert "Left on rack" in found  # translate("...")
    assert "out!" in found and "none" in found  # translate("a" if x else "b")
    assert len(found) > 60


def test_every_template_has_its_polish_with_the_same_blanks() -> None:
    missing = {t: where for t, where in template_ids(SOURCES).items() if t not in PL}
    assert not missing, f"add these to bot/i18n/pl_pictures.PL: {missing}"
    for template, polish in PL.items():
        if FORMS in template:
            english = template.split(FORMS)
            forms = polish.split(FORMS)
            assert len(english) == 2 and len(forms) == 3, template
            expected = blanks(english[1]) - {"count"}
            for form in forms:
                assert blanks(form) - {"count"} == expected, (template, form)
        else:
            assert blanks(polish) == blanks(template), template


def test_the_polish_table_holds_nothing_the_code_no_longer_says() -> None:
    stale = set(PL) - set(template_ids(SOURCES))
    assert not stale, f"no code says these any more: {sorted(stale)}"


DRAWING = {"draw_text": 2, "paste_text": 2, "fit_text": 0, "wrap_text": 0, "text_width": 0}
"""Functions that draw or measure text, and where the text goes in their arguments."""


def test_no_english_literal_is_drawn_or_measured_directly() -> None:
    offenders = []
    for path in sorted((ROOT / "renderers").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            index = DRAWING.get(node.func.id)
            if index is None or len(node.args) <= index:
                continue
            arg = node.args[index]
            parts = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
            for part in parts:
                if (
                    isinstance(part, ast.Constant)
                    and isinstance(part.value, str)
                    and re.search(r"[A-Za-z]", part.value)
                ):
                    offenders.append(f"{path.name}:{node.lineno} {part.value!r}")
    assert not offenders, f"say these through translate or Msg: {offenders}"


def _marking(template: str) -> str:
    """A translator that wraps every template (each plural form) in ⟦ ⟧."""
    return FORMS.join(f"⟦{form}⟧" for form in template.split(FORMS))


def _unmarked(text: str) -> str:
    """What is left of ``text`` outside the marks (innermost first, since they nest)."""
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", "", text)
        if stripped == text:
            return text
        text = stripped


NAMES_AND_CODES = re.compile(
    r"\b(?:Alice|Bob|Carol|Dmitri|Ann|Ben|Cy|Rummikub|[KBOR](?:1[0-3]|[1-9])|J(?:=[KBOR]?\d+)?)\b"
    r"|\d+[hmd]\b"
)


def test_text_renderings_say_nothing_outside_a_template() -> None:
    g = game(["K9 B9 O9 R1", "R2 R3", "K1"], "R4 R5 R6", [True, True, False])
    draft = g.draft()
    draft.apply_text("play K9 B9 O9")
    g.commit(draft)
    texts = [
        table_text(opening_table(), translate=_marking),
        table_text(late_game_table(), ansi=True, translate=_marking),
        table_text(table_view_from_game(g, ["Ann"], seconds_left=5000), translate=_marking),
        rack_text(sample_rack(), positions=True, translate=_marking),
        rack_text(rack_view_from_game(g, 1), translate=_marking),
        draft_text(sample_draft(), translate=_marking),
        standings_text(sample_game_end(), translate=_marking),
        standings_text(sample_match(), translate=_marking),
    ]
    for text in texts:
        left = NAMES_AND_CODES.sub("", _unmarked(re.sub(r"\x1b\[[0-9;]*m", "", text)))
        assert not re.search(r"[A-Za-z]", left), (left, text)


# ----- plurals and lists --------------------------------------------------------------------


def test_polish_counts_take_the_right_form() -> None:
    said = {n: say(tiles_count(n), PL_TR) for n in (1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 104)}
    assert said == {
        1: "1 kostka",
        2: "2 kostki",
        4: "4 kostki",
        5: "5 kostek",
        11: "11 kostek",
        12: "12 kostek",
        14: "14 kostek",
        21: "21 kostek",
        22: "22 kostki",
        25: "25 kostek",
        104: "104 kostki",
    }
    assert [str(tiles_count(n)) for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]


def test_plurals_and_lists_nest_in_messages() -> None:
    names = Listing(("Ann", Msg("Player {number}", number=2), "Cy"))
    title = Plural(3, "{names} wins the match", "{names} win the match", names=names)
    assert str(title) == "Ann, Player 2 and Cy win the match"
    assert title.render(PL_TR) == "Ann, Gracz 2 i Cy wygrywają mecz"
    one = Plural(1, "{names} wins the match", "{names} win the match", names=Listing(["Ann"]))
    assert one.render(PL_TR) == "Ann wygrywa mecz"
    penalty = Plural(
        1,
        "{name} ran out of time mid-move and drew {count} tile",
        "{name} ran out of time mid-move and drew {count} tiles",
        name="Ann",
    )
    assert penalty.render(PL_TR).endswith("dobiera 1 kostkę")
    assert Plural(1, "x {count}", "y {count}").render(lambda t: "a|b|c|d") == "y 1"


# ----- Polish pictures and texts ------------------------------------------------------------


def test_polish_texts_use_polish_words() -> None:
    table = table_text(late_game_table(), translate=PL_TR)
    assert table.splitlines()[:2] == ["Rummikub · tura 41", "gra Bob · zostało 0:08 · 7 w banku"]
    assert "Gracze: Alice 3 kostki, Bob 5 kostek (gra teraz)" in table
    assert "[ ] = ostatni ruch: Alice wykłada R5" in table
    rack = rack_text(sample_rack(), translate=PL_TR)
    assert rack.startswith("Stojak: Alice (14 kostek, 116 punktów):")
    draft = draft_text(sample_draft(), translate=PL_TR)
    assert "Twoja kolej · Bob · zostało 0:31" in draft
    assert "! Układ 3 (B5 B6 B8) jest niepoprawny:" in draft
    assert "Twój stojak (8 kostek, 75 punktów):" in draft
    standings = standings_text(sample_match(), translate=PL_TR)
    assert standings.startswith("Tabela meczu\nPo grze 3 z 4\n1. Alice, wygrane: 2, razem +84")
    end = standings_text(sample_game_end(), translate=PL_TR)
    assert "1. Alice, +47 w tej grze, zostało: wszystko wyłożone, razem +84, zwycięzca" in end


def test_views_from_a_game_in_polish() -> None:
    g = game(["K9 B9 O9", "R2 R3", "J"], "R4 R5 R6", [True, True, False])
    draft = g.draft()
    draft.apply_text("play K9 B9 O9")
    g.commit(draft)
    table = table_text(table_view_from_game(g, ["Ann", "", "Cy"]), translate=PL_TR)
    assert table.startswith("Rummikub · koniec gry")
    assert "Gracz 2 2 kostki" in table and "Cy 1 kostka (jeszcze bez wyłożenia)" in table
    end = game_end_view(g, ["Ann", "", "Cy"])
    assert say(end.title, PL_TR) == "Rummikub! Ann wygrywa"
    from engine import Match

    match = Match(3, 1)
    assert g.result is not None
    match.record(g.result)
    assert say(match_view(match, ["Ann", "", "Cy"]).title, PL_TR) == "Ann wygrywa mecz"


@pytest.mark.parametrize(
    ("render", "view"),
    [
        (render_table, opening_table),
        (render_table, late_game_table),
        (render_rack, sample_rack),
        (render_draft, sample_draft),
        (render_standings, sample_game_end),
        (render_standings, sample_match),
    ],
)
def test_polish_pictures_differ_from_english_and_keep_their_size(render, view) -> None:  # type: ignore[no-untyped-def]
    english = render(view())
    polish = render(view(), translate=PL_TR)
    assert polish != english
    a, b = decode(english), decode(polish)
    assert a.width == b.width or render is render_rack
    # An invalid meld's reason is shown whole, so a longer Polish one may need another row.
    assert b.height == a.height or render is render_draft


def test_the_font_draws_polish_letters() -> None:
    from renderers.draw import font

    face = font(40)
    missing = bytes(face.getmask("\U000f0000"))  # a private-use code point: the "no glyph" box
    for letter in "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ":
        assert bytes(face.getmask(letter)) != missing, letter
        assert bytes(font(40, bold=True).getmask(letter)) != missing, letter


@pytest.mark.parametrize("width", [480, 1200])
def test_polish_words_stay_inside_the_picture(width: int) -> None:
    """Longer Polish labels are cut or shrunk, never drawn past the margin: the strip along the
    right edge is plain background in every picture, even at the narrowest width."""
    from renderers.theme import LIGHT

    long = "Małgorzata Żółkiewska-Wiśniewska"
    crowded = replace(
        opening_table(),
        players=tuple(
            replace(p, name=f"{long} {i}") for i, p in enumerate(opening_table().players)
        ),
        caption=Msg("{name} played {tiles}", name=long, tiles=" ".join(["R11 R12 R13"] * 9)),
    )
    pictures = [
        render_table(crowded, width=width, translate=PL_TR),
        render_draft(replace(sample_draft(), player=long), width=width, translate=PL_TR),
        render_table(late_game_table(), width=width, translate=PL_TR),
        render_draft(sample_draft(), width=width, translate=PL_TR),
        render_standings(sample_game_end(), width=max(480, width * 4 // 5), translate=PL_TR),
        render_standings(sample_match(), width=max(480, width * 4 // 5), translate=PL_TR),
        render_rack(sample_rack(), translate=PL_TR),
    ]
    for png in pictures:
        image = decode(png)
        strip = image.crop((image.width - 8, 0, image.width, image.height))
        assert {color for _, color in strip.getcolors() or []} == {LIGHT.background}


def test_a_meld_reason_is_taken_from_the_error_message_when_it_has_one() -> None:
    from engine.errors import InvalidMeldError
    from renderers.views import meld_reason

    reason = Msg("{number} is missing", number=7)
    err = InvalidMeldError("{tiles} is not a valid set: {reason}.", tiles="B5 B6 B8", reason=reason)
    assert meld_reason(err) is reason
    plain = InvalidMeldError("B5 B6 B8 is not a valid set: 7 is missing.")
    assert meld_reason(plain) == "7 is missing"
