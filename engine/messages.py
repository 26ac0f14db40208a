"""Sentences that a chat layer can translate: an English template plus the values it names.

The English template is the message id (gettext style): ``Msg("There is no meld {number}.",
number=4)`` reads as English with ``str()``, and ``msg.render(translate)`` looks the template up
in any catalog first. Values that are themselves messages (or rules errors) are translated too,
so "Meld {number}: {reason}" nests cleanly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

Translate = Callable[[str], str]
"""Maps an English template to the template in the reader's language (itself when unknown)."""


def english(template: str) -> str:
    """The identity translation: every template is already English."""
    return template


class Renderable(Protocol):
    """Anything that can say itself in a language: a :class:`Msg` or a rules error."""

    def render(self, translate: Translate = ..., /) -> str: ...


class Msg:
    """One translatable sentence (or phrase): ``template.format(**params)`` after translation.

    A template with no params is shown as it is (no ``format``), so literal braces are safe.
    """

    __slots__ = ("params", "template")

    template: str
    params: dict[str, object]

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def render(self, translate: Translate = english, /) -> str:
        text = translate(self.template)
        if not self.params:
            return text
        values = {
            key: value.render(translate) if hasattr(value, "render") else value
            for key, value in self.params.items()
        }
        return text.format(**values)

    def __str__(self) -> str:
        return self.render(english)

    def __repr__(self) -> str:
        params = "".join(f", {key}={value!r}" for key, value in self.params.items())
        return f"Msg({self.template!r}{params})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Msg)
            and other.template == self.template
            and other.params == self.params
        )

    def __hash__(self) -> int:
        return hash(self.template)


def either(items: Sequence[object]) -> object:
    """``R7``, ``R7 or B7``, ``R7 or B7 or O7``: choices joined by a translatable "or"."""
    if len(items) == 1:
        return items[0]
    return Msg("{choices} or {last}", choices=either(items[:-1]), last=items[-1])


def both(items: Sequence[object]) -> object:
    """``5``, ``5 and 8``, ``5, 6 and 8``: a list closed by a translatable "and"."""
    if len(items) == 1:
        return items[0]
    return Msg("{items} and {last}", items=", ".join(str(i) for i in items[:-1]), last=items[-1])


class Clauses:
    """Clauses said as one sentence: "Added R8 to meld 3; split meld 5 at K7." (the first
    letter raised, a full stop added, after translation)."""

    __slots__ = ("parts",)

    def __init__(self, parts: Sequence[Msg]) -> None:
        self.parts = tuple(parts)

    def render(self, translate: Translate = english, /) -> str:
        text = "; ".join(part.render(translate) for part in self.parts)
        return text[:1].upper() + text[1:] + "."

    def __str__(self) -> str:
        return self.render(english)
