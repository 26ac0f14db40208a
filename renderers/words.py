"""Words the renderers show, said in the reader's language.

Views hold :data:`Text`: a plain string (a player's name, tile codes) is shown as it is; a
message (:class:`~engine.messages.Msg`, :class:`Plural`, a rules error) is said through the
``translate`` the renderer was given. English needs no catalog: ``english`` is the identity.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Union

from engine.messages import Renderable, Translate, english

Text = Union[str, Renderable]  # noqa: UP007 (a runtime alias: Renderable is a Protocol)
"""What a view holds where a reader sees words: finished text, or a message to translate."""

FORMS = "|"
"""Separates the forms of a :class:`Plural` in its message id and in a catalog's answer."""


def say(text: Text, translate: Translate = english) -> str:
    """``text`` in the language of ``translate`` (a plain string as it is)."""
    return text if isinstance(text, str) else text.render(translate)


def _two_forms(count: int) -> int:
    return 0 if count == 1 else 1


def _three_forms(count: int) -> int:
    if count == 1:
        return 0
    if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return 1
    return 2


PLURAL_RULES: dict[int, Callable[[int], int]] = {2: _two_forms, 3: _three_forms}
"""Which form a count takes, by how many forms the catalog gives: two are one/other (English),
three are one/few/many as Polish counts (1 kostka, 2-4 kostki but 12-14 kostek, 5 kostek)."""


class Plural:
    """A message whose wording depends on a count: ``Plural(n, "{count} tile", "{count} tiles")``.

    The message id is the English forms joined by ``|``; a catalog answers with its own forms
    joined the same way (Polish gives three). ``count`` is one of the values, so a template may
    show it as ``{count}`` or, in a singular form, leave it out.
    """

    __slots__ = ("count", "one", "other", "params")

    count: int
    one: str
    other: str
    params: dict[str, object]

    def __init__(self, count: int, one: str, other: str, /, **params: object) -> None:
        self.count = count
        self.one = one
        self.other = other
        self.params = params

    @property
    def key(self) -> str:
        """The message id a catalog is asked for."""
        return f"{self.one}{FORMS}{self.other}"

    def render(self, translate: Translate = english, /) -> str:
        forms = translate(self.key).split(FORMS)
        rule = PLURAL_RULES.get(len(forms))
        template = forms[rule(abs(self.count))] if rule else self.other
        values = {
            key: value.render(translate) if hasattr(value, "render") else value
            for key, value in self.params.items()
        }
        return template.format(count=self.count, **values)

    def __str__(self) -> str:
        return self.render(english)

    def __repr__(self) -> str:
        params = "".join(f", {key}={value!r}" for key, value in self.params.items())
        return f"Plural({self.count}, {self.one!r}, {self.other!r}{params})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plural) and (
            other.count,
            other.one,
            other.other,
            other.params,
        ) == (self.count, self.one, self.other, self.params)

    def __hash__(self) -> int:
        return hash((self.count, self.one))


def tiles_count(count: int) -> Plural:
    """``1 tile``, ``5 tiles`` (in Polish ``1 kostka``, ``2 kostki``, ``5 kostek``)."""
    return Plural(count, "{count} tile", "{count} tiles")


def points_count(count: int) -> Plural:
    """``1 point``, ``20 points``."""
    return Plural(count, "{count} point", "{count} points")


class Listing:
    """Names (or other texts) read as a list: ``Ann``, ``Ann and Ben``, ``Ann, Ben and Cy``."""

    __slots__ = ("items",)

    def __init__(self, items: Sequence[Text]) -> None:
        self.items = tuple(items)

    def render(self, translate: Translate = english, /) -> str:
        parts = [say(item, translate) for item in self.items]
        if len(parts) <= 1:
            return "".join(parts)
        last = translate("{names} and {last}")
        return last.format(names=", ".join(parts[:-1]), last=parts[-1])

    def __str__(self) -> str:
        return self.render(english)

    def __repr__(self) -> str:
        return f"Listing({self.items!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Listing) and other.items == self.items

    def __hash__(self) -> int:
        return hash(self.items)


def signed(value: int) -> str:
    """A score with its sign: +12, 0, -7."""
    return f"+{value}" if value > 0 else str(value)
