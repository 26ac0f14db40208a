"""The message catalog: every sentence exists in both languages with the same blanks."""

from __future__ import annotations

import string

from bot.i18n import LANGUAGES, MESSAGES, duration, t


def blanks(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_sentence_in_every_language_with_the_same_blanks() -> None:
    english = MESSAGES["en"]
    for lang in LANGUAGES:
        assert set(MESSAGES[lang]) == set(english), lang
        for key, template in MESSAGES[lang].items():
            assert blanks(template) == blanks(english[key]), (lang, key)


def test_sentences_are_filled_in_and_fall_back_to_english() -> None:
    assert t("pl", "joined", name="Ann", count=2) == "Ann dołącza (2 przy stole)."
    assert t("xx", "joined", name="Ann", count=2) == "Ann joined (2 seated)."


def test_durations_are_short() -> None:
    assert [duration(s) for s in (5, 75, 3 * 3600 + 120, 2 * 86400 + 3600)] == [
        "5s",
        "1m 15s",
        "3h 02m",
        "2d 1h",
    ]
