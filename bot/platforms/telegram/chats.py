"""Where a Telegram reply goes and who can be reached: each user's current game chat, groups
that became supergroups, private chats Telegram refused, and the notes kept for them.

All of it lives in the state file (``TelegramState``), so a restart neither loses a user's
game nor knocks again on a private chat that is closed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.api import PlayerRef, Reply
from bot.platforms.telegram.state import TelegramState

log = logging.getLogger(__name__)

PLATFORM = "telegram"
PENDING_NOTES = 3  # short private answers kept for a user who has not opened the chat yet


def is_group(chat_id: str) -> bool:
    """Telegram's group and supergroup ids are negative, private chats' are user ids."""
    return chat_id.startswith("-")


class Chats:
    """The routing memory of the adapter: homes, moved groups, closed private chats."""

    def __init__(self, state: TelegramState) -> None:
        self.state = state
        # Users whose private chat Telegram refused (blocked, never started, chat not found):
        # nothing is sent there until they write again.
        self._unreachable: set[str] = set(state.keys("unreachable"))
        # (user, group) told about it since the chat closed, in this game
        self._told: set[tuple[str, str]] = {
            (key.partition("|")[0], key.partition("|")[2]) for key in state.keys("told")
        }
        self._pending: dict[str, dict[str, Reply]] = {}  # unreachable user -> unsent notes

    # --- the game a chat acts on ------------------------------------------------------------

    def home(self, user_id: str) -> str | None:
        """The game chat the user's private chat acts on (their last game)."""
        home = self.state.get("home", user_id)
        return str(home) if home else None

    def set_home(self, user_id: str, chat_id: str) -> None:
        self.state.put("home", user_id, chat_id)

    def moved(self, old: str, new: str) -> None:
        """Remember that the chat ``old`` now lives at ``new``.

        The game, its match, settings and leaderboard stay under the id the channel had when
        it was first seen (storage is keyed by it); only where messages go changes.
        """
        game = self.game_chat(old)
        if self.state.get("posted_at", game) == new:
            return
        log.info("Telegram: group %s moved to supergroup %s", old, new)
        self.state.put("posted_at", game, new)
        self.state.put("game_of", new, game)

    def game_chat(self, chat_id: str) -> str:
        """The channel id the game of this chat is stored under (its id before an upgrade)."""
        game = self.state.get("game_of", chat_id)
        return str(game) if game else chat_id

    def post_chat(self, chat_id: str) -> str:
        """Where a channel's messages go now (its supergroup after an upgrade)."""
        posted = self.state.get("posted_at", chat_id)
        return str(posted) if posted else chat_id

    # --- private chats that are closed ------------------------------------------------------

    def unreachable(self, user_id: str) -> bool:
        return user_id in self._unreachable

    def close(self, user_id: str) -> None:
        """Telegram refused the user's private chat: send nothing there until they write."""
        self._unreachable.add(user_id)
        self.state.put("unreachable", user_id, True)

    def reopen(self, user_id: str) -> list[Reply] | None:
        """The user wrote privately: their chat is open again. The notes kept for them, or
        None when it had not been closed."""
        if user_id not in self._unreachable:
            return None
        self._unreachable.discard(user_id)
        self.state.delete("unreachable", user_id)
        self.forget_told(lambda told: told[0] == user_id)
        return list(self._pending.pop(user_id, {}).values())

    def keep_for_later(self, reply: Reply, player: PlayerRef) -> None:
        """Keep the last few private notes until the user opens the chat again. Racks and
        panels are not kept: they are asked for afresh then (a kept one would be stale)."""
        if reply.slot is not None:
            return
        waiting = self._pending.setdefault(player.user_id, {})
        waiting[f"note:{id(reply)}"] = reply
        for old in list(waiting)[:-PENDING_NOTES]:
            del waiting[old]

    def tell_once(self, user_id: str, group: str) -> bool:
        """Whether the group is yet to be told that it cannot reach the user (and note that
        it now is)."""
        if (user_id, group) in self._told:
            return False
        self._told.add((user_id, group))
        self.state.put("told", f"{user_id}|{group}", True)
        return True

    def forget_told(self, which: Callable[[tuple[str, str]], bool]) -> None:
        for told in [told for told in self._told if which(told)]:
            self._told.discard(told)
            self.state.delete("told", f"{told[0]}|{told[1]}")
