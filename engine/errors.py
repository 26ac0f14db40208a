"""One root error and a few kinds, each carrying a sentence a chat layer can show as it is.

Every error holds a :class:`~engine.messages.Msg` (an English template plus values), so
``str(err)`` is English and ``err.render(translate)`` is the same sentence in any catalog's
language: ``IllegalMoveError("There is no meld {number}.", number=4)``.
"""

from __future__ import annotations

from engine.messages import Msg, Translate, english


class RummikubError(ValueError):
    """Root of every rules error; ``str(err)`` is one clear sentence for the player."""

    msg: Msg

    def __init__(self, message: str | Msg = "", /, **params: object) -> None:
        msg = message if isinstance(message, Msg) else Msg(message, **params)
        super().__init__(str(msg))
        self.msg = msg

    def render(self, translate: Translate = english, /) -> str:
        """The sentence in the language ``translate`` maps templates to."""
        return self.msg.render(translate)


class NotationError(RummikubError):
    """Text that is not a tile, a tile list, a meld list or a snapshot."""


class InvalidMeldError(RummikubError):
    """Tiles that do not form a group or a run; the message says why."""


class IllegalMoveError(RummikubError):
    """A draft step or a commit the rules do not allow in this position."""


class NotYourTurnError(IllegalMoveError):
    """Someone other than the current player tried to act."""


class GameOverError(IllegalMoveError):
    """The game has ended; nothing more can be played."""
