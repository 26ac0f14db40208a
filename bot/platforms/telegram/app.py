"""The Telegram side of the bot put together: the PTB ``Application`` (paced, one chat's
updates in order), the command menu in English and Polish, the handlers wired to the rooms
they act through, and the lifecycle (start, drain, stop, ``run_telegram``).

Rooms, each importing only those below it: ``codes`` (callback data) <- ``render`` (Reply to
messages) <- ``chats`` (where things go) <- ``slots`` (edit in place) <- ``outgoing`` (the
paced sender) <- ``games`` (into the game) <- ``handlers`` (one per update kind) <- ``app``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable
from dataclasses import replace
from typing import Any
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    Update,
)
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    BaseRateLimiter,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.api import GameService
from bot.i18n import pl_menus
from bot.operations.platforms import observed_application
from bot.platforms.telegram.chats import PLATFORM, Chats
from bot.platforms.telegram.codes import CallbackCodes
from bot.platforms.telegram.config import TelegramConfig, api_urls
from bot.platforms.telegram.games import Games
from bot.platforms.telegram.handlers import (
    on_button,
    on_command,
    on_error,
    on_group_reply,
    on_migrate,
    on_start,
    on_text,
)
from bot.platforms.telegram.outgoing import Outgoing
from bot.platforms.telegram.pacing import Pacer
from bot.platforms.telegram.slots import SlotMessages
from bot.platforms.telegram.state import TelegramState
from bot.web.links import BoardLinks
from storage.messages import MessageSlots

log = logging.getLogger(__name__)

# The command menu Telegram shows: every verb of the command language (/new opens a lobby, as
# /start would in a private chat). Every command is sent to the game as "<command> <args>";
# /rummikub <anything> as "<anything>", and aliases (/ai, /go, /pass...) work too.
GROUP_COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", "open a game lobby here: /new timer=86400 for a day per turn"),
    ("join", "take a seat in the lobby"),
    ("leave", "give up your seat (an AI finishes for you)"),
    ("addbot", "add an AI seat: /addbot, /addbot easy, /addbot hard"),
    ("deal", "host: deal the tiles and start"),
    ("panel", "your turn panel: draft, tile buttons, Place, Done"),
    ("settings", "show or change: /settings timer 3600, /settings threshold 25"),
    ("kick", "host or admin: remove a seat: /kick 2"),
    ("cancel", "host or admin: end the game here"),
    ("yes", "confirm what the bot just asked you (leaving as the last person, cancel)"),
    ("no", "keep playing: drop the question the bot just asked you"),
    ("play", "new meld or extend one: /play R5 R6 R7, /play R8 to 3"),
    ("move", "move table tiles: /move R7 from 2 to 5"),
    ("split", "split a run: /split 2 at R6"),
    ("swap", "take a joker back: /swap J in 4 with O9"),
    ("arrange", "state the whole new table: /arrange R4 R5 R6 / K9 B9 O9"),
    ("auto", "let the bot place these tiles: /auto R6 K9"),
    ("undo", "take back the last step of your turn"),
    ("reset", "start your turn over"),
    ("done", "end your turn (you draw if you played nothing)"),
    ("draw", "draw a tile and end your turn"),
    ("hint", "best play for your rack, where hints are allowed"),
    ("pick", "select rack tiles for Place: /pick R5 R6 (again to unselect)"),
    ("target", "where Place puts them: /target 3, /target new"),
    ("place", "play the selected tiles to the target"),
    ("rack", "send me my rack privately"),
    ("table", "show the table"),
    ("status", "whose turn, time left, tiles left"),
    ("score", "match standings"),
    ("leaderboard", "this group's best players"),
    ("history", "this group's recent games"),
    ("rules", "the rules and this group's settings"),
    ("help", "commands, or /help play"),
    ("sort", "order your rack: /sort number, /sort colour"),
    ("language", "the bot's language here: /language en, /language pl"),
    ("rematch", "after a match: the same seats and settings again"),
    ("stats", "a player's record in this group: /stats, /stats Bob"),
    ("replay", "the last game as an animation and its record: /replay, /replay 2"),
    ("notify", "tell me privately when a game opens here: /notify on, /notify off"),
    ("rummikub", "any command: /rummikub play R5 R6 R7"),
)
LOBBY_ONLY = {"new", "join", "leave", "addbot", "deal", "settings", "kick", "cancel"}
PRIVATE_LANGUAGE = ("language", "your own language: /language pl, /language auto (your app's)")
PRIVATE_COMMANDS: tuple[tuple[str, str], ...] = (
    ("start", "connect this chat to your game"),
    *(
        PRIVATE_LANGUAGE if c[0] == "language" else c
        for c in GROUP_COMMANDS
        if c[0] not in LOBBY_ONLY
    ),
)


class PerChatUpdates(BaseUpdateProcessor):
    """Updates from one chat run in order; different chats run concurrently.

    Button presses are not queued behind the chat's commands: a press must be answered within
    a second or its button spins, and the game's own per-table lock keeps the order of moves.
    """

    def __init__(self, max_concurrent_updates: int = 64) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}  # chat -> (lock, [users])

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if isinstance(update, Update) and update.callback_query is not None:
            await coroutine
            return
        chat = update.effective_chat if isinstance(update, Update) else None
        key = chat.id if chat is not None else 0
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                await coroutine
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[key]

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None


class TelegramAdapter:
    """Owns the PTB ``Application``; ``start()`` connects it, ``stop()`` disconnects it."""

    def __init__(
        self,
        service: GameService,
        config: TelegramConfig,
        *,
        rate_limiter: BaseRateLimiter[Any] | None = None,
        state: TelegramState | None = None,
        messages: MessageSlots | None = None,
        board: BoardLinks | None = None,
    ) -> None:
        """``messages`` keeps which messages show the lobby, table, racks and panels; by
        default in the game service's database (``service.messages``), else in the state
        file. ``board`` (an https address) puts an "Open board" Mini App button on turn
        panels."""
        self.service = service
        self.config = config
        if board is not None and not board.base_url.startswith("https://"):
            log.warning("Telegram: the board is not at an https:// address; no Open board button")
            board = None
        self.state = state if state is not None else TelegramState(config.state_path)
        builder = (
            Application.builder()
            .token(config.token)
            .job_queue(None)  # timers live in the game manager, not here
            .concurrent_updates(PerChatUpdates())
            .rate_limiter(rate_limiter or Pacer(config.limits))
        )
        urls = api_urls(config.api_base_url)
        if urls is not None:
            builder = builder.base_url(urls[0]).base_file_url(urls[1])
        # builder.build(), with the API calls counted and readiness told (bot.operations)
        self.app: Application[Any, Any, Any, Any, Any, Any] = observed_application(builder, service)
        bot = self.app.bot
        chats = Chats(self.state)
        self.slots = SlotMessages(
            bot, self.state, messages if messages is not None else service.messages
        )
        self.outgoing = Outgoing(service, bot, chats, self.slots, CallbackCodes(self.state), board)
        self.games = Games(service, config, bot, chats, self.outgoing)
        self._stopped = False
        self._add_handlers()
        service.set_notice_style(PLATFORM, "private")  # notify: a private notice, a Join link

    def _add_handlers(self) -> None:
        private = filters.ChatType.PRIVATE
        groups = filters.ChatType.GROUPS
        new_messages = filters.UpdateType.MESSAGE
        games = self.games
        app = self.app
        app.add_handler(
            CommandHandler("start", functools.partial(on_start, games), private & new_messages)
        )
        app.add_handler(
            MessageHandler(filters.COMMAND & new_messages, functools.partial(on_command, games))
        )
        app.add_handler(
            MessageHandler(
                private & filters.TEXT & ~filters.COMMAND & new_messages,
                functools.partial(on_text, games),
            )
        )
        app.add_handler(
            MessageHandler(
                groups & filters.TEXT & ~filters.COMMAND & filters.REPLY & new_messages,
                functools.partial(on_group_reply, games),
            )
        )
        app.add_handler(
            MessageHandler(filters.StatusUpdate.MIGRATE, functools.partial(on_migrate, games))
        )
        app.add_handler(CallbackQueryHandler(functools.partial(on_button, games)))
        app.add_error_handler(on_error)

    @property
    def bot_username(self) -> str:
        return str(self.app.bot.username)

    async def start(self) -> None:
        """Connect: check the token, register the command menu, start polling or the webhook."""
        await self.app.initialize()
        await self.slots.load()
        self.service.set_outbox(self.outgoing, platform=PLATFORM)
        await self._register_commands()
        await self.app.start()
        updater = self.app.updater
        assert updater is not None
        allowed = [Update.MESSAGE, Update.CALLBACK_QUERY]
        if self.config.webhook_url:
            await updater.start_webhook(
                listen=self.config.webhook_listen,
                port=self.config.webhook_port,
                url_path=urlparse(self.config.webhook_url).path.lstrip("/"),
                webhook_url=self.config.webhook_url,
                secret_token=self.config.webhook_secret,
                allowed_updates=allowed,
            )
            log.info("Telegram: @%s receives updates by webhook", self.bot_username)
        else:
            await updater.start_polling(
                timeout=int(self.config.poll_timeout), allowed_updates=allowed
            )
            log.info("Telegram: @%s is polling for updates", self.bot_username)

    async def stop(self) -> None:
        """Stop taking updates, finish what is being sent, disconnect (once)."""
        if self._stopped:
            return
        self._stopped = True
        updater = self.app.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.drain()
        await self.app.shutdown()
        self.state.close()

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait until no update is being handled and every queued reply has been sent."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.app.update_queue.join(), deadline - time.monotonic())
            if not self.games.busy and self.outgoing.idle:
                return
            await asyncio.sleep(0.005)

    async def _register_commands(self) -> None:
        """The command menu, in English and for Polish-speaking users in Polish."""
        try:
            for lang, table in ((None, {}), ("pl", pl_menus.PL)):
                group = [BotCommand(name, table.get(text, text)) for name, text in GROUP_COMMANDS]
                private = [
                    BotCommand(name, table.get(text, text)) for name, text in PRIVATE_COMMANDS
                ]
                for commands, scope in (
                    (group, BotCommandScopeAllGroupChats()),
                    (private, BotCommandScopeAllPrivateChats()),
                    (private, BotCommandScopeDefault()),
                ):
                    await self.app.bot.set_my_commands(commands, scope=scope, language_code=lang)
        except TelegramError as error:
            log.warning("Telegram: could not register the command menu: %s", error)


async def run_telegram(
    service: GameService,
    token: str,
    *,
    config: TelegramConfig | None = None,
    stop: asyncio.Event | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    board: BoardLinks | None = None,
) -> None:
    """Run the Telegram side of the bot until ``stop`` is set (or the task is cancelled)."""
    config = replace(config, token=token) if config else TelegramConfig(token=token)
    adapter = TelegramAdapter(service, config, rate_limiter=rate_limiter, board=board)
    await adapter.start()
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await adapter.stop()
