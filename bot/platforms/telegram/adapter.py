"""The Telegram adapter: python-telegram-bot in, ``GameService.handle`` through, replies out.

Thin by design. A group command, a text typed in the private chat or a button press becomes one
``handle(player, channel, text)`` call; every ``Reply`` that comes back (or arrives later through
the outbox, from timers and AI seats) is sent where it belongs: public replies to the game's
group, private ones only to that user's private chat. Messages with a slot are edited in place.
A user the bot cannot reach privately (never pressed Start, or blocked the bot) gets a deep-link
button in the group instead, with nothing of the private content, and the game goes on.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    InputMediaAnimation,
    InputMediaPhoto,
    LinkPreviewOptions,
    Message,
    Update,
    User,
)
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import (
    Application,
    BaseRateLimiter,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.helpers import create_deep_linked_url

from bot.api import (
    ChannelRef,
    GameService,
    Image,
    PlayerRef,
    Reply,
    channel_language,
    confirm_delivery,
    private_language,
)
from bot.commands import MINE, CommandError, parse_command, read_command
from bot.i18n import locale_language, pl_menus, t
from bot.operations.platforms import observed_application
from bot.platforms.telegram.pacing import Limits, Pacer
from bot.platforms.telegram.render import (
    SELECTED_MARK,
    CallbackCodes,
    Part,
    build_keyboard,
    build_parts,
    join_payload,
    notice_keyboard,
    parse_join_payload,
    parse_start_payload,
    start_payload,
    to_html,
)
from bot.platforms.telegram.state import TelegramState
from bot.web.links import BoardLinks, is_turn_panel, with_button
from storage.messages import MessageSlots

log = logging.getLogger(__name__)

PLATFORM = "telegram"
TOAST_LIMIT = 200  # Telegram shows at most 200 characters in a callback answer
PENDING_NOTES = 3  # short private answers kept for a user who has not opened the chat yet

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


@dataclass(frozen=True, slots=True)
class TelegramConfig:
    """Everything the adapter needs to know; the project's settings object fills it in."""

    token: str
    api_base_url: str | None = None  # a self-hosted Bot API server, e.g. http://127.0.0.1:8081
    webhook_url: str | None = None  # set: webhook mode at this public https URL; else polling
    webhook_listen: str = "127.0.0.1"  # where the webhook server listens (behind a proxy)
    webhook_port: int = 8443
    webhook_secret: str | None = None  # Telegram sends it back; other callers get 403
    state_path: str | None = "data/telegram-state.sqlite3"  # None: remember nothing on disk
    poll_timeout: float = 30.0  # seconds one getUpdates long poll may wait
    admin_cache_seconds: float = 600.0  # how long a group's admin list is trusted
    answer_within: float = 0.8  # a button press waits this long for a short result to show
    limits: Limits = field(default_factory=Limits)  # how fast the bot may talk, and how it retries


def api_urls(base: str | None) -> tuple[str, str] | None:
    """PTB's base_url and base_file_url for a Bot API server address (None: the official one).

    Accepts ``http://host:8081``, ``http://host:8081/bot`` or a URL with ``{token}``.
    """
    if not base:
        return None
    base = base.rstrip("/")
    if "{token}" in base:
        return base, base.replace("/bot{token}", "/file/bot{token}")
    if not base.endswith("/bot"):
        base += "/bot"
    return base, base.removesuffix("/bot") + "/file/bot"


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


def player_of(user: User) -> PlayerRef:
    """The person, with the language their Telegram app reports (``language_code``)."""
    name = user.full_name or user.username or str(user.id)
    return PlayerRef(PLATFORM, str(user.id), name, locale=user.language_code or "")


def private_text(text: str) -> str:
    """A command typed in the private chat: there ``language pl`` is the speaker's own
    language (``language me pl``); in a group it stays the group's."""
    try:
        command = parse_command(text)
    except CommandError:
        return text
    words = command.args.lower().split()
    if command.verb != "language" or (words and words[0] in MINE):
        return text
    return f"language me {command.args}".strip()


def is_group(chat_id: str) -> bool:
    return chat_id.startswith("-")


def command_text(message_text: str) -> tuple[str, str]:
    """``("/play@bot R5 R6")`` -> ``("play", "play R5 R6")``; /rummikub passes its arguments."""
    head, _, args = message_text.strip().partition(" ")
    name = head.lstrip("/").split("@", 1)[0].lower()
    args = args.strip()
    if name == "rummikub":
        return name, args or "help"
    return name, f"{name} {args}".strip()


