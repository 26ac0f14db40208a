"""The way from a Telegram update into the game: which game a chat acts on, whether the
sender administers the group, running one ``Command`` and queueing what it caused.

The handlers read each update's text once (``read_command``) and hand the ``Command`` here;
nothing in this room reads text again.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import replace

from telegram import Bot
from telegram.error import TelegramError

from bot.api import ChannelRef, GameService, PlayerRef, Reply, channel_language
from bot.commands import MINE, Command, CommandError, check_syntax, read_command
from bot.i18n import t
from bot.platforms.telegram.chats import PLATFORM, Chats, is_group
from bot.platforms.telegram.config import TelegramConfig
from bot.platforms.telegram.outgoing import Outgoing

log = logging.getLogger(__name__)


def privately(command: Command) -> Command:
    """A command given in the private chat: there ``language pl`` is the speaker's own
    language (``language me pl``); in a group it stays the group's."""
    words = command.args.lower().split()
    if command.verb != "language" or (words and words[0] in MINE):
        return command
    args = f"me {command.args}".strip()
    problem = command.problem
    if problem is None:
        try:  # the words the verb takes, counted with the added "me"
            check_syntax("language", args)
        except CommandError as err:
            problem = err
    return replace(command, args=args, problem=problem)


class Games:
    """Runs commands for the handlers; holds what they share (the chats, the sender)."""

    def __init__(
        self,
        service: GameService,
        config: TelegramConfig,
        bot: Bot,
        chats: Chats,
        outgoing: Outgoing,
    ) -> None:
        self.service = service
        self.config = config
        self.bot = bot
        self.chats = chats
        self.outgoing = outgoing
        self._admins: dict[str, tuple[float, frozenset[str]]] = {}
        self._in_flight = 0

    @property
    def busy(self) -> bool:
        """Whether an update is being handled."""
        return self._in_flight > 0

    @contextlib.asynccontextmanager
    async def handling(self) -> AsyncIterator[None]:
        """Counts an update as being handled (``drain`` waits for it)."""
        self._in_flight += 1
        try:
            yield
        finally:
            self._in_flight -= 1

    async def handle(
        self, player: PlayerRef, channel: ChannelRef, command: Command
    ) -> tuple[list[Reply], bool]:
        """The replies ``command`` causes, and whether it opens a new lobby (its lobby and
        table are then new messages). A failure of the game is one apology to the player."""
        admin = await self.is_admin(channel, player)
        new_lobby = self.service.opens_new_lobby(channel, command)
        try:
            replies = list(await self.service.handle(player, channel, command, admin=admin))
        except Exception:
            log.exception("Telegram: the game failed on %r from %s", command.source, player.key)
            lang = await channel_language(self.service, channel)
            return [Reply(channel, t(lang, "tg_failure"), private_to=player)], new_lobby
        return replies, new_lobby

    async def run(self, player: PlayerRef, channel: ChannelRef, command: Command) -> None:
        """Run a command and queue what it caused; its sending does not hold up the chat's
        next command (that would queue a group's commands behind its throttled output)."""
        replies, new_lobby = await self.handle(player, channel, command)
        self.outgoing.send_all(replies, new_lobby=new_lobby)

    async def channel_for(self, chat_id: int, private: bool, player: PlayerRef) -> ChannelRef:
        """The game a message acts on: its group, or for the private chat the user's last game."""
        if private:
            await self.reconnected(player)
            home = self.chats.home(player.user_id)
            return ChannelRef(PLATFORM, home or str(chat_id))
        game = self.chats.game_chat(str(chat_id))
        self.chats.set_home(player.user_id, game)
        return ChannelRef(PLATFORM, game)

    async def reconnected(self, player: PlayerRef) -> bool:
        """The user wrote in their private chat: it is open again. What was kept for them is
        sent, with their rack and (on their turn) panel as they are now, not as they were when
        the chat closed. True when they had been unreachable."""
        waiting = self.chats.reopen(player.user_id)
        if waiting is None:
            return False
        for reply in waiting:
            self.outgoing.enqueue(reply)
        home = self.chats.home(player.user_id)
        if home is not None and is_group(home):
            channel = ChannelRef(PLATFORM, home)
            for text in ("rack", "panel"):
                replies, _ = await self.handle(player, channel, read_command(text))
                # Only what shows the game now: a "not your turn" note says nothing new.
                self.outgoing.send_all([r for r in replies if r.slot is not None])
        return True

    async def is_admin(self, channel: ChannelRef, player: PlayerRef) -> bool:
        """Whether the player administers the game's group (admin list cached per group)."""
        if not is_group(channel.chat_id):
            return False
        now = time.monotonic()
        cached = self._admins.get(channel.chat_id)
        if cached is None or now - cached[0] > self.config.admin_cache_seconds:
            try:
                members = await self.bot.get_chat_administrators(
                    int(self.chats.post_chat(channel.chat_id))
                )
                admins = frozenset(str(member.user.id) for member in members)
            except TelegramError as error:
                log.info("Telegram: no admin list for %s: %s", channel.chat_id, error)
                admins = frozenset()
            cached = (now, admins)
            self._admins[channel.chat_id] = cached
        return player.user_id in cached[1]
