"""Commands that would end a game ask first: the questions asked, and their answers.

``cancel`` of a game under way, ``leave`` by the last person at the table and ``kick`` of that
person end the game for everybody. The first time, the manager only asks (privately: one
sentence saying what would happen, a button, and the typed answer such as ``cancel yes``); only
the answer acts. A question is bound to the game and turn it was asked in and expires after
``ASK_SECONDS``: an answer after that, or to a question never asked (or forgotten by a restart),
changes nothing and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.api import Button, ChannelRef, PlayerRef, Reply
from bot.i18n import duration, t

ASK_SECONDS = 120.0
"""How long a question waits for its answer."""


@dataclass(frozen=True, slots=True)
class Question:
    """What a person was asked to confirm: ``verb`` (and, for ``kick``, which seat) in the
    turn ``turn`` (game id, turn number)."""

    verb: str
    seat: int | None
    turn: tuple[int | None, int]


Where = tuple[str, str]
"""A channel key and a person's key: whose question, where."""


class Questions:
    """The open questions, one per person and channel (a new one replaces the old). Kept in
    memory only: a restart forgets them, so an answer after it is stale, as it should be."""

    def __init__(self, seconds: float = ASK_SECONDS) -> None:
        self.seconds = seconds
        self._open: dict[Where, tuple[Question, float]] = {}  # the question, when it expires

    def ask(self, where: Where, question: Question, now: float) -> None:
        """Note that the person of ``where`` was asked ``question`` at ``now``."""
        self._open = {key: open_ for key, open_ in self._open.items() if open_[1] >= now}
        self._open[where] = (question, now + self.seconds)

    def answer(self, where: Where, said: Question, now: float) -> bool:
        """Whether ``said`` (the verb, seat and turn an answer is for) confirms the open
        question of ``where`` before it expired; it is then closed. A question about another
        verb stays open."""
        asked = self._open.get(where)
        if asked is None or asked[0].verb != said.verb:
            return False
        del self._open[where]
        return asked[0] == said and now <= asked[1]

    def open(self, where: Where, now: float) -> Question | None:
        """The question the person of ``where`` was asked and has not answered, if it has not
        expired."""
        asked = self._open.get(where)
        if asked is None or now > asked[1]:
            return None
        return asked[0]

    def drop(self, where: Where) -> None:
        """The person said no: their question is closed."""
        self._open.pop(where, None)


def _command(question: Question) -> str:
    """The command that asked: ``cancel``, ``leave``, ``kick 2``."""
    return question.verb if question.seat is None else f"{question.verb} {question.seat + 1}"


def asking(
    channel: ChannelRef,
    player: PlayerRef,
    lang: str,
    question: Question,
    seconds: float,
    values: Mapping[str, str],
) -> Reply:
    """The question, privately: one sentence of what would happen and how to confirm it (a
    button, or typed: ``cancel yes``), and a button that keeps playing."""
    command = _command(question)
    text = t(
        lang,
        f"ask_{question.verb}",
        command=f"{command} yes",
        time=duration(seconds),
        **values,
    )
    buttons = (
        Button(t(lang, f"button_{question.verb}_yes"), f"{command} yes", "danger"),
        Button(t(lang, "button_keep_playing"), f"{command} no", "secondary"),
    )
    return Reply(channel, text, buttons=(buttons,), private_to=player)


def stale(
    channel: ChannelRef, player: PlayerRef, lang: str, question: Question, seconds: float
) -> Reply:
    """The answer to a ``yes`` with no open question: nothing changed, and how to ask again."""
    text = t(lang, "ask_stale", command=_command(question), time=duration(seconds))
    return Reply(channel, text, private_to=player)
