"""Counted nouns agree with their numbers, in English and in Polish (1 kostka, 2 kostki,
5 kostek, 22 kostki, 0 kostek): every catalog entry is rendered with each count in every blank
and each number followed by a noun is checked against that noun's forms."""

from __future__ import annotations

import re
import string

import pytest

from bot.i18n import MESSAGES, PLURAL_BY, TEMPLATES, pl_pictures, plural, t, translator
from renderers.words import FORMS, Plural

COUNTS = (0, 1, 2, 5, 22)
PLURAL_PHRASES = sorted(key for key in pl_pictures.PL if FORMS in key)  # renderers' Plural ids

# noun (or adjective before a counted noun) -> the forms for one / few / many (Polish)
POLISH: list[tuple[set[str], set[str], set[str]]] = [
    ({"kostka", "kostkę"}, {"kostki"}, {"kostek"}),
    ({"miejsce"}, {"miejsca"}, {"miejsc"}),
    ({"punkt"}, {"punkty"}, {"punktów"}),
    ({"gra", "grę"}, {"gry"}, {"gier"}),
    ({"układ"}, {"układy"}, {"układów"}),
    ({"niepoprawny"}, {"niepoprawne"}, {"niepoprawnych"}),
    ({"sekunda", "sekundę"}, {"sekundy"}, {"sekund"}),
    ({"tura", "turę"}, {"tury"}, {"tur"}),
    ({"gracz"}, {"graczy"}, {"graczy"}),
]
ENGLISH: list[tuple[set[str], set[str]]] = [
    ({"tile"}, {"tiles"}),
    ({"seat"}, {"seats"}),
    ({"point"}, {"points"}),
    ({"game"}, {"games"}),
    ({"meld"}, {"melds"}),
    ({"player"}, {"players"}),
    ({"second"}, {"seconds"}),
    ({"turn"}, {"turns"}),
    ({"invalid"}, {"invalid"}),
]


def polish_category(count: int) -> int:
    """Polish grammar, written out independently of the code under test."""
    if count == 1:
        return 0
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return 1
    return 2


