"""Callback data, the id a Telegram button carries: its command, the game chat it acts in and
the game turn it was made for, within Telegram's 64 bytes.

Forms: ``/<command>`` runs in the chat the message is in; ``@<chat> <command>`` runs in game
chat ``<chat>`` (buttons in the private chat); ``~<code>`` names a long form kept in the
state file. Any of them may start with the turn's number (``7/done``, ``12~AbC...``); data
without one (every panel sent before turns were carried) decodes as before, with no turn.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass

from bot.platforms.telegram.state import TelegramState

MAX_CALLBACK = 64  # bytes of UTF-8, Telegram's limit
IN_CHAT, IN_GAME, CODED = "/", "@", "~"
_TURNED_RE = re.compile(r"([0-9]{1,18})([/@~].*)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Pressed:
    """What a button's data says: the game chat (None: the chat it is in), the command, and
    the turn it was made for (None: good at any time)."""

    chat: str | None
    command: str
    turn: int | None = None


class CallbackCodes:
    """Encodes a button's command (and the game chat it acts in, and its turn) into callback
    data and back; a form too long for 64 bytes is kept in the state behind a short code."""

    def __init__(self, state: TelegramState) -> None:
        self._state = state

    def encode(self, command: str, game_chat: str | None, turn: int | None = None) -> str:
        """Callback data for ``command``; ``game_chat`` when the button is outside that chat."""
        mark = str(turn) if turn is not None and 0 <= turn < 10**18 else ""
        data = f"{IN_GAME}{game_chat} {command}" if game_chat else f"{IN_CHAT}{command}"
        if len(f"{mark}{data}".encode()) <= MAX_CALLBACK:
            return f"{mark}{data}"
        # The code names the chat and command only, so each turn's panel reuses it.
        digest = hashlib.sha256(f"{game_chat or ''}\n{command}".encode()).digest()
        code = base64.urlsafe_b64encode(digest[:15]).decode()
        self._state.put("code", code, [game_chat or "", command])
        return f"{mark}{CODED}{code}"

    def decode(self, data: str) -> Pressed | None:
        """What ``data`` stands for, or None for an unknown code or a form that is none."""
        turn: int | None = None
        turned = _TURNED_RE.fullmatch(data)
        if turned is not None:
            turn, data = int(turned.group(1)), turned.group(2)
        if data.startswith(IN_CHAT):
            return Pressed(None, data[1:], turn)
        if data.startswith(IN_GAME):
            chat, _, command = data[1:].partition(" ")
            return Pressed(chat, command, turn)
        if data.startswith(CODED):
            stored = self._state.get("code", data[1:])
            if stored is None:
                return None
            chat, command = stored
            return Pressed(chat or None, command, turn)
        return None
