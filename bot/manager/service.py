"""The game manager's front door: ``handle`` (parsing, locks, errors, dispatch), outboxes
and the repositories it holds."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from typing import Any

from bot.api import BoardState, ChannelRef, Outbox, PlayerRef, Reply
from bot.commands import (
    BadNumber,
    Command,
    CommandError,
    check_numbers,
    parse_command,
    shorten,
)
from bot.i18n import LANGUAGES, say, t
from bot.logs import log_internal
from bot.manager.board import Boards
from bot.manager.languages import LanguageRoom
from bot.manager.lobby import LobbyRoom
from bot.manager.outbox import OutboxRoom
from bot.manager.state import (
    MAX_COMMAND,
    MAX_PENDING,
    SETTING_VERBS,
    TURN_BOUND,
    LiveTable,
    ServerChannels,
    _short_quotes,
    log,
)
from bot.manager.store import StoreRoom
from bot.manager.turns import TurnRoom
from bot.manager.views import ViewRoom
from bot.presenter import Presenter
from bot.scheduler import AsyncioScheduler, Scheduler
from engine import Rules, RummikubError
from engine.actions import DRAFT_VERBS
from engine.messages import Msg
from engine.tiles import Edition
from storage import (
    ClaimRepository,
    ConflictError,
    Database,
    GameRepository,
    LobbyRepository,
    MatchRepository,
    OutboxEntry,
    PlayerLanguage,
    PlayerLanguageRepository,
    SettingsRepository,
    StatsRepository,
)


class GameManager(LobbyRoom, TurnRoom, ViewRoom, StoreRoom, LanguageRoom, OutboxRoom):
    """Implements ``bot.api.GameService`` for every adapter."""

    def __init__(
        self,
        db: Database,
        *,
        scheduler: Scheduler | None = None,
        presenter: Presenter | None = None,
        default_rules: Rules | None = None,
        rng: random.Random | None = None,
        warn_before: float = 15.0,
        default_language: str = "en",
        shared: bool | None = None,
        lease_seconds: float = 30.0,
    ) -> None:
        self.db = db
        self.games = GameRepository(db)
        self.matches = MatchRepository(db)
        self.settings = SettingsRepository(db)
        self.stats = StatsRepository(db)
        self.lobbies = LobbyRepository(db)
        self.claims = ClaimRepository(db)
        self.player_languages = PlayerLanguageRepository(db)
        self._player_langs: dict[str, PlayerLanguage] = {}  # player key -> stored languages
        self.scheduler: Scheduler = scheduler or AsyncioScheduler()
        self.presenter = presenter or Presenter()
        self.default_rules = default_rules or Rules()
        self.rng = rng or random.Random()
        self.warn_before = warn_before
        self.default_language = default_language if default_language in LANGUAGES else "en"
        # Several processes on one database (PostgreSQL): timeouts and AI moves are leased so
        # one process acts on each. SQLite is for one process; reminders are claimed anyway.
        self.shared = db.dialect == "postgresql" if shared is None else shared
        self.lease_seconds = lease_seconds
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.internal_errors = 0
        self.tables: dict[str, LiveTable] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._routes: dict[str, Outbox] = {}
        self._broadcast: list[Outbox] = []
        self._pending: list[Reply] = []  # timer and AI replies waiting for an outbox
        self._tasks: set[asyncio.Task[None]] = set()
        self._server_channels: dict[str, ServerChannels] = {}
        self._confirmed: set[str] = set()  # outbox keys delivered, not yet marked so
        self._confirming: asyncio.Task[None] | None = None
        self._pruned_at = 0.0
        self._unsent: list[OutboxEntry] = []  # read at start-up, sent once an outbox is set
        self._handed: dict[str, float] = {}  # shared mode: outbox keys handed out, when
        self._sweeping: asyncio.Task[None] | None = None  # the outbox sweep (shared mode)
        self._closed = False
        self.boards = Boards(
            tables=self.tables,
            lock=self._lock,
            load=self._current,
            channel_language=self._safe_language,
            player_language=self._player_lang,
            now=self.scheduler.now,
            shared=self.shared,
        )

    # ----- service API ---------------------------------------------------------------------

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        """Where replies caused by timers and AI turns go: one outbox per platform (replacing
        an earlier one), or, without a platform, an outbox that sees every such reply."""
        if platform is not None:
            self._routes[platform] = outbox
        elif outbox not in self._broadcast:
            self._broadcast.append(outbox)
        self._start_resend()
        if self._pending:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop yet: the next reply sent flushes nothing, keep them
            task = loop.create_task(self._flush_pending())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def board(self, player: PlayerRef, channel: ChannelRef) -> BoardState:
        """``player``'s board of ``channel`` (``bot.api.GameService.board``)."""
        return await self.boards.read(player, channel)

    def watch(self, channel: ChannelRef) -> AsyncIterator[int]:
        """The channel's change counter, each time it moves (``bot.api.GameService.watch``)."""
        return self.boards.watch(channel.key)

    async def deliver(self, replies: Sequence[Reply]) -> None:
        """Send what a board action caused through the registered outboxes."""
        await self._send(list(replies))

    def has_table(self, channel: ChannelRef) -> bool:
        """Whether ``channel`` has a lobby or a game open in this process's memory."""
        return channel.key in self.tables

    def set_server_channels(self, platform: str, lookup: ServerChannels) -> None:
        """How ``stats`` finds the other channels of a channel's server or group on
        ``platform`` (a Discord adapter lists its guild's text channels). Without one, a
        channel stands alone (a Telegram group is one chat)."""
        self._server_channels[platform] = lookup

    async def _channels_of(self, channel: ChannelRef) -> list[str]:
        lookup = self._server_channels.get(channel.platform)
        ids = [channel.chat_id]
        if lookup is not None:
            ids.extend(str(c) for c in await lookup(channel))
        return list(dict.fromkeys(ids))

    def _lock(self, key: str) -> asyncio.Lock:
        """The channel's lock: every command and timer of a table runs under it, and a reload
        replaces the table but never the lock."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def _internal(self, message: str, *args: object) -> None:
        """Log an exception that reached a catch-all (a bug, never an answer) and count it."""
        self.internal_errors += 1
        log_internal(log, message, *args)

    async def handle(
        self, player: PlayerRef, channel: ChannelRef, text: str, *, admin: bool = False
    ) -> list[Reply]:
        """Run one command and return what to send; never raises for user input."""
        known = self.tables.get(channel.key)
        try:
            await self._know_player(player)  # their client's language, and any they chose
        except Exception:
            self._internal("cannot read or store the language of %s", player.key)
        lang = self._lang_for(known.lang if known is not None else "en", player)
        # The turn this command was meant for: the one in play when it arrived.
        seen = known.turn_key if known is not None and known.game is not None else None
        if len(text) > MAX_COMMAND:
            return [self._tell(channel, player, lang, "too_long", most=MAX_COMMAND)]
        try:
            command = parse_command(text)
            check_numbers(command.args, longest=7 if command.verb in SETTING_VERBS else 4)
        except CommandError as err:
            return [self._note(channel, player, await self._say_error(channel, err, player))]
        except BadNumber as err:
            said = await self._safe_language(channel)
            return [self._tell(channel, player, said, "bad_number", number=shorten(err.text))]
        if command.verb == "replay":  # reads finished games only: no lock, drawn off the loop
            try:
                return await self._replay(channel, player, command.args)
            except Exception:
                self._internal("replay %r failed in %s", shorten(text, 80), channel.key)
                said = await self._safe_language(channel)
                return [self._tell(channel, player, said, "error")]
        async with self._lock(channel.key):  # a failure is undone under the lock too
            try:
                replies = await self._handle_locked(player, channel, command, admin, seen)
                self._hand(replies)  # the adapter delivers them now
                return replies
            except RummikubError as err:
                return [self._note(channel, player, await self._say_error(channel, err, player))]
            except ConflictError:
                await self._reload_quietly(channel)
                said = await self._safe_language(channel)
                return [self._tell(channel, player, said, "busy")]
            except Exception:  # no exception ever reaches a user; the stored game is unchanged
                self._internal("command %r failed in %s", shorten(text, 80), channel.key)
                await self._reload_quietly(channel)
                said = await self._safe_language(channel)
                return [self._tell(channel, player, said, "error")]
            finally:
                self.boards.changed(channel.key)  # an open board reads the channel again

    @staticmethod
    def _turn_over(table: LiveTable, player: PlayerRef, seen: tuple[int | None, int]) -> bool:
        """Whether a command meant for turn ``seen`` arrives when ``player`` is to move in a
        later turn (when it is not their turn, they are told so instead)."""
        if table.game is None or table.game.finished or table.turn_key == seen:
            return False
        seat = table.seat_of(player)
        return seat is not None and seat == table.game.current

    async def _handle_locked(
        self,
        player: PlayerRef,
        channel: ChannelRef,
        command: Command,
        admin: bool,
        seen: tuple[int | None, int] | None,
    ) -> list[Reply]:
        verb, args = command.verb, command.args
        if verb in TURN_BOUND and seen is not None:
            # Derived: the turn in this process's copy when the command arrived. If this
            # process ended it while the command waited (a double click queued behind the
            # first, a timeout), the command must not act on the next turn.
            memory = self.tables.get(channel.key)
            if memory is not None and self._turn_over(memory, player, seen):
                return [self._tell(channel, player, memory.lang, "turn_over")]
        table = await self._current(channel)
        back: list[Reply] = []
        if table is not None and table.phase == "playing":
            away = table.away_seat_of(player)
            if away is not None:  # any command brings an absent player back at once
                back = await self._come_back(table, away, player)
        if verb == "start":
            if table is not None:
                return [*back, self._tell(channel, player, table.lang, "already_running")]
            replies = await self._start(player, channel, args)
            await self._store_lobby(channel, None)
            return replies
        if verb == "rematch" and table is None:
            replies = await self._rematch(player, channel)
            await self._store_lobby(channel, None)
            return replies
        if table is None:
            return await self._without_table(player, channel, verb, args)
        before = self._lobby_data(channel)
        try:
            return [*back, *await self._dispatch(table, player, verb, args, admin)]
        except RummikubError as err:
            if not back:
                raise
            # The come-back is stored (with its outbox): it is told even when the command
            # that brought the player back is refused.
            return [*back, self._note(channel, player, await self._say_error(channel, err, player))]
        finally:
            await self._store_lobby(channel, before)

    async def language(self, channel: ChannelRef) -> str:
        """The language the bot speaks in ``channel`` (read-only): its table's, else the
        channel's stored setting."""
        table = self.tables.get(channel.key)
        if table is not None:
            return table.lang
        return self._language_of(await self.settings.get(channel.platform, channel.chat_id))

    def _language_of(self, settings: Any) -> str:
        """A channel's stored language; the bot's default for a channel that never chose."""
        if settings.version == 0 or settings.language not in LANGUAGES:
            return self.default_language
        return str(settings.language)

    async def _say_error(self, channel: ChannelRef, err: RummikubError, player: PlayerRef) -> str:
        """A rules or input error in the language ``player`` reads privately, quoting at most
        a short piece of what was typed."""
        lang = self._lang_for(await self._safe_language(channel), player)
        message = getattr(err, "msg", None)
        if isinstance(message, Msg):
            return say(lang, _short_quotes(message))
        return say(lang, err)

    async def _safe_language(self, channel: ChannelRef) -> str:
        """The channel's language, or English when even that cannot be read."""
        try:
            return await self.language(channel)
        except Exception:
            self._internal("cannot read the language of %s", channel.key)
            return "en"

    # ----- helpers -------------------------------------------------------------------------

    def _note(self, channel: ChannelRef, player: PlayerRef, text: str) -> Reply:
        """A short private answer to one person (errors, confirmations), already in their
        language."""
        return Reply(channel, text, private_to=player)

    def _tell(
        self, channel: ChannelRef, player: PlayerRef, lang: str, message: str, **values: Any
    ) -> Reply:
        """The private note ``message`` in the language ``player`` reads (``lang`` is the
        channel's, used when theirs is not known)."""
        return Reply(channel, t(self._lang_for(lang, player), message, **values), private_to=player)

    def _public(self, table: LiveTable, text: str, **kw: Any) -> Reply:
        return Reply(table.channel, text, **kw)

    async def _send(self, replies: Sequence[Reply]) -> None:
        """Hand replies of timers and AI turns to their platform's outbox. Before any outbox is
        registered (an AI move that was due at start-up runs at once, while the adapters are
        still connecting) they are kept, and sent when one registers."""
        self._hand(replies)
        # An outbox with ``many`` (bot.api.BatchOutbox) takes its platform's replies at once.
        single: list[Reply] = []
        for platform in dict.fromkeys(r.channel.platform for r in replies):
            batch = [r for r in replies if r.channel.platform == platform]
            many = getattr(self._routes.get(platform), "many", None)
            if many is None:
                single.extend(batch)
                continue
            try:
                await many(batch)
            except Exception:  # an adapter failure must not stop the game
                log.exception("outbox failed for %s replies", platform)
        replies = single
        for reply in replies:
            route = self._routes.get(reply.channel.platform)
            outboxes = [route] if route is not None else self._broadcast
            if not outboxes:
                if len(self._pending) < MAX_PENDING:
                    self._pending.append(reply)
                else:
                    log.warning("no outbox for %s; a reply was dropped", reply.channel.key)
                continue
            for outbox in outboxes:
                try:
                    await outbox(reply)
                except Exception:  # an adapter failure must not stop the game
                    log.exception("outbox failed for %s", reply.channel.key)

    async def _flush_pending(self) -> None:
        """Send the kept replies that now have an outbox, in order."""
        kept, self._pending = self._pending, []
        await self._send(kept)

    async def _without_table(
        self, player: PlayerRef, channel: ChannelRef, verb: str, args: str
    ) -> list[Reply]:
        settings = await self.settings.get(channel.platform, channel.chat_id)
        if verb == "language":
            return [await self._language(None, channel, player, args)]
        lang = self._lang_for(self._language_of(settings), player)  # every answer is private
        if verb == "help":
            return [self._note(channel, player, self._help(lang, args))]
        if verb == "rules":
            rules = self._rules_from_settings(settings)
            return [self._note(channel, player, self._rules_text(lang, rules))]
        if verb == "leaderboard":
            return [self._note(channel, player, await self._leaderboard(channel, lang))]
        if verb == "history":
            return [self._note(channel, player, await self._history(channel, lang))]
        if verb == "stats":
            return [await self._stats(channel, player, args, lang)]
        return [self._tell(channel, player, lang, "no_game")]

    def _rules_from_settings(self, settings: Any) -> Rules:
        """The channel's stored choices; a channel that never chose gets the bot's defaults."""
        rules = self.default_rules
        if settings.version == 0:
            return rules
        return replace(
            rules,
            opening_threshold=settings.opening_threshold,
            turn_seconds=settings.turn_seconds,
            edition=Edition(settings.edition),
            hints=settings.hints,
            match_games=settings.match_games,
        )

    @staticmethod
    def _rules_fields(rules: Rules) -> dict[str, Any]:
        return {
            "opening_threshold": rules.opening_threshold,
            "turn_seconds": rules.turn_seconds,
            "edition": rules.edition.value,
            "hints": rules.hints,
            "match_games": rules.match_games,
            "async_mode": rules.turn_seconds >= 3600,
        }

    # ----- dispatch ------------------------------------------------------------------------

    async def _dispatch(
        self, table: LiveTable, player: PlayerRef, verb: str, args: str, admin: bool
    ) -> list[Reply]:
        if verb in ("join", "leave", "addbot", "kick", "settings", "cancel", "deal"):
            handler = getattr(self, f"_{verb}")
            result: list[Reply] = await handler(table, player, args, admin)
            return result
        lang = self._lang_for(table.lang, player)  # for the private answers below
        if verb == "help":
            return [self._note(table.channel, player, self._help(lang, args))]
        if verb == "rules":
            return [self._note(table.channel, player, self._rules_text(lang, table.rules))]
        if verb == "leaderboard":
            return [self._note(table.channel, player, await self._leaderboard(table.channel, lang))]
        if verb == "history":
            return [self._note(table.channel, player, await self._history(table.channel, lang))]
        if verb == "language":
            return [await self._language(table, table.channel, player, args)]
        if verb == "stats":
            return [await self._stats(table.channel, player, args, lang)]
        if verb == "rematch":
            if table.phase != "lobby":
                return [self._tell(table.channel, player, lang, "already_running")]
            return await self._join(table, player, args, admin)
        if table.phase == "lobby":
            if verb in ("status", "table"):
                return [self._lobby_reply(table)]
            return [self._tell(table.channel, player, lang, "playing_only")]
        if verb == "status":
            return [self._note(table.channel, player, self._status_text(table, lang))]
        if verb == "table":
            return [await self._table_reply(table)]
        if verb == "score":
            return [self._note(table.channel, player, self._standings_text(table, lang))]
        seat = table.seat_of(player)
        if seat is None:
            return [self._tell(table.channel, player, lang, "not_seated")]
        if verb == "rack":
            if args.strip():
                self._set_sort(table, player, args)
            return [await self._rack_reply(table, seat)]
        if verb == "sort":
            self._set_sort(table, player, args)
            return [await self._rack_reply(table, seat)]
        assert table.game is not None
        if seat != table.game.current:
            current = self.seats_name(table, table.game.current)
            return [self._tell(table.channel, player, lang, "not_your_turn", name=current)]
        if verb == "hint":
            return [await self._hint(table, seat, player)]
        if verb == "panel":
            return [await self._panel_reply(table, seat)]
        if verb in ("draw", "done"):
            return await self._finish_turn(table, verb)
        if verb == "pick":
            return [await self._pick(table, seat, args)]
        if verb == "target":
            return [await self._target(table, seat, args)]
        if verb == "place":
            if not table.selection:
                return [self._tell(table.channel, player, lang, "nothing_selected")]
            target = f" to {table.target}" if table.target else ""
            text = f"play {' '.join(table.selection)}{target}"
            table.selection = []
            return await self._draft_step(table, seat, text)
        if verb in DRAFT_VERBS:
            return await self._draft_step(table, seat, f"{verb} {args}".strip())
        return [self._note(table.channel, player, self._help(lang, ""))]  # pragma: no cover

    def seats_name(self, table: LiveTable, seat: int) -> str:
        return table.seats[seat].name