def blanks(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Counted(int):
    """A count that marks where it is shown (``#5``), so numbers written in a template itself
    ("at least 2 seats") are told apart from the counts filled into its blanks."""

    def __format__(self, spec: str) -> str:
        return MARK + format(int(self), spec)

    def __repr__(self) -> str:
        return MARK + int.__repr__(self)

    __str__ = __repr__


MARK = "#"
WORDS = {"edition": "xp"}  # blanks that never hold a number (a count there reads as a verb)


def fill(names: set[str], count: int) -> dict[str, object]:
    return {name: WORDS.get(name, Counted(count)) for name in names}


def wrong_nouns(text: str, count: int, lang: str) -> list[str]:
    """Each filled-in count followed by a known noun in the wrong form.

    A count closing a range ("2 to 4 players", "od 2 do 4 graczy") is left alone: the noun
    agrees with the range (plural; in Polish the genitive after "do").
    """
    problems = []
    for match in re.finditer(rf"(?<!\bto )(?<!\bdo ){MARK}{count} (\w+)", text):
        word = match.group(1).lower()
        if lang == "pl":
            expected = polish_category(count)
            for forms in POLISH:
                if any(word in group for group in forms) and word not in forms[expected]:
                    problems.append(match.group(0))
        else:
            expected = 0 if count == 1 else 1
            for forms in ENGLISH:
                if any(word in group for group in forms) and word not in forms[expected]:
                    problems.append(match.group(0))
    return problems


ENGLISH_VERBS = ({"is", "was", "has"}, {"are", "were", "have"})  # with one / with others
POLISH_VERBS = (  # singular (one; and 0, 5-21, ...: "5 kostek leży") / plural (2-4, 22-24, ...)
    {"leży", "jest", "został", "została", "zostało", "czeka"},
    {"leżą", "są", "zostały", "czekają"},
)


NUMBERS = {"count", "placed", "max", "most", "played", "games", "won", "matches", "matches_won"}
NUMBERS |= {"channels", "pool", "penalty", "seconds", "threshold"}
"""The blanks that hold a count (the others hold names, tiles, sentences, and numbers that
name something, like the meld in "Meld 3 has no joker")."""


def fill_numbers(names: set[str], count: int) -> dict[str, object]:
    """A count in every number blank, a name in the others: a verb after a name agrees with
    the name, not with a count."""
    return {name: Counted(count) if name in NUMBERS else "Ann" for name in names}


def wrong_verbs(text: str, count: int, lang: str) -> list[str]:
    """Each filled-in count whose verb (up to two words after it) does not agree with it:
    "1 more are in your draft", "kolejne 1 leżą". A count after "of" ("game 1 of 3 is
    dealt", "gra 1 z 3") is not the subject."""
    singular, plural_verbs = POLISH_VERBS if lang == "pl" else ENGLISH_VERBS
    if lang == "pl":
        expected = plural_verbs if polish_category(count) == 1 else singular
    else:
        expected = singular if count == 1 else plural_verbs
    problems = []
    subject = rf"(?<!\bof )(?<!\bz ){MARK}{count}((?: \w+){{1,3}})"
    for match in re.finditer(subject, text):
        verb = next((w for w in match.group(1).lower().split() if w in singular | plural_verbs), "")
        if verb and verb not in expected:
            problems.append(match.group(0))
    return problems


def bot_sentences(lang: str) -> list[str]:
    return sorted(MESSAGES[lang])


@pytest.mark.parametrize("lang", ["pl", "en"])
@pytest.mark.parametrize("key", bot_sentences("en"))
def test_every_bot_sentence_agrees_with_its_counts(lang: str, key: str) -> None:
    template = MESSAGES[lang][key]
    for count in COUNTS:
        values = fill(blanks(template), count)
        text = t(lang, key, **values)
        assert FORMS not in text
        assert not wrong_nouns(text, count, lang), (key, count, text)
        numbers = t(lang, key, **fill_numbers(blanks(template), count))
        assert not wrong_verbs(numbers, count, lang), (key, count, numbers)


@pytest.mark.parametrize("lang", ["pl", "en"])
@pytest.mark.parametrize("key", sorted(TEMPLATES["pl"]))
def test_every_rules_and_image_entry_agrees_with_its_counts(lang: str, key: str) -> None:
    translate = translator(lang)
    for count in COUNTS:
        if key in PLURAL_PHRASES:
            one, other = key.split(FORMS)
            params = fill(blanks(key) - {"count"}, count)
            text = Plural(Counted(count), one, other, **params).render(translate)
            named = fill_numbers(blanks(key) - {"count"}, count)
            numbers = Plural(Counted(count), one, other, **named).render(translate)
        else:
            template = translate(key)
            text = template.format(**fill(blanks(template), count))
            numbers = template.format(**fill_numbers(blanks(template), count))
        assert not wrong_nouns(text, count, lang), (key, count, text)
        assert not wrong_verbs(numbers, count, lang), (key, count, numbers)


def test_plural_messages_have_the_forms_of_their_language() -> None:
    for lang, forms in (("en", 2), ("pl", 3)):
        for key, template in MESSAGES[lang].items():
            if FORMS in template:
                parts = template.split(FORMS)
                assert len(parts) == forms, (lang, key)
                counted = PLURAL_BY.get(key, "count")
                assert all(counted in blanks(part) for part in parts), (lang, key)
                assert FORMS in MESSAGES["en"][key], key
    for key in PLURAL_PHRASES:
        assert len(pl_pictures.PL[key].split(FORMS)) == 3, key


def test_the_polish_forms_follow_the_grammar() -> None:
    forms = "{count} kostka|{count} kostki|{count} kostek"
    shown = [plural(n, forms).format(count=n) for n in (0, 1, 2, 4, 5, 12, 14, 21, 22, 25, 104)]
    assert shown == [
        "0 kostek",
        "1 kostka",
        "2 kostki",
        "4 kostki",
        "5 kostek",
        "12 kostek",
        "14 kostek",
        "21 kostek",
        "22 kostki",
        "25 kostek",
        "104 kostki",
    ]
    assert t("pl", "timeout_penalty", name="Ann", count=1).endswith("Ann dobiera 1 kostkę.")
    assert t("pl", "timeout_penalty", name="Ann", count=3).endswith("Ann dobiera 3 kostki.")
    assert t("en", "timeout_penalty", name="Ann", count=1).endswith("Ann draws 1 tile.")
    assert t("pl", "table_full", max=4) == "Stół jest pełny (4 miejsca)."
    assert t("pl", "table_full", max=6) == "Stół jest pełny (6 miejsc)."


def test_the_rack_counts_what_is_in_the_draft_with_the_right_verb() -> None:
    """Issue 21, 19: "1 more are in your draft"."""
    assert "1 more is in your draft" in t("en", "rack_draft", count=13, placed=1, tiles="")
    assert "2 more are in your draft" in t("en", "rack_draft", count=12, placed=2, tiles="")
    shown = [t("pl", "rack_draft", count=9, placed=n, tiles="").split("; ")[1] for n in (1, 3, 5)]
    assert shown == [
        "jeszcze 1 leży na stole w twoim szkicu): ",
        "kolejne 3 leżą na stole w twoim szkicu): ",
        "kolejnych 5 leży na stole w twoim szkicu): ",
    ]
    assert wrong_verbs("Your rack (#13; #1 more are in your draft)", 1, "en")
    assert wrong_verbs("Twój stojak (#13; kolejne #1 leżą na stole)", 1, "pl")