Job = Callable[[], Coroutine[Any, Any, bool]]


@dataclass
class QueueItem:
    """One thing to send to one chat; ``reply`` is set when it shows a game reply."""

    job: Job
    future: asyncio.Future[bool]
    reply: Reply | None = None


def is_plain_news(reply: Reply | None) -> bool:
    """A public line with nothing to press or edit: it may share a message with its neighbours."""
    return (
        reply is not None
        and reply.private_to is None
        and reply.slot is None
        and not (reply.images or reply.buttons or reply.selects)
    )


def combine(replies: list[Reply]) -> Reply:
    """One message saying what several news lines said, mentioning everyone they mention."""
    mentions: list[PlayerRef] = []
    for reply in replies:
        mentions += [p for p in reply.mentions if not any(p.same_person(m) for m in mentions)]
    text = "\n".join(r.text.strip() for r in replies if r.text.strip())
    return replace(replies[0], text=text, mentions=tuple(mentions))


def pressed_result(query: CallbackQuery, command: str) -> str | None:
    """The short answer to a press that worked and said nothing itself: the button's label
    with a tick ("Place ✓"). Tile and target toggles show their ✅ on the button instead."""
    if command.split(" ", 1)[0] in ("pick", "target"):
        return None
    markup = query.message.reply_markup if isinstance(query.message, Message) else None
    for row in markup.inline_keyboard if markup is not None else ():
        for button in row:
            if button.callback_data == query.data and button.text:
                return f"{button.text.removeprefix(SELECTED_MARK)} ✓"[:TOAST_LIMIT]
    return None


def opens_lobby(text: str) -> bool:
    """Whether a command opens a new lobby (its lobby and table are new messages)."""
    try:
        return parse_command(text).verb == "start"
    except CommandError:
        return False


