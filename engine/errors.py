"""One root error and a few kinds, each carrying a sentence a chat layer can show as it is."""

from __future__ import annotations


class RummikubError(ValueError):
    """Root of every rules error; ``str(err)`` is one clear sentence for the player."""


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