class AdapterOutbox:
    """What the game calls to send replies caused by timers and AI turns (a
    ``bot.api.BatchOutbox``): one at a time, or one batch together."""

    def __init__(self, adapter: TelegramAdapter) -> None:
        self._adapter = adapter

    async def __call__(self, reply: Reply) -> None:
        await self._adapter.deliver(reply)

    async def many(self, replies: Sequence[Reply]) -> None:
        await self._adapter.deliver_many(replies)


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
        default in the game service's database (``service.db``), else in the state file.
        ``board`` (an https address) puts an "Open board" Mini App button on turn panels."""
        self.service = service
        self.config = config
        self.board = board
        if board is not None and not board.base_url.startswith("https://"):
            log.warning("Telegram: the board is not at an https:// address; no Open board button")
            self.board = None
        self.state = state if state is not None else TelegramState(config.state_path)
        self.codes = CallbackCodes(self.state)
        self.messages = messages if messages is not None else service.messages
        # (game chat, slot, owner) -> the messages showing it; owner "" for the group's own
        self._records: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
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
        self._queues: dict[int, collections.deque[QueueItem]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        # Users whose private chat Telegram refused (blocked, never started, chat not found):
        # nothing is sent there until they write again. Kept in the state file, so a restart
        # does not knock on the closed door again.
        self._unreachable: set[str] = set(self.state.keys("unreachable"))
        self._rematch_lobbies: set[str] = set()  # chats where a rematch is opening a lobby
        # (user, group) told about it since the chat closed, in this game
        self._told: set[tuple[str, str]] = {
            (key.partition("|")[0], key.partition("|")[2]) for key in self.state.keys("told")
        }
        self._pending: dict[str, dict[str, Reply]] = {}  # unreachable user -> unsent notes
        self._admins: dict[str, tuple[float, frozenset[str]]] = {}
        self._in_flight = 0
        self._stopped = False
        self._add_handlers()
        service.set_notice_style(PLATFORM, "private")  # notify: a private notice, a Join link

    # --- lifecycle ---------------------------------------------------------------------------

    @property
    def bot_username(self) -> str:
        return str(self.app.bot.username)

    async def start(self) -> None:
        """Connect: check the token, register the command menu, start polling or the webhook."""
        await self.app.initialize()
        if self.messages is not None:
            try:
                for chat, slot, owner, parts in await self.messages.all_parts(PLATFORM):
                    self._records[(chat, slot, owner)] = parts
            except Exception:  # without them the next replies are new messages, no worse
                log.exception("Telegram: could not read the stored message ids")
        self.service.set_outbox(AdapterOutbox(self), platform=PLATFORM)
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
            if not (self._in_flight or self._workers):
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

    # --- incoming ----------------------------------------------------------------------------

    def _add_handlers(self) -> None:
        private = filters.ChatType.PRIVATE
        groups = filters.ChatType.GROUPS
        new_messages = filters.UpdateType.MESSAGE
        self.app.add_handler(CommandHandler("start", self._on_start, private & new_messages))
        self.app.add_handler(MessageHandler(filters.COMMAND & new_messages, self._on_command))
        self.app.add_handler(
            MessageHandler(private & filters.TEXT & ~filters.COMMAND & new_messages, self._on_text)
        )
        self.app.add_handler(
            MessageHandler(
                groups & filters.TEXT & ~filters.COMMAND & filters.REPLY & new_messages,
                self._on_group_reply,
            )
        )
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate))
        self.app.add_handler(CallbackQueryHandler(self._on_button))
        self.app.add_error_handler(self._on_error)

    def _for_us(self, text: str, in_group: bool) -> bool:
        """Whether a command is ours: not addressed to another bot, and in a group a known one.

        In a group an unknown bare command may belong to another bot, so it is left alone.
        """
        head = text.split(maxsplit=1)[0]
        name, _, target = head.lstrip("/").partition("@")
        if target:
            return target.lower() == self.bot_username.lower()
        if not in_group or name.lower() == "rummikub":
            return True
        try:
            parse_command(text)
        except CommandError:
            return False
        return True

    @contextlib.asynccontextmanager
    async def _busy(self) -> AsyncIterator[None]:
        self._in_flight += 1
        try:
            yield
        finally:
            self._in_flight -= 1

    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup (Telegram gives it a new id): its game follows it."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            self._moved(str(message.chat.id), str(message.migrate_to_chat_id))
        elif message.migrate_from_chat_id:
            self._moved(str(message.migrate_from_chat_id), str(message.chat.id))

    def _moved(self, old: str, new: str) -> None:
        """Remember that the chat ``old`` now lives at ``new``.

        The game, its match, settings and leaderboard stay under the id the channel had when
        it was first seen (storage is keyed by it); only where messages go changes.
        """
        game = self._game_chat(old)
        if self.state.get("posted_at", game) == new:
            return
        log.info("Telegram: group %s moved to supergroup %s", old, new)
        self.state.put("posted_at", game, new)
        self.state.put("game_of", new, game)

    def _game_chat(self, chat_id: str) -> str:
        """The channel id the game of this chat is stored under (its id before an upgrade)."""
        game = self.state.get("game_of", chat_id)
        return str(game) if game else chat_id

    def _post_chat(self, chat_id: str) -> str:
        """Where a channel's messages go now (its supergroup after an upgrade)."""
        posted = self.state.get("posted_at", chat_id)
        return str(posted) if posted else chat_id

    async def _on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start in the private chat, plain or from a deep link naming a game chat."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        async with self._busy():
            user_id = str(user.id)
            payload = context.args[0] if context.args else ""
            joining = parse_join_payload(payload)
            if joining is not None:
                await self._join_from_notice(player_of(user), joining)
                return
            game = parse_start_payload(payload)
            if game is not None:
                self._set_home(user_id, game)
            game = game or self._home(user_id)
            if await self._reconnected(player_of(user)):
                return
            if game is None:
                await self._run(player_of(user), ChannelRef(PLATFORM, user_id), "help")
            else:
                await self._run(player_of(user), ChannelRef(PLATFORM, game), "rack")

    async def _join_from_notice(self, player: PlayerRef, group: str) -> None:
        """A notice's Join link: a seat in that group's lobby, and the private chat acts on
        that game from now on; the player is told here when the group's lobby says it."""
        self._set_home(player.user_id, group)
        await self._reconnected(player)
        channel = ChannelRef(PLATFORM, group)
        replies = await self._handle(player, channel, "join")
        if not any(player.same_person(r.private_to) for r in replies):
            lang = await private_language(self.service, player, channel)
            replies.append(Reply(channel, t(lang, "notify_joined"), private_to=player))
        self._send_all(replies, "join")

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command in a group (acts on that group's game) or in the private chat."""
        message, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or user is None or chat is None or not message.text:
            return
        if not self._for_us(message.text, chat.type != ChatType.PRIVATE):
            return
        async with self._busy():
            _, text = command_text(message.text)
            if chat.type == ChatType.PRIVATE:
                text = private_text(text)
            channel = await self._channel_for(chat.id, chat.type, user)
            await self._run(player_of(user), channel, text)

    async def _on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Anything typed in the private chat goes to the user's current game."""
        message, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or user is None or chat is None or not message.text:
            return
        async with self._busy():
            text = command_text(message.text)[1] if message.text.startswith("/") else message.text
            channel = await self._channel_for(chat.id, chat.type, user)
            text = private_text(text)  # this handler only sees the private chat
            await self._run(player_of(user), channel, text)

    async def _on_group_reply(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A reply to one of the bot's group messages is read as a command ("play R5 R6 R7")."""
        message, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or user is None or chat is None or not message.text:
            return
        replied: Message | None = message.reply_to_message
        if replied is None or replied.from_user is None or replied.from_user.id != context.bot.id:
            return
        async with self._busy():
            channel = await self._channel_for(chat.id, chat.type, user)
            await self._run(player_of(user), channel, message.text)

    async def _on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: answer it within a second (with the short result when the game has
        one by then), then send what it caused. Never waits behind the chat's output."""
        query = update.callback_query
        if query is None:
            return
        async with self._busy():
            decoded = self.codes.decode(query.data or "")
            message = query.message
            if decoded is None or message is None:
                # The alert is the presser's alone: their language, not the chat's.
                if message is not None:
                    lang = await private_language(
                        self.service,
                        player_of(query.from_user),
                        ChannelRef(PLATFORM, str(message.chat.id)),
                    )
                else:
                    lang = locale_language(query.from_user.language_code)
                await self._answer(query.answer(t(lang, "tg_expired"), show_alert=True))
                return
            chat, command = decoded
            player = player_of(query.from_user)
            game = chat or self._game_chat(str(message.chat.id))
            if is_group(game):
                self._set_home(player.user_id, game)
            running = asyncio.ensure_future(
                self._handle(player, ChannelRef(PLATFORM, game), command)
            )
            await asyncio.wait({running}, timeout=self.config.answer_within)
            if not running.done():
                # A slow command (a long AI turn): stop the button's spinner now.
                await self._answer(query.answer())
                replies = await running
            else:
                replies = running.result()
                toast = next((r for r in replies if self._is_toast(r, player)), None)
                if toast is not None:
                    replies.remove(toast)
                    text = toast.text.strip()
                    await self._answer(query.answer(text, show_alert=len(text) > 60))
                else:
                    await self._answer(query.answer(pressed_result(query, command)))
            if message.chat.type == ChatType.PRIVATE:
                await self._reconnected(player)
            self._send_all(replies, command)

    @staticmethod
    async def _answer(answering: Awaitable[bool]) -> None:
        try:
            await answering
        except TelegramError as error:  # too late, or already answered: the press still counted
            log.info("Telegram: callback answer refused: %s", error)

    @staticmethod
    def _is_toast(reply: Reply, presser: PlayerRef) -> bool:
        """A short private text for the presser is shown on the button press itself."""
        return (
            presser.same_person(reply.private_to)
            and not (reply.images or reply.buttons or reply.selects or reply.slot)
            and 0 < len(reply.text.strip()) <= TOAST_LIMIT
        )

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("Telegram: error while handling an update", exc_info=context.error)

    async def _channel_for(self, chat_id: int, chat_type: str, user: User) -> ChannelRef:
        """The game a message acts on: its group, or for the private chat the user's last game."""
        if chat_type == ChatType.PRIVATE:
            await self._reconnected(player_of(user))
            home = self._home(str(user.id))
            return ChannelRef(PLATFORM, home or str(chat_id))
        game = self._game_chat(str(chat_id))
        self._set_home(str(user.id), game)
        return ChannelRef(PLATFORM, game)

    async def _reconnected(self, player: PlayerRef) -> bool:
        """The user wrote in their private chat: it is open again. What was kept for them is
        sent, with their rack and (on their turn) panel as they are now, not as they were when
        the chat closed. True when they had been unreachable."""
        user_id = player.user_id
        if user_id not in self._unreachable:
            return False
        self._unreachable.discard(user_id)
        self.state.delete("unreachable", user_id)
        self._forget_told(lambda told: told[0] == user_id)
        waiting = self._pending.pop(user_id, {})
        for reply in waiting.values():
            self._enqueue(reply)
        home = self._home(user_id)
        if home is not None and is_group(home):
            channel = ChannelRef(PLATFORM, home)
            for command in ("rack", "panel"):
                replies = await self._handle(player, channel, command)
                # Only what shows the game now: a "not your turn" note says nothing new.
                self._send_all([r for r in replies if r.slot is not None], command)
        return True

    def _forget_told(self, which: Callable[[tuple[str, str]], bool]) -> None:
        for told in [told for told in self._told if which(told)]:
            self._told.discard(told)
            self.state.delete("told", f"{told[0]}|{told[1]}")

    def _home(self, user_id: str) -> str | None:
        home = self.state.get("home", user_id)
        return str(home) if home else None

    def _set_home(self, user_id: str, chat_id: str) -> None:
        self.state.put("home", user_id, chat_id)

    async def _is_admin(self, channel: ChannelRef, player: PlayerRef) -> bool:
        """Whether the player administers the game's group (admin list cached per group)."""
        if not is_group(channel.chat_id):
            return False
        now = time.monotonic()
        cached = self._admins.get(channel.chat_id)
        if cached is None or now - cached[0] > self.config.admin_cache_seconds:
            try:
                members = await self.app.bot.get_chat_administrators(
                    int(self._post_chat(channel.chat_id))
                )
                admins = frozenset(str(member.user.id) for member in members)
            except TelegramError as error:
                log.info("Telegram: no admin list for %s: %s", channel.chat_id, error)
                admins = frozenset()
            cached = (now, admins)
            self._admins[channel.chat_id] = cached
        return player.user_id in cached[1]

    async def _handle(self, player: PlayerRef, channel: ChannelRef, text: str) -> list[Reply]:
        admin = await self._is_admin(channel, player)
        command = read_command(text)
        if self.service.opens_new_lobby(channel, command) and command.verb != "start":
            self._rematch_lobbies.add(channel.chat_id)  # _send_all posts its lobby anew
        try:
            return list(await self.service.handle(player, channel, command, admin=admin))
        except Exception:
            log.exception("Telegram: the game failed on %r from %s", text, player.key)
            lang = await channel_language(self.service, channel)
            return [Reply(channel, t(lang, "tg_failure"), private_to=player)]

    async def _run(self, player: PlayerRef, channel: ChannelRef, text: str) -> None:
        """Run a command and queue what it caused; its sending does not hold up the chat's
        next command (that would queue a group's commands behind its throttled output)."""
        self._send_all(await self._handle(player, channel, text), text)

    def _send_all(self, replies: list[Reply], command: str = "") -> list[asyncio.Future[bool]]:
        """Queue one command's (or one timer's) replies together, so that a group's news lines
        can share one message."""
        rematch = {r.channel.chat_id for r in replies} & self._rematch_lobbies if command else set()
        self._rematch_lobbies -= rematch
        if command and (opens_lobby(command) or rematch):
            # A new lobby is a new message at the bottom of the chat, and so is its table:
            # the group's queue forgets the old ones before it sends the lobby.
            for reply in replies:
                if reply.slot == "lobby" and reply.private_to is None:
                    group = reply.channel.chat_id
                    self._enqueue_job(
                        int(self._post_chat(group)), functools.partial(self._new_lobby, group)
                    )
                    break
        return [self._enqueue(reply) for reply in replies]

    async def _new_lobby(self, group: str) -> bool:
        # A new game: the group is told again about anyone it cannot reach.
        self._forget_told(lambda told: told[1] == group)
        for slot in ("lobby", "table"):
            await self._save_record(
                (group, slot, ""), f"{self._post_chat(group)}|{group}|{slot}", []
            )
        return True

    # --- outgoing ----------------------------------------------------------------------------

    async def deliver(self, reply: Reply) -> None:
        """The outbox: send one reply (from a timer or an AI turn) and wait until it is out.

        Replies for another platform's channels are not ours and are left alone.
        """
        await self.deliver_many([reply])

    async def deliver_many(self, replies: Sequence[Reply]) -> None:
        """Send the replies of one timer or AI turn together (news lines share a message) and
        wait until they are out."""
        ours = [r for r in replies if r.channel.platform == PLATFORM]
        if len(ours) < len(replies):
            log.debug("Telegram: ignoring %d replies for other platforms", len(replies) - len(ours))
        if ours:
            await asyncio.gather(*self._send_all(ours))

    def _enqueue(self, reply: Reply) -> asyncio.Future[bool]:
        """Queue a reply behind earlier ones for the same chat, so edits land in order."""
        if reply.private_to is not None:
            destination = int(reply.private_to.user_id)
        else:
            destination = int(self._post_chat(reply.channel.chat_id))
        return self._enqueue_job(destination, lambda: self._send(destination, reply), reply=reply)

    def _enqueue_job(
        self, destination: int, job: Job, *, reply: Reply | None = None
    ) -> asyncio.Future[bool]:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        queue = self._queues.setdefault(destination, collections.deque())
        queue.append(QueueItem(job, future, reply))
        if destination not in self._workers:
            self._workers[destination] = asyncio.create_task(self._work(destination, queue))
        return future

    async def _work(self, destination: int, queue: collections.deque[QueueItem]) -> None:
        """Send one chat's queue in order; the worker ends when the queue is empty.

        News lines waiting together become one message, sent after the edits of messages
        already in the chat that came between them (an edit does not move a message), so a
        turn costs the group one new message, however many lines it has.
        """
        try:
            while queue:
                item = queue.popleft()
                if not is_plain_news(item.reply):
                    await self._run_items(destination, [item], item.job)
                    continue
                news, edits = self._gather_news(item, queue)
                for edit in edits:
                    await self._run_items(destination, [edit], edit.job)
                job = item.job
                if len(news) > 1:
                    merged = combine([n.reply for n in news if n.reply is not None])
                    job = functools.partial(self._send, destination, merged)
                await self._run_items(destination, news, job)
        finally:
            del self._workers[destination]
            if not queue:
                self._queues.pop(destination, None)

    def _gather_news(
        self, first: QueueItem, queue: collections.deque[QueueItem]
    ) -> tuple[list[QueueItem], list[QueueItem]]:
        """Take from the queue the news lines to merge with ``first`` and the in-place edits
        that may go before them, up to the first item that is neither."""
        news, edits = [first], []
        assert first.reply is not None
        while queue:
            item = queue[0]
            reply = item.reply
            if reply is None or reply.channel != first.reply.channel:
                break
            if is_plain_news(reply):
                news.append(queue.popleft())
            elif reply.private_to is None and reply.slot is not None and self._has_slot(reply):
                edits.append(queue.popleft())
            else:
                break
        return news, edits

    def _has_slot(self, reply: Reply) -> bool:
        return bool(self._records.get((reply.channel.chat_id, reply.slot or "", "")))

    def _slot_keys(self, chat: int, reply: Reply) -> tuple[tuple[str, str, str], str]:
        """Where a slot's messages are recorded: the database key, and the state file's."""
        owner = str(chat) if reply.private_to is not None else ""
        legacy = f"{chat}|{reply.channel.chat_id}|{reply.slot}"
        return (reply.channel.chat_id, reply.slot or "", owner), legacy

    async def _load_record(self, key: tuple[str, str, str], legacy: str) -> list[dict[str, Any]]:
        if key in self._records:
            return self._records[key]
        record: list[dict[str, Any]] | None = None
        if self.messages is not None:
            try:
                record = await self.messages.get_parts(PLATFORM, *key)
            except Exception:
                log.exception("Telegram: could not read the stored message of %s", key)
        if record is None:  # kept by an older version in the state file, or no database
            record = self.state.get("slot", legacy) or []
        self._records[key] = record
        return record

    async def _save_record(
        self, key: tuple[str, str, str], legacy: str, record: list[dict[str, Any]]
    ) -> None:
        self._records[key] = record
        if self.messages is not None:
            try:
                await self.messages.put_parts(PLATFORM, key[0], key[1], record, key[2])
                if self.state.get("slot", legacy) is not None:
                    self.state.delete("slot", legacy)  # one place for it from now on
                return
            except Exception:
                log.exception("Telegram: could not store the message of %s", key)
        self.state.put("slot", legacy, record)

    async def _run_items(self, destination: int, items: list[QueueItem], job: Job) -> None:
        """Run one send (which may carry several queued replies, merged) and, once Telegram
        accepted it, confirm the outbox entries of every reply it carried."""
        try:
            result = await job()
        except Exception:
            log.exception("Telegram: sending to %s failed", destination)
            result = False
        if result is True:
            await confirm_delivery(self.service, [i.reply for i in items if i.reply is not None])
        for item in items:
            if not item.future.done():
                item.future.set_result(result)

    async def _send(self, destination: int, reply: Reply) -> bool:
        """Show one reply in one chat; a private one to an unreachable user becomes a link."""
        if reply.notice:
            return await self._send_notice(destination, reply)
        player = reply.private_to
        if player is not None:
            if is_group(reply.channel.chat_id):
                self._set_home(player.user_id, reply.channel.chat_id)
            if player.user_id in self._unreachable:
                self._keep_for_later(reply, player)
                self._link_notice(reply, player)
                return False
        elsewhere = player is not None and reply.channel.chat_id != str(destination)
        if player is not None:  # private replies go to the user's private chat
            reply = await self._with_board(reply)
        markup = build_keyboard(
            reply.selects, reply.buttons, self.codes, reply.channel.chat_id if elsewhere else None
        )
        parts = build_parts(reply, markup)
        try:
            await self._show(destination, reply, parts)
        except ChatMigrated as error:  # upgraded while we were not looking
            if player is not None:
                raise
            self._moved(str(destination), str(error.new_chat_id))
            await self._show(int(self._post_chat(reply.channel.chat_id)), reply, parts)
        except (Forbidden, BadRequest) as error:
            if isinstance(error, BadRequest) and "chat not found" not in error.message.lower():
                raise
            if player is None:
                log.warning("Telegram: cannot post in chat %s: %s", destination, error)
                return False
            log.info("Telegram: %s cannot be reached privately: %s", player.key, error)
            self._unreachable.add(player.user_id)
            self.state.put("unreachable", player.user_id, True)
            self._keep_for_later(reply, player)
            self._link_notice(reply, player)
            return False
        return True

    async def _send_notice(self, destination: int, reply: Reply) -> bool:
        """A subscriber's notice that a lobby opened: to their private chat when they started
        it, else dropped (never a link in the group); it does not change their private chat's
        game. Its Join button is a deep link that joins from the private chat."""
        player = reply.private_to
        if player is None or player.user_id in self._unreachable:
            return False
        group = reply.channel.chat_id
        url = create_deep_linked_url(self.bot_username, join_payload(group))
        parts = build_parts(reply, notice_keyboard(reply.buttons, self.codes, group, url))
        try:
            await self._send_parts(destination, parts)
        except (Forbidden, BadRequest) as error:
            if isinstance(error, BadRequest) and "chat not found" not in error.message.lower():
                raise
            log.info("Telegram: no notice for %s (no private chat): %s", player.key, error)
            self._unreachable.add(player.user_id)
            self.state.put("unreachable", player.user_id, True)
            return False
        return True

    async def _with_board(self, reply: Reply) -> Reply:
        """A turn panel in the private chat, with the web board one tap away (a Mini App:
        Telegram signs the user in, so the address names only the game's chat)."""
        if self.board is None or not is_turn_panel(reply) or reply.private_to is None:
            return reply
        lang = await private_language(self.service, reply.private_to, reply.channel)
        return with_button(reply, self.board.mini_app_button(reply.channel, lang))

    def _keep_for_later(self, reply: Reply, player: PlayerRef) -> None:
        """Keep the last few private notes until the user opens the chat again. Racks and
        panels are not kept: they are asked for afresh then (a kept one would be stale)."""
        if reply.slot is not None:
            return
        waiting = self._pending.setdefault(player.user_id, {})
        waiting[f"note:{id(reply)}"] = reply
        for old in list(waiting)[:-PENDING_NOTES]:
            del waiting[old]

    def _link_notice(self, reply: Reply, player: PlayerRef) -> None:
        """Post in the group a button that opens the private chat (never the private content),
        once each time the user's private chat closes (and once per new lobby)."""
        group = reply.channel.chat_id
        if not is_group(group) or (player.user_id, group) in self._told:
            return
        self._told.add((player.user_id, group))
        self.state.put("told", f"{player.user_id}|{group}", True)
        url = create_deep_linked_url(self.bot_username, start_payload(group))

        async def post() -> bool:
            lang = await channel_language(self.service, reply.channel)
            text = t(lang, "tg_open_private", name=player.display_name)
            button = InlineKeyboardButton(t(lang, "button_open_private"), url=url)
            markup = InlineKeyboardMarkup([[button]])
            await self.app.bot.send_message(
                int(self._post_chat(group)),
                to_html(text, (player,)),
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
            )
            return True

        self._enqueue_job(int(self._post_chat(group)), post)

    async def _show(self, chat: int, reply: Reply, parts: list[Part]) -> None:
        """Send the parts, or edit the slot's earlier messages in place when the shapes match."""
        if reply.slot is None:
            await self._send_parts(chat, parts)
            return
        key, legacy = self._slot_keys(chat, reply)
        record = await self._load_record(key, legacy)
        # Edit the messages whose kind still fits (the table photo stays where it is when its
        # text outgrows the caption), delete what is left over, send what is new.
        kept: list[dict[str, Any]] = []
        for old, part in zip(record, parts, strict=False):
            if old["kind"] != part.kind:
                break
            try:
                kept.append(await self._edit(chat, old, part))
            except BadRequest as error:
                if "chat not found" in error.message.lower():
                    raise
                log.info("Telegram: could not edit slot %s, sending anew: %s", key, error)
                break
        for old in record[len(kept) :]:
            with contextlib.suppress(TelegramError):
                await self.app.bot.delete_message(chat, old["id"])
        kept += await self._send_parts(chat, parts[len(kept) :])
        await self._save_record(key, legacy, kept)

    async def _send_parts(self, chat: int, parts: list[Part]) -> list[dict[str, Any]]:
        sent = []
        for part in parts:
            if part.kind == "photo" and part.image is not None and is_animation(part.image):
                # sendPhoto would flatten a GIF to its first frame; sendAnimation keeps it moving
                message = await self.app.bot.send_animation(
                    chat,
                    InputFile(part.image.png, filename=part.image.filename),
                    caption=part.html,
                    parse_mode=ParseMode.HTML if part.html else None,
                    reply_markup=part.markup,
                )
            elif part.kind == "photo" and part.image is not None:
                message = await self.app.bot.send_photo(
                    chat,
                    InputFile(part.image.png, filename=part.image.filename),
                    caption=part.html,
                    parse_mode=ParseMode.HTML if part.html else None,
                    reply_markup=part.markup,
                )
            elif part.kind == "document" and part.file is not None:
                message = await self.app.bot.send_document(
                    chat,
                    InputFile(part.file.data, filename=part.file.filename),
                    disable_content_type_detection=True,
                )
            else:
                message = await self.app.bot.send_message(
                    chat,
                    part.html or ".",
                    parse_mode=ParseMode.HTML,
                    reply_markup=part.markup,
                    link_preview_options=LinkPreviewOptions(is_disabled=True),
                )
            sent.append({"id": message.message_id, **fingerprint(part)})
        return sent

    async def _edit(self, chat: int, old: dict[str, Any], part: Part) -> dict[str, Any]:
        """Edit one message to show ``part``, touching only what changed."""
        new = {"id": old["id"], **fingerprint(part)}
        if new == old:
            return old
        bot = self.app.bot
        try:
            if part.kind == "text":
                await bot.edit_message_text(
                    part.html or ".",
                    chat_id=chat,
                    message_id=old["id"],
                    parse_mode=ParseMode.HTML,
                    reply_markup=part.markup,
                    link_preview_options=LinkPreviewOptions(is_disabled=True),
                )
            elif part.image is not None and new["image"] != old["image"]:
                # Raw bytes: PTB uploads them as a file part and points the InputMedia's
                # ``media`` at it with attach://; an InputFile without attach=True would leave
                # ``media`` out, which the Bot API refuses ("media not found").
                kind = InputMediaAnimation if is_animation(part.image) else InputMediaPhoto
                media = kind(
                    part.image.png,
                    filename=part.image.filename,
                    caption=part.html,
                    parse_mode=ParseMode.HTML if part.html else None,
                )
                await bot.edit_message_media(
                    media, chat_id=chat, message_id=old["id"], reply_markup=part.markup
                )
            elif new["html"] != old["html"]:
                await bot.edit_message_caption(
                    chat_id=chat,
                    message_id=old["id"],
                    caption=part.html,
                    parse_mode=ParseMode.HTML if part.html else None,
                    reply_markup=part.markup,
                )
            else:
                await bot.edit_message_reply_markup(
                    chat_id=chat, message_id=old["id"], reply_markup=part.markup
                )
        except BadRequest as error:
            if "not modified" not in error.message.lower():
                raise
        return new


def is_animation(image: Image) -> bool:
    """A GIF goes out as an animation (a photo would show only its first frame)."""
    return image.filename.lower().endswith(".gif") or image.png[:6] in (b"GIF87a", b"GIF89a")


def fingerprint(part: Part) -> dict[str, Any]:
    """What a sent message shows, in short, to tell whether an edit is needed."""

    def digest(data: bytes) -> str:
        return hashlib.sha1(data, usedforsecurity=False).hexdigest()[:16]

    markup = json.dumps(part.markup.to_dict(), sort_keys=True) if part.markup else ""
    return {
        "kind": part.kind,
        "image": digest(part.image.png) if part.image is not None else None,
        "html": digest((part.html or "").encode()),
        "markup": digest(markup.encode()),
    }


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
