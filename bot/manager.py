"""The game manager: the one owner of live games, with no platform in it.

Per channel at most one table (lobby, then a match of games). Every command runs under the
table's ``asyncio.Lock``, so double clicks and simultaneous commands take turns. Turn timers
live in a ``Scheduler``; deadlines are stored, and re-armed with the remaining time after a
restart. A committed turn is saved (its transaction committed) before any reply announces it.
Replies are neutral data (``bot.api.Reply``); a rack only ever goes privately to its owner.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import socket
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from bot.api import Button, ChannelRef, Image, Outbox, PlayerRef, Reply, Select, SelectOption
from bot.commands import (
    KNOWN_VERBS,
    BadNumber,
    Command,
    CommandError,
    check_numbers,
    parse_command,
    parse_number,
    shorten,
    usage,
)
from bot.i18n import LANGUAGES, duration, say, t, translator
from bot.presenter import Presenter
from bot.scheduler import AsyncioScheduler, Scheduler
from engine import Draft, Game, Match, Rules, RummikubError, TurnOutcome
from engine.actions import DRAFT_VERBS
from engine.ai import AI_LEVELS, choose_move
from engine.draft import NOTHING_TO_UNDO
from engine.hints import hint_text
from engine.messages import Msg
from engine.scoring import EndReason
from engine.tiles import Edition, sort_tiles, tiles_text
from storage import (
    ClaimRepository,
    ConflictError,
    Database,
    GameRepository,
    LobbyRepository,
    MatchRepository,
    Seat,
    SettingsRepository,
    StatsRepository,
)

log = logging.getLogger(__name__)

DEFAULT_AI = "medium"
MAX_PENDING = 1000
MAX_COMMAND = 2000  # characters; a whole table typed out in one arrange is about 600
SETTING_VERBS = ("start", "settings")  # a timer may be up to a week of seconds
TURN_BOUND = frozenset(
    ("draw", "done", "play", "move", "split", "swap", "arrange", "auto", "undo", "reset", "pick")
) | {"target", "place"}


AWAY_AUTO_HOURS = 3600  # timers of an hour or more: absent players are on by default
AWAY_AUTO = 3  # turns in a row that ran out before an AI plays an absent player's seat
AWAY_MOST = 99


@dataclass
class SeatInfo:
    """Who plays a seat. ``owner`` is the person whose seat it is in the match roster when an
    AI plays it for them (``why``: "left", "kicked", or "away" until they send a command);
    scores stay with the owner. ``missed`` counts the person's turns in a row that ran out."""

    player: PlayerRef | None
    ai: str | None
    name: str
    owner: PlayerRef | None = None
    why: str | None = None
    missed: int = 0
    waiting: bool = False  # a rematch lobby: this person has not confirmed yet

    def stored(self, index: int) -> Seat:
        if self.player is not None:
            player_id = self.player.user_id
        elif self.owner is not None:
            player_id = self.owner.user_id
        else:
            player_id = f"ai-{index}"
        return Seat(
            player_id=player_id, name=self.name, ai=self.ai, why=self.why, missed=self.missed
        )


@dataclass
class LiveTable:
    """A channel's table: the lobby, then the match and its current game.

    Everything here but the panel's selection and target and the rack sort order is rebuilt
    exactly from storage (``describe`` shows what must match)."""

    channel: ChannelRef
    host: PlayerRef
    rules: Rules
    lang: str = "en"
    seats: list[SeatInfo] = field(default_factory=list)
    phase: str = "lobby"  # lobby | playing
    game: Game | None = None
    draft: Draft | None = None
    match: Match | None = None
    match_id: int | None = None
    game_id: int | None = None
    version: int = 0
    saved_actions: int = 0
    deadline: float | None = None
    selection: list[str] = field(default_factory=list)
    target: int | None = None
    sort_by: dict[str, str] = field(default_factory=dict)
    away_after: int | None = None  # None: automatic (on for long timers); 0: off

    @property
    def away_limit(self) -> int:
        """Turns in a row that may run out before an AI plays the seat (0: never)."""
        return away_limit(self.rules, self.away_after)

    def away_seat_of(self, player: PlayerRef) -> int | None:
        """The seat an AI plays while ``player`` is away, if any."""
        for index, seat in enumerate(self.seats):
            if seat.why == "away" and seat.owner is not None and seat.owner.same_person(player):
                return index
        return None

    def seat_of(self, player: PlayerRef) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player is not None and seat.player.same_person(player):
                return index
        return None

    @property
    def current_seat(self) -> SeatInfo | None:
        if self.game is None or self.game.finished:
            return None
        return self.seats[self.game.current]

    @property
    def ai_due(self) -> bool:
        """An AI seat is to move: a job that is due now (a restart runs it)."""
        seat = self.current_seat
        return seat is not None and seat.ai is not None

    @property
    def turn_key(self) -> tuple[int | None, int]:
        """Which turn of which game is being played (what a command or timer was meant for)."""
        return (self.game_id, self.game.turn if self.game is not None else 0)


def describe(table: LiveTable | None) -> dict[str, Any] | None:
    """Everything about a table that storage must bring back, as comparable plain data:
    seats (who is human, who is AI and why), host, rules, language, the whole position (table,
    racks, pool, current player, turn), the draft, the match roster and results, the deadline
    (to the millisecond) and whether an AI move is due."""
    if table is None:
        return None
    game = table.game
    match = table.match
    return {
        "channel": table.channel.key,
        "phase": table.phase,
        "host": table.host.user_id,
        "rules": table.rules.to_text(),
        "lang": table.lang,
        "seats": [
            (
                s.player.user_id if s.player else None,
                s.ai,
                s.name,
                s.owner.user_id if s.owner else None,
                s.why,
                s.missed,
                s.waiting,
            )
            for s in table.seats
        ],
        "away_after": table.away_after,
        "game_id": table.game_id,
        "version": table.version,
        "position": game.to_text() if game is not None else None,
        "log": list(game.log) if game is not None else None,
        "draft": list(table.draft.steps) if table.draft is not None else [],
        "match_id": table.match_id,
        "match": (
            None
            if match is None
            else (
                match.games,
                [(r.winner, tuple(r.scores)) for r in match.results],
            )
        ),
        "deadline": None if table.deadline is None else round(table.deadline, 3),
        "ai_due": table.ai_due,
    }


class GameManager:
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

    # ----- service API ---------------------------------------------------------------------

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        """Where replies caused by timers and AI turns go: one outbox per platform (replacing
        an earlier one), or, without a platform, an outbox that sees every such reply."""
        if platform is not None:
            self._routes[platform] = outbox
        elif outbox not in self._broadcast:
            self._broadcast.append(outbox)
        if self._pending:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop yet: the next reply sent flushes nothing, keep them
            task = loop.create_task(self._flush_pending())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

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
        log.error(message, *args, exc_info=True, extra={"internal_error": True})

    async def handle(
        self, player: PlayerRef, channel: ChannelRef, text: str, *, admin: bool = False
    ) -> list[Reply]:
        """Run one command and return what to send; never raises for user input."""
        known = self.tables.get(channel.key)
        lang = known.lang if known is not None else "en"
        # The turn this command was meant for: the one in play when it arrived.
        seen = known.turn_key if known is not None and known.game is not None else None
        if len(text) > MAX_COMMAND:
            return [self._note(channel, player, t(lang, "too_long", most=MAX_COMMAND))]
        try:
            command = parse_command(text)
            check_numbers(command.args, longest=7 if command.verb in SETTING_VERBS else 4)
        except CommandError as err:
            return [self._note(channel, player, await self._say_error(channel, err))]
        except BadNumber as err:
            said = await self._safe_language(channel)
            return [self._note(channel, player, t(said, "bad_number", number=shorten(err.text)))]
        if command.verb == "replay":  # reads finished games only: no lock, drawn off the loop
            try:
                return await self._replay(channel, player, command.args)
            except Exception:
                self._internal("replay %r failed in %s", shorten(text, 80), channel.key)
                said = await self._safe_language(channel)
                return [self._note(channel, player, t(said, "error"))]
        async with self._lock(channel.key):  # a failure is undone under the lock too
            try:
                return await self._handle_locked(player, channel, command, admin, seen)
            except RummikubError as err:
                return [self._note(channel, player, await self._say_error(channel, err))]
            except ConflictError:
                await self._reload_quietly(channel)
                said = await self._safe_language(channel)
                return [self._note(channel, player, t(said, "busy"))]
            except Exception:  # no exception ever reaches a user; the stored game is unchanged
                self._internal("command %r failed in %s", shorten(text, 80), channel.key)
                await self._reload_quietly(channel)
                said = await self._safe_language(channel)
                return [self._note(channel, player, t(said, "error"))]

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
                return [self._note(channel, player, t(memory.lang, "turn_over"))]
        table = await self._current(channel)
        back: list[Reply] = []
        if table is not None and table.phase == "playing":
            away = table.away_seat_of(player)
            if away is not None:  # any command brings an absent player back at once
                back = await self._come_back(table, away, player)
        if verb == "start":
            if table is not None:
                return [*back, self._note(channel, player, t(table.lang, "already_running"))]
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

    async def _say_error(self, channel: ChannelRef, err: RummikubError) -> str:
        """A rules or input error in the channel's language, quoting at most a short piece of
        what was typed."""
        message = getattr(err, "msg", None)
        if isinstance(message, Msg):
            return say(await self._safe_language(channel), _short_quotes(message))
        return say(await self._safe_language(channel), err)

    async def _safe_language(self, channel: ChannelRef) -> str:
        """The channel's language, or English when even that cannot be read."""
        try:
            return await self.language(channel)
        except Exception:
            self._internal("cannot read the language of %s", channel.key)
            return "en"

    async def resume(self) -> int:
        """Load every unfinished game from storage and re-arm its timer, and reopen every
        stored lobby. Returns the count of games and lobbies."""
        if not self.shared:
            log.info(
                "deadline leases are off (%s): run one bot process on this database",
                self.db.dialect,
            )
        stored = await self.games.list_active(with_actions=True)
        for record in stored:
            try:
                table = await self._table_from_record(record)
            except Exception:
                self._internal("cannot resume game %s", record.id)
                continue
            self.tables[table.channel.key] = table
            self._arm_timers(table)
        return len(stored) + await self._resume_lobbies()

    async def _resume_lobbies(self) -> int:
        """Reopen every stored lobby whose channel has no game; forget the stale ones."""
        count = 0
        for platform, chat_id, data in await self.lobbies.list_all():
            channel = ChannelRef(platform, chat_id)
            if channel.key in self.tables:
                await self.lobbies.delete(platform, chat_id)
                continue
            try:
                self.tables[channel.key] = self._lobby_from_data(channel, data)
                count += 1
            except Exception:
                self._internal("cannot reopen the lobby of %s", channel.key)
        return count

    def _lobby_data(self, channel: ChannelRef) -> dict[str, Any] | None:
        """The channel's lobby as stored data, or None when it has no table in its lobby."""
        table = self.tables.get(channel.key)
        if table is None or table.phase != "lobby":
            return None
        return {
            "host": {"user_id": table.host.user_id, "name": table.host.display_name},
            "rules": table.rules.to_text(),
            "lang": table.lang,
            "away_after": table.away_after,
            "seats": [
                {
                    "user_id": seat.player.user_id if seat.player else None,
                    "name": seat.name,
                    "ai": seat.ai,
                    "waiting": seat.waiting,
                }
                for seat in table.seats
            ],
        }

    @staticmethod
    def _lobby_from_data(channel: ChannelRef, data: dict[str, Any]) -> LiveTable:
        host = PlayerRef(channel.platform, data["host"]["user_id"], data["host"]["name"])
        table = LiveTable(channel, host, Rules.from_text(data["rules"]), lang=data["lang"])
        table.away_after = data.get("away_after")
        for seat in data["seats"]:
            player = (
                None
                if seat["user_id"] is None
                else PlayerRef(channel.platform, seat["user_id"], seat["name"])
            )
            table.seats.append(
                SeatInfo(player, seat["ai"], seat["name"], waiting=bool(seat.get("waiting")))
            )
        return table

    async def _store_lobby(self, channel: ChannelRef, before: dict[str, Any] | None) -> None:
        """Save the channel's lobby when a command changed it (delete it once dealt or
        cancelled). A lobby is cheap to open again, so a storage failure is only logged."""
        after = self._lobby_data(channel)
        if after == before:
            return
        try:
            if after is None:
                await self.lobbies.delete(channel.platform, channel.chat_id)
            else:
                await self.lobbies.save(channel.platform, channel.chat_id, after)
        except Exception:
            self._internal("cannot store the lobby of %s", channel.key)

    async def close(self) -> None:
        for table in self.tables.values():
            self._cancel_timers(table)

    # ----- helpers -------------------------------------------------------------------------

    def _note(self, channel: ChannelRef, player: PlayerRef, text: str) -> Reply:
        """A short private answer to one person (errors, confirmations)."""
        return Reply(channel, text, private_to=player)

    def _public(self, table: LiveTable, text: str, **kw: Any) -> Reply:
        return Reply(table.channel, text, **kw)

    async def _send(self, replies: Sequence[Reply]) -> None:
        """Hand replies of timers and AI turns to their platform's outbox. Before any outbox is
        registered (an AI move that was due at start-up runs at once, while the adapters are
        still connecting) they are kept, and sent when one registers."""
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
        lang = self._language_of(settings)
        if verb == "help":
            return [self._note(channel, player, self._help(lang, args))]
        if verb == "rules":
            rules = self._rules_from_settings(settings)
            return [self._note(channel, player, self._rules_text(lang, rules))]
        if verb == "leaderboard":
            return [self._note(channel, player, await self._leaderboard(channel, lang))]
        if verb == "history":
            return [self._note(channel, player, await self._history(channel, lang))]
        if verb == "language":
            return [await self._language(None, channel, player, args)]
        if verb == "stats":
            return [self._note(channel, player, await self._stats(channel, player, args, lang))]
        return [self._note(channel, player, t(lang, "no_game"))]

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
        lang = table.lang
        if verb in ("join", "leave", "addbot", "kick", "settings", "cancel", "deal"):
            handler = getattr(self, f"_{verb}")
            result: list[Reply] = await handler(table, player, args, admin)
            return result
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
            text = await self._stats(table.channel, player, args, lang)
            return [self._note(table.channel, player, text)]
        if verb == "rematch":
            if table.phase != "lobby":
                return [self._note(table.channel, player, t(lang, "already_running"))]
            return await self._join(table, player, args, admin)
        if table.phase == "lobby":
            if verb in ("status", "table"):
                return [self._lobby_reply(table)]
            return [self._note(table.channel, player, t(lang, "playing_only"))]
        if verb == "status":
            return [self._note(table.channel, player, self._status_text(table))]
        if verb == "table":
            return [await self._table_reply(table)]
        if verb == "score":
            return [self._note(table.channel, player, self._standings_text(table))]
        seat = table.seat_of(player)
        if seat is None:
            return [self._note(table.channel, player, t(lang, "not_seated"))]
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
            return [self._note(table.channel, player, t(lang, "not_your_turn", name=current))]
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
                return [self._note(table.channel, player, t(lang, "nothing_selected"))]
            target = f" to {table.target}" if table.target else ""
            text = f"play {' '.join(table.selection)}{target}"
            table.selection = []
            return await self._draft_step(table, seat, text)
        if verb in DRAFT_VERBS:
            return await self._draft_step(table, seat, f"{verb} {args}".strip())
        return [self._note(table.channel, player, self._help(lang, ""))]  # pragma: no cover

    def seats_name(self, table: LiveTable, seat: int) -> str:
        return table.seats[seat].name

    # ----- lobby ---------------------------------------------------------------------------

    async def _start(self, player: PlayerRef, channel: ChannelRef, args: str) -> list[Reply]:
        """Open a lobby (the caller holds the channel's lock and found no table)."""
        settings = await self.settings.get(channel.platform, channel.chat_id)
        rules = self._rules_from_settings(settings)
        lang = self._language_of(settings)
        away_after: int | None = None
        for part in args.split():
            key, _, value = part.partition("=")
            if key.lower() in AWAY_KEYS:
                valid, away_after = parse_away(value)
                if not valid:
                    return [self._note(channel, player, t(lang, "bad_away", most=AWAY_MOST))]
                continue
            rules = rules.with_setting(key, value)
        table = LiveTable(channel, player, rules, lang=lang, away_after=away_after)
        table.seats.append(SeatInfo(player, None, player.display_name or player.user_id))
        self.tables[channel.key] = table
        lang = table.lang
        reply = self._lobby_reply(
            table, t(lang, "lobby_open", host=table.seats[0].name, seats=self._seats_text(table))
        )
        return [reply]

    def _seats_text(self, table: LiveTable) -> str:
        parts = []
        for i, seat in enumerate(table.seats, start=1):
            mark = " " + t(table.lang, "seat_waiting") if seat.waiting else ""
            parts.append(f"{i}. {seat.name}{mark}")
        return ", ".join(parts)

    def _lobby_reply(self, table: LiveTable, text: str | None = None) -> Reply:
        lang = table.lang
        state = t(
            lang,
            "lobby_state",
            seats=self._seats_text(table),
            settings=self._settings_text(table.rules, lang, table.away_after),
        )
        # What just happened ("Bob joined") goes above the seat list, which the lobby message
        # always keeps (it is edited in place, so it must stay whole).
        body = (
            state if not text else text if self._seats_text(table) in text else text + "\n" + state
        )
        buttons = (
            (
                Button(t(lang, "button_join"), "join", "success"),
                Button(t(lang, "button_leave"), "leave", "secondary"),
                Button(t(lang, "button_add_ai"), "addbot", "primary"),
                Button(t(lang, "button_deal"), "deal", "success"),
            ),
        )
        return self._public(table, body, buttons=buttons, slot="lobby")

    def _settings_text(self, rules: Rules, lang: str, away_after: int | None = None) -> str:
        games = rules.match_games if rules.match_games is not None else t(lang, "games_players")
        away = away_limit(rules, away_after)
        return t(
            lang,
            "settings_line",
            edition=rules.edition.value,
            threshold=rules.opening_threshold,
            timer=duration(rules.turn_seconds),
            games=games,
            hints=t(lang, "setting_on" if rules.hints else "setting_off"),
            away=away if away else t(lang, "setting_off"),
        )

    def _is_host(self, table: LiveTable, player: PlayerRef, admin: bool) -> bool:
        return admin or table.host.same_person(player)

    async def _join(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        if table.phase != "lobby":
            return [self._note(table.channel, player, t(lang, "lobby_only"))]
        seat = table.seat_of(player)
        if seat is not None and table.seats[seat].waiting:
            table.seats[seat].waiting = False
            name = table.seats[seat].name
            return await self._deal_if_ready(table, t(lang, "rematch_yes", name=name))
        if seat is not None:
            return [self._note(table.channel, player, t(lang, "already_seated"))]
        limit = table.rules.edition.max_players
        if len(table.seats) >= limit:
            return [self._note(table.channel, player, t(lang, "table_full", max=limit))]
        name = player.display_name or player.user_id
        table.seats.append(SeatInfo(player, None, name))
        return [self._lobby_reply(table, t(lang, "joined", name=name, count=len(table.seats)))]

    async def _leave(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        seat = table.seat_of(player)
        if seat is None:
            return [self._note(table.channel, player, t(lang, "not_seated"))]
        rematch = table.phase == "lobby" and any(s.waiting for s in table.seats)
        text = t(lang, "left", name=table.seats[seat].name)
        replies = await self._remove_seat(table, seat, text)
        if rematch and self.tables.get(table.channel.key) is table:
            return await self._deal_if_ready(table, text)  # the others all said yes
        return replies

    async def _rematch(self, player: PlayerRef, channel: ChannelRef) -> list[Reply]:
        """After a match: a lobby with the same seats (AI seats included) and settings as its
        last game. The presser is in; it deals once every other person confirmed (Rematch or
        Join), or when the host deals. A seat whose person left or was kicked is not dealt."""
        settings = await self.settings.get(channel.platform, channel.chat_id)
        lang = self._language_of(settings)
        last = await self.games.history(channel.platform, channel.chat_id, limit=1)
        if not last or last[0].status != "finished" or last[0].match_id is None:
            return [self._note(channel, player, t(lang, "no_rematch"))]
        game = last[0]
        setup = json.loads(game.setup)
        lang = setup.get("lang", lang)
        people = [s.player_id for s in game.seats if s.counts_for_person]
        if player.user_id not in people:
            return [self._note(channel, player, t(lang, "rematch_players_only"))]
        seats = []
        for s in game.seats:
            if s.counts_for_person:
                person = PlayerRef(channel.platform, s.player_id, s.name)
                seats.append(SeatInfo(person, None, s.name, waiting=s.player_id != player.user_id))
            elif s.why is None:
                seats.append(SeatInfo(None, s.ai, s.name))
        old_host = setup["host"]["user_id"]
        host = next((s.player for s in seats if s.player and s.player.user_id == old_host), player)
        table = LiveTable(
            channel,
            host,
            Rules.from_text(setup["rules"]),
            lang=lang,
            seats=seats,
            away_after=setup.get("away_after"),
        )
        self.tables[channel.key] = table
        name = player.display_name or player.user_id
        return await self._deal_if_ready(
            table, t(lang, "rematch_open", name=name, seats=self._seats_text(table))
        )

    async def _deal_if_ready(self, table: LiveTable, text: str) -> list[Reply]:
        """The lobby reply, or, when nobody is left to confirm a rematch, the deal."""
        waiting = [s.name for s in table.seats if s.waiting]
        if waiting or len(table.seats) < 2:
            if waiting:
                text += " " + t(table.lang, "rematch_waiting", names=", ".join(waiting))
            return [self._lobby_reply(table, text)]
        return [self._public(table, text), *await self._deal(table, table.host, "", True)]

    async def _remove_seat(
        self, table: LiveTable, seat: int, text: str, why: str = "left"
    ) -> list[Reply]:
        lang = table.lang
        info = table.seats[seat]
        if table.phase == "lobby":
            del table.seats[seat]
            if not any(s.player for s in table.seats):
                self.tables.pop(table.channel.key, None)
                return [self._public(table, text)]
            if info.player is not None and info.player.same_person(table.host):
                table.host = next(s.player for s in table.seats if s.player)
            return [self._lobby_reply(table, text)]
        # In a running game the seat is taken over by an AI so the others can finish; the
        # seat stays its player's in the match roster (their scores stay theirs).
        if info.player is None and info.why == "away" and info.owner is not None:
            info = SeatInfo(info.owner, None, info.name)  # kicked while away: the AI stays
        if info.player is None:
            return [self._public(table, t(lang, "kick_ai", name=info.name))]
        if not any(s.player for i, s in enumerate(table.seats) if i != seat):
            return [
                self._public(table, text),
                *await self._cancel_game(table, info.name),
            ]
        table.seats[seat] = SeatInfo(
            None,
            DEFAULT_AI,
            f"{info.name} (AI)",
            owner=info.owner
            or (info.player and PlayerRef(info.player.platform, info.player.user_id)),
            why=why,
        )
        if info.player is not None and info.player.same_person(table.host):
            table.host = next(s.player for s in table.seats if s.player)
        game = table.game
        assert game is not None and table.game_id is not None
        if game.current == seat:
            table.draft = None
            table.selection, table.target = [], None
            table.deadline = self.scheduler.now()  # the AI's move is due now
        table.version = await self.games.save_turn(
            table.game_id,
            expected_version=table.version,
            snapshot=game.to_text(),
            new_actions=[],
            deadline=_dt(table.deadline) if table.deadline is not None else None,
            draft=table.draft.steps if table.draft is not None else [],
            turn=game.turn,
            seats=[s.stored(i) for i, s in enumerate(table.seats)],
            setup=self._setup_text(table),
        )
        replies = [self._public(table, t(lang, "left_game", name=info.name, level=DEFAULT_AI))]
        if game.current == seat:
            replies.extend(await self._begin_turn(table))
        return replies

    async def _come_back(self, table: LiveTable, seat: int, player: PlayerRef) -> list[Reply]:
        """An absent player sent a command: their seat is theirs again at once (their turn
        starts now with a full timer if the AI had not moved yet, else on their next turn)."""
        game = table.game
        assert game is not None and table.game_id is not None
        info = table.seats[seat]
        table.seats[seat] = SeatInfo(player, None, info.name)
        their_turn = not game.finished and game.current == seat
        if their_turn:
            table.draft = None
            table.selection, table.target = [], None
            table.deadline = self.scheduler.now() + table.rules.turn_seconds
        table.version = await self.games.save_turn(
            table.game_id,
            expected_version=table.version,
            snapshot=game.to_text(),
            new_actions=[],
            deadline=_dt(table.deadline) if table.deadline is not None else None,
            draft=table.draft.steps if table.draft is not None else [],
            turn=game.turn,
            seats=[s.stored(i) for i, s in enumerate(table.seats)],
        )
        replies = [self._public(table, t(table.lang, "back", name=info.name))]
        if their_turn:
            replies.extend(await self._begin_turn(table))
        else:
            replies.append(await self._rack_reply(table, seat))
        return replies

    def _note_missed(self, table: LiveTable, outcome: TurnOutcome) -> Reply | None:
        """Count a person's turn that ran out with nothing played (any other end of their turn
        starts the count again); after ``away_limit`` in a row an AI plays their seat until
        they send a command, unless nobody else at the table would be left to play."""
        info = table.seats[outcome.seat]
        if info.player is None:
            return None
        idle = outcome.timed_out and outcome.kind in ("draw", "pass")
        info.missed = info.missed + 1 if idle else 0
        if table.game is None or table.game.finished:
            return None
        limit = table.away_limit
        others = any(s.player is not None for i, s in enumerate(table.seats) if i != outcome.seat)
        if not idle or not limit or info.missed < limit or not others:
            return None
        table.seats[outcome.seat] = SeatInfo(
            None, DEFAULT_AI, info.name, owner=info.player, why="away", missed=info.missed
        )
        return self._public(table, t(table.lang, "away", name=info.name, count=info.missed))

    async def _addbot(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        if table.phase != "lobby":
            return [self._note(table.channel, player, t(lang, "lobby_only"))]
        if table.seat_of(player) is None and not self._is_host(table, player, admin):
            return [self._note(table.channel, player, t(lang, "not_seated"))]
        level = (args.split() or [DEFAULT_AI])[0].lower()
        if level not in AI_LEVELS:
            return [
                self._note(table.channel, player, t(lang, "bad_level", levels=", ".join(AI_LEVELS)))
            ]
        limit = table.rules.edition.max_players
        if len(table.seats) >= limit:
            return [self._note(table.channel, player, t(lang, "table_full", max=limit))]
        number = sum(1 for s in table.seats if s.ai) + 1
        table.seats.append(SeatInfo(None, level, f"AI {number} ({level})"))
        text = t(lang, "ai_added", level=level, number=len(table.seats))
        return [self._lobby_reply(table, text)]

    async def _kick(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        if not self._is_host(table, player, admin):
            return [self._note(table.channel, player, t(lang, "host_only"))]
        what = args.strip().lstrip("#")
        index = None
        number = parse_number(what)
        if number is not None:
            if 1 <= number <= len(table.seats):
                index = number - 1
        else:
            for i, seat in enumerate(table.seats):
                if what and (
                    seat.name.lower() == what.lower()
                    or (seat.player and seat.player.user_id == what)
                    or (seat.why == "away" and seat.owner and seat.owner.user_id == what)
                ):
                    index = i
        if index is None:
            return [
                self._note(
                    table.channel,
                    player,
                    t(lang, "bad_seat", what=shorten(what) or "?", count=len(table.seats)),
                )
            ]
        name = table.seats[index].name
        return await self._remove_seat(table, index, t(lang, "kicked", name=name), "kicked")

    async def _settings(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        parts = args.replace("=", " ").split()
        if not parts:
            return [
                self._note(
                    table.channel,
                    player,
                    t(
                        lang,
                        "settings",
                        settings=self._settings_text(table.rules, lang, table.away_after),
                    ),
                )
            ]
        if not self._is_host(table, player, admin):
            return [self._note(table.channel, player, t(lang, "host_only"))]
        if table.phase != "lobby":
            return [self._note(table.channel, player, t(lang, "lobby_only"))]
        if len(parts) != 2:
            raise CommandErrorAsRule(usage("settings"))
        key, value = parts
        if key.lower() in AWAY_KEYS:
            valid, away_after = parse_away(value)
            if not valid:
                return [self._note(table.channel, player, t(lang, "bad_away", most=AWAY_MOST))]
            table.away_after = away_after
            name = player.display_name or player.user_id
            return [
                self._lobby_reply(
                    table, t(lang, "setting_changed", name=name, key="away_after", value=value)
                )
            ]
        rules = table.rules.with_setting(key, value)
        table.rules = rules
        await self.settings.update(
            table.channel.platform,
            table.channel.chat_id,
            language=table.lang,
            **self._rules_fields(rules),
        )
        name = player.display_name or player.user_id
        return [
            self._lobby_reply(table, t(lang, "setting_changed", name=name, key=key, value=value))
        ]

    async def _cancel(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        if not self._is_host(table, player, admin):
            return [self._note(table.channel, player, t(lang, "host_only"))]
        return await self._cancel_game(table, player.display_name or player.user_id)

    async def _cancel_game(self, table: LiveTable, by: str) -> list[Reply]:
        self._cancel_timers(table)
        if table.game_id is not None and table.game is not None:
            await self.games.finish(
                table.game_id,
                expected_version=table.version,
                snapshot=table.game.to_text(),
                new_actions=table.game.log[table.saved_actions :],
                status="cancelled",
            )
        if table.match_id is not None:
            match = await self.matches.load(table.match_id)
            if match.active:
                await self.matches.close(table.match_id, expected_version=match.version)
        self.tables.pop(table.channel.key, None)
        return [Reply(table.channel, t(table.lang, "cancelled", name=by), slot="table")]

    async def _language(
        self, table: LiveTable | None, channel: ChannelRef, player: PlayerRef, args: str
    ) -> Reply:
        lang = args.strip().lower()
        if lang not in LANGUAGES:
            said = table.lang if table is not None else await self.language(channel)
            return self._note(channel, player, t(said, "languages", codes=", ".join(LANGUAGES)))
        current = await self.settings.get(channel.platform, channel.chat_id)
        rules = self._rules_from_settings(current)
        await self.settings.update(
            channel.platform, channel.chat_id, language=lang, **self._rules_fields(rules)
        )
        if table is not None:
            table.lang = lang
        return Reply(channel, t(lang, "language_set"))

    async def _deal(
        self, table: LiveTable, player: PlayerRef, args: str, admin: bool
    ) -> list[Reply]:
        lang = table.lang
        if table.phase != "lobby":
            return [self._note(table.channel, player, t(lang, "lobby_only"))]
        if not self._is_host(table, player, admin):
            return [self._note(table.channel, player, t(lang, "host_only"))]
        if len(table.seats) < 2:
            return [self._note(table.channel, player, t(lang, "need_players"))]
        players = len(table.seats)
        games = table.rules.games_for(players)
        stored = await self.matches.create(
            platform=table.channel.platform,
            channel_id=table.channel.chat_id,
            players=[s.stored(i) for i, s in enumerate(table.seats)],
            games_planned=games,
        )
        table.match = Match(players, games)
        table.match_id = stored.id
        table.phase = "playing"
        closed = self._public(
            table,
            t(
                lang,
                "lobby_state",
                seats=self._seats_text(table),
                settings=self._settings_text(table.rules, lang, table.away_after),
            ),
            slot="lobby",
        )  # the lobby message loses its buttons
        return [closed, *await self._new_game(table)]

    # ----- games and turns -----------------------------------------------------------------

    def _setup_text(self, table: LiveTable) -> str:
        return json.dumps(
            {
                "rules": table.rules.to_text(),
                "host": {"user_id": table.host.user_id, "name": table.host.display_name},
                "lang": table.lang,
                "players": len(table.seats),
                "away_after": table.away_after,
            }
        )

    def _next_deadline(self, table: LiveTable) -> float:
        """When the turn now beginning ends: a human's after the turn timer; an AI's move is
        due at once (stored like any deadline, so a restart runs it)."""
        now = self.scheduler.now()
        return now if table.ai_due else now + table.rules.turn_seconds

    async def _new_game(self, table: LiveTable) -> list[Reply]:
        assert table.match is not None
        seed = self.rng.randrange(2**62)
        game = Game.new(len(table.seats), seed, table.rules)
        table.game = game
        table.draft = None
        table.selection, table.target = [], None
        table.saved_actions = 0
        deadline = self._next_deadline(table)
        stored = await self.games.create(
            platform=table.channel.platform,
            channel_id=table.channel.chat_id,
            seats=[s.stored(i) for i, s in enumerate(table.seats)],
            seed=seed,
            setup=self._setup_text(table),
            snapshot=game.to_text(),
            turn=game.turn,
            deadline=_dt(deadline),
            match_id=table.match_id,
            game_index=len(table.match.results),
        )
        table.game_id = stored.id
        table.version = stored.version
        table.deadline = deadline
        lang = table.lang
        starter = table.seats[game.starter].name
        text = t(
            lang, "dealt", number=table.match.game_number, games=table.match.games, starter=starter
        )
        replies = [self._public(table, text)]
        for seat, info in enumerate(table.seats):
            if info.player is not None:
                replies.append(await self._rack_reply(table, seat))
        replies.extend(await self._begin_turn(table))
        return replies

    async def _begin_turn(self, table: LiveTable) -> list[Reply]:
        """Start the turn that is stored as begun: an AI moves now, a human gets the table,
        the call and their panel, and the timers are armed."""
        game = table.game
        assert game is not None
        seat = table.seats[game.current]
        if seat.ai is not None:
            self._cancel_timers(table)
            return await self._run_ai_turns(table)
        self._arm_timers(table)
        replies = [await self._table_reply(table)]
        assert seat.player is not None
        replies.append(
            self._public(
                table,
                t(
                    table.lang,
                    "your_turn",
                    mention=seat.name,
                    time=duration(table.rules.turn_seconds),
                ),
                mentions=(seat.player,),
            )
        )
        replies.append(await self._panel_reply(table, game.current))
        return replies

    def _arm_timers(self, table: LiveTable) -> None:
        """Schedule what the stored game says is next: a due AI move at once, else the
        reminder and the timeout of the human's turn. Each timer knows the turn it is for."""
        self._cancel_timers(table)
        game = table.game
        if game is None or game.finished or table.game_id is None:
            return
        key = table.channel.key
        turn = table.turn_key
        if table.ai_due:
            self.scheduler.schedule_at(
                f"{key}:ai", self.scheduler.now(), lambda: self._on_timer(key, turn, "ai")
            )
            return
        if table.deadline is None:
            return
        seconds = table.rules.turn_seconds
        before = self.warn_before if seconds < 3600 else min(3600.0, seconds / 4)
        warn_at = table.deadline - before
        if warn_at > self.scheduler.now() and seconds > 2 * before:
            self.scheduler.schedule_at(
                f"{key}:warn", warn_at, lambda: self._on_timer(key, turn, "warn")
            )
        self.scheduler.schedule_at(
            f"{key}:expire", table.deadline, lambda: self._on_timer(key, turn, "expire")
        )

    def _cancel_timers(self, table: LiveTable) -> None:
        for kind in ("warn", "expire", "ai"):
            self.scheduler.cancel(f"{table.channel.key}:{kind}")

    async def _on_timer(self, key: str, turn: tuple[int | None, int], kind: str) -> None:
        """Run a timer's job if its turn is still the one being played (checked against
        storage, so a process never acts on a stale copy), then send what it says. No
        exception escapes: a failure is logged, counted, and the stored game reloaded."""
        replies: list[Reply] = []
        async with self._lock(key):
            table = self.tables.get(key)
            if table is None:
                return
            channel = table.channel
            try:
                current = await self._fresh(table)
                if current is None or current.game is None or current.game.finished:
                    return
                if current.turn_key != turn:
                    return  # that turn is over (the fresh copy armed its own timers)
                if kind == "ai" and not current.ai_due:
                    return
                if kind != "ai" and not await self._claim(current, kind):
                    return  # another process acts on it (_run_ai_turns claims AI moves)
                if kind == "warn":
                    replies = self._warning(current)
                elif kind == "expire":
                    replies = await self._time_out(current)
                else:
                    replies = await self._run_ai_turns(current)
            except ConflictError:
                await self._reload_quietly(channel)
                return
            except Exception:
                self._internal("the %s timer of %s failed", kind, key)
                await self._reload_quietly(channel)
                return
        await self._send(replies)

    async def _claim(self, table: LiveTable, kind: str) -> bool:
        """Whether this process acts on the table's current deadline of ``kind``. Reminders
        are claimed for good (sent at most once, by one process). In shared mode timeouts and
        AI moves are leased; a process that loses checks again when the lease runs out."""
        if kind != "warn" and not self.shared:
            return True
        game_id, turn = table.turn_key
        assert game_id is not None
        now = self.scheduler.now()
        until = None if kind == "warn" else _dt(now + self.lease_seconds)
        won = await self.claims.claim(
            game_id, turn, kind, owner=self.owner, now=_dt(now), until=until
        )
        if won is True:
            return True
        if isinstance(won, datetime):  # someone else holds a lease: look again after it
            key, turn_key = table.channel.key, table.turn_key
            self.scheduler.schedule_at(
                f"{key}:{kind}",
                won.timestamp() + 0.5,
                lambda: self._on_timer(key, turn_key, kind),
            )
        return False

    def _warning(self, table: LiveTable) -> list[Reply]:
        assert table.game is not None
        seat = table.seats[table.game.current]
        if seat.player is None or table.deadline is None:
            return []
        left = duration(table.deadline - self.scheduler.now())
        text = t(table.lang, "warning", mention=seat.name, time=left)
        return [
            Reply(table.channel, text, private_to=seat.player),
            self._public(table, text, mentions=(seat.player,)),
        ]

    async def _time_out(self, table: LiveTable) -> list[Reply]:
        assert table.game is not None
        outcome = table.game.timeout(table.draft)
        return await self._after_turn(table, outcome)

    async def _finish_turn(self, table: LiveTable, verb: str) -> list[Reply]:
        game = table.game
        assert game is not None
        draft = table.draft
        if verb == "done" and draft is not None and draft.changed:
            outcome = game.commit(draft)  # raises with the first problem; nothing changes
        else:
            outcome = game.draw()
        return await self._after_turn(table, outcome)

    async def _after_turn(self, table: LiveTable, outcome: TurnOutcome) -> list[Reply]:
        """Persist the finished turn (with the next deadline, or the result), then announce it
        and start the next turn. A failure to store leaves memory ahead of storage; the
        caller's catch-all reloads the stored game."""
        game = table.game
        assert game is not None and table.game_id is not None
        self._cancel_timers(table)
        table.draft = None
        table.selection, table.target = [], None
        new_actions = game.log[table.saved_actions :]
        seats_before = [s.stored(i) for i, s in enumerate(table.seats)]
        away = self._note_missed(table, outcome)
        seats_now = [s.stored(i) for i, s in enumerate(table.seats)]
        if game.finished:
            assert game.result is not None
            result = game.result
            table.version = await self.games.finish(
                table.game_id,
                expected_version=table.version,
                snapshot=game.to_text(),
                new_actions=new_actions,
                result={"text": result.to_text()},
                scores=list(result.scores),
                winner=result.winner,
            )
            table.deadline = None
        else:
            deadline = self._next_deadline(table)
            table.version = await self.games.save_turn(
                table.game_id,
                expected_version=table.version,
                snapshot=game.to_text(),
                new_actions=new_actions,
                deadline=_dt(deadline),
                draft=[],
                turn=game.turn,
                seats=seats_now if seats_now != seats_before else None,
            )
            table.deadline = deadline
        table.saved_actions = len(game.log)
        replies = [self._public(table, self._outcome_text(table, outcome))]
        if away is not None:
            replies.append(away)
        mover = table.seats[outcome.seat]
        if mover.player is not None:
            replies.append(await self._rack_reply(table, outcome.seat))
        if game.finished:
            replies.extend(await self._game_over(table))
            return replies
        replies.extend(await self._begin_turn(table))
        return replies

    def _outcome_text(self, table: LiveTable, outcome: TurnOutcome) -> str:
        lang = table.lang
        name = table.seats[outcome.seat].name
        if outcome.kind == "play":
            key = "timeout_play" if outcome.timed_out else "played"
            return t(lang, key, name=name, tiles=tiles_text(sort_tiles(outcome.placed)))
        if outcome.kind == "penalty":
            return t(lang, "timeout_penalty", name=name, count=len(outcome.drawn))
        if outcome.kind == "pass":
            return t(lang, "passed", name=name)
        return t(lang, "timeout_draw" if outcome.timed_out else "drew", name=name)

    async def _game_over(self, table: LiveTable) -> list[Reply]:
        game, match = table.game, table.match
        assert game is not None and game.result is not None and match is not None
        result = game.result
        lang = table.lang
        winner = table.seats[result.winner].name
        key = "game_over_out" if result.reason is EndReason.OUT else "game_over_blocked"
        scores = ", ".join(f"{table.seats[i].name} {s:+d}" for i, s in enumerate(result.scores))
        match.record(result)
        lines = [t(lang, key, name=winner), t(lang, "scores", scores=scores)]
        replies = [await self._table_reply(table)]
        standings = await self._standings_reply(table, "\n".join(lines))
        replies.append(standings)
        if match.finished:
            names = " & ".join(table.seats[s].name for s in match.winners())
            rematch = (Button(t(lang, "button_rematch"), "rematch", "success"),)
            replies.append(
                self._public(table, t(lang, "match_over", names=names), buttons=(rematch,))
            )
            self.tables.pop(table.channel.key, None)
            return replies
        replies.append(
            self._public(table, t(lang, "match_next", number=match.game_number, games=match.games))
        )
        replies.extend(await self._new_game(table))
        return replies

    async def _run_ai_turns(self, table: LiveTable) -> list[Reply]:
        """The AI seat to move plays its turn, then the game goes on (another AI seat plays
        too, until a human is to move or the game ends). Every AI turn is stored before the
        next begins; in shared mode each AI move is leased first so one process plays it."""
        game = table.game
        assert game is not None
        if game.finished or not table.ai_due:
            return []
        if not await self._claim(table, "ai"):
            return []
        seat = game.current
        level = table.seats[seat].ai or DEFAULT_AI
        melds = await asyncio.to_thread(choose_move, game, seat, level)
        outcome: TurnOutcome | None = None
        if melds is not None:
            draft = game.draft(seat)
            try:
                draft.arrange_melds(melds)
                outcome = game.commit(draft)
            except RummikubError:  # never expected: the AI uses the same checks
                self._internal("AI move refused in %s; drawing instead", table.channel.key)
        if outcome is None:
            outcome = game.draw(seat)
        return await self._after_turn(table, outcome)

    # ----- the draft -----------------------------------------------------------------------

    def _draft_for(self, table: LiveTable, seat: int) -> Draft:
        assert table.game is not None
        if table.draft is None or table.draft.seat != seat:
            table.draft = table.game.draft(seat)
        return table.draft

    async def _draft_step(self, table: LiveTable, seat: int, text: str) -> list[Reply]:
        draft = self._draft_for(table, seat)
        if text.split()[0] in ("undo", "u") and not draft.can_undo:
            player = table.seats[seat].player
            assert player is not None  # only a person types undo
            return [self._note(table.channel, player, say(table.lang, NOTHING_TO_UNDO))]
        if text.split()[0] == "auto":  # the solver may think for a while: off the event loop
            await asyncio.to_thread(draft.apply_text, text)
        else:
            draft.apply_text(text)  # raises a one-sentence error and changes nothing
        if table.game_id is not None:
            table.version = await self.games.save_draft(
                table.game_id, expected_version=table.version, draft=draft.steps
            )
        return [await self._panel_reply(table, seat)]

    async def _pick(self, table: LiveTable, seat: int, args: str) -> Reply:
        from engine.notation import parse_tokens

        draft = self._draft_for(table, seat)
        rack_codes = {t.code for t in draft.rack} | {str(t) for t in draft.rack}
        for token in parse_tokens(args):
            code = token.tile.code
            if code not in rack_codes and str(token.tile) not in rack_codes:
                raise RummikubErrorText(
                    "There is no {tile} {where}.", tile=str(token.tile), where=Msg("on your rack")
                )
            if code in table.selection:
                table.selection.remove(code)
            else:
                table.selection.append(code)
        return await self._panel_reply(table, seat)

    async def _target(self, table: LiveTable, seat: int, args: str) -> Reply:
        value = args.strip().lower().lstrip("#")
        number = parse_number(value)
        if value in ("", "new"):
            table.target = None
        elif number is not None:
            draft = self._draft_for(table, seat)
            table.target = draft._slot_index(number) + 1  # no such meld: says which exist
        else:
            raise CommandErrorAsRule(usage("target"))
        return await self._panel_reply(table, seat)

    async def _hint(self, table: LiveTable, seat: int, player: PlayerRef) -> Reply:
        lang = table.lang
        if not table.rules.hints:
            return self._note(table.channel, player, t(lang, "hint_off"))
        assert table.game is not None
        hint = await asyncio.to_thread(hint_text, table.game, seat, table.draft)
        if hint is None:
            return self._note(table.channel, player, t(lang, "hint_none"))
        return self._note(table.channel, player, t(lang, "hint", text=say(lang, hint)))

    # ----- views ---------------------------------------------------------------------------

    def _set_sort(self, table: LiveTable, player: PlayerRef, args: str) -> None:
        value = args.strip().lower()
        if value.startswith("num"):
            table.sort_by[player.key] = "number"
        elif value.startswith("col"):
            table.sort_by[player.key] = "color"
        else:
            raise CommandErrorAsRule(usage("sort"))

    async def _rack_reply(self, table: LiveTable, seat: int) -> Reply:
        game = table.game
        info = table.seats[seat]
        assert game is not None and info.player is not None
        sort_by = table.sort_by.get(info.player.key, "color")
        draft = table.draft if table.draft is not None and table.draft.seat == seat else None
        text = self.presenter.rack_line(game, seat, sort_by, lang=table.lang, draft=draft)
        images = await self.presenter.rack_images(game, seat, sort_by, lang=table.lang, draft=draft)
        return Reply(
            table.channel,
            text,
            images=images,
            private_to=info.player,
            slot="rack",
            buttons=(
                (
                    Button(t(table.lang, "button_sort_colour"), "sort colour"),
                    Button(t(table.lang, "button_sort_number"), "sort number"),
                ),
            ),
        )

    async def _table_reply(self, table: LiveTable) -> Reply:
        game = table.game
        assert game is not None
        text = self.presenter.table_text(
            game, [s.name for s in table.seats], self._seconds_left(table), lang=table.lang
        )
        images = await self.presenter.table_images(
            game, [s.name for s in table.seats], self._seconds_left(table), lang=table.lang
        )
        buttons = (
            (
                Button(t(table.lang, "button_my_turn"), "panel", "primary"),
                Button(t(table.lang, "button_my_rack"), "rack"),
                Button(t(table.lang, "button_status"), "status"),
            ),
        )
        current = table.current_seat
        mentions = (current.player,) if current is not None and current.player else ()
        return self._public(
            table, text, images=images, slot="table", buttons=buttons, mentions=mentions
        )

    async def _panel_reply(self, table: LiveTable, seat: int) -> Reply:
        game = table.game
        info = table.seats[seat]
        assert game is not None and info.player is not None
        draft = table.draft or game.draft(seat)
        lang = table.lang
        sort_by = table.sort_by.get(info.player.key, "color")
        text = self.presenter.draft_text(draft, lang=lang, sort_by=sort_by)
        if table.selection:
            target = str(table.target) if table.target else "new"
            text += "\n" + t(lang, "selected", tiles=" ".join(table.selection), target=target)
        rack = sort_tiles(draft.rack, sort_by)
        options = tuple(
            SelectOption(str(tile), tile.code, tile.code in table.selection) for tile in rack
        )
        numbers = [i + 1 for i, s in enumerate(draft.slots) if s.tiles]
        targets = (
            SelectOption(t(lang, "option_new_meld"), "new", table.target is None),
            *tuple(
                SelectOption(t(lang, "option_meld", number=n), str(n), table.target == n)
                for n in numbers
            ),
        )
        selects = (
            Select("pick", t(lang, "select_tiles"), options, 0, min(len(options), 25) or 1),
            Select("target", t(lang, "select_target"), targets[:25], 1, 1),
        )
        buttons = (
            (
                Button(t(lang, "button_place"), "place", "primary"),
                Button(t(lang, "button_auto"), "auto " + " ".join(table.selection), "primary"),
                Button(t(lang, "button_undo"), "undo"),
                Button(t(lang, "button_reset"), "reset"),
            ),
            (
                Button(t(lang, "button_draw"), "draw", "secondary"),
                Button(t(lang, "button_done"), "done", "success"),
            ),
        )
        images = await self.presenter.draft_images(draft, sort_by, lang=lang)
        return Reply(
            table.channel,
            text,
            images=images,
            buttons=buttons,
            selects=selects,
            private_to=info.player,
            slot="panel",
        )

    async def _standings_reply(self, table: LiveTable, head: str) -> Reply:
        text = head + "\n" + self._standings_text(table)
        images = (
            await self.presenter.standings_images(
                table.match, [s.name for s in table.seats], lang=table.lang
            )
            if table.match
            else ()
        )
        return self._public(table, text, images=images)

    def _seconds_left(self, table: LiveTable) -> float | None:
        if table.deadline is None:
            return None
        return max(0.0, table.deadline - self.scheduler.now())

    def _status_text(self, table: LiveTable) -> str:
        game, match = table.game, table.match
        assert game is not None and match is not None
        counts = ", ".join(
            f"{s.name} {len(p.rack)}" for s, p in zip(table.seats, game.players, strict=True)
        )
        left = self._seconds_left(table)
        return t(
            table.lang,
            "status",
            number=match.game_number,
            games=match.games,
            turn=game.turn,
            name=table.seats[game.current].name,
            time=duration(left) if left is not None else "-",
            pool=len(game.pool),
            counts=counts,
        )

    def _standings_text(self, table: LiveTable) -> str:
        match = table.match
        if match is None:
            return t(table.lang, "playing_only")
        rows = "; ".join(
            t(
                table.lang,
                "standings_row",
                rank=row.rank,
                name=table.seats[row.seat].name,
                won=row.games_won,
                total=f"{row.total:+d}",
            )
            for row in match.standings()
        )
        return t(table.lang, "standings", played=len(match.results), games=match.games, rows=rows)

    def _help(self, lang: str, args: str) -> str:
        verb = args.strip().lower()
        if verb:
            try:
                verb = parse_command(verb).verb
            except CommandError as err:
                return say(lang, err)
            return t(lang, "help_verb", usage=say(lang, usage(verb)))
        return t(lang, "help", verbs=", ".join(KNOWN_VERBS))

    def _rules_text(self, lang: str, rules: Rules) -> str:
        return t(
            lang,
            "rules",
            threshold=rules.opening_threshold,
            seconds=rules.turn_seconds,
            penalty=rules.timeout_penalty,
            settings=self._settings_text(rules, lang),
        )

    async def _leaderboard(self, channel: ChannelRef, lang: str) -> str:
        entries = await self.stats.leaderboard(channel.platform, channel.chat_id)
        if not entries:
            return t(lang, "leaderboard_empty")
        rows = "; ".join(
            t(
                lang,
                "leaderboard_row",
                rank=i,
                name=e.name,
                won=e.games_won,
                played=e.games_played,
                total=f"{e.total_score:+d}",
            )
            for i, e in enumerate(entries, start=1)
        )
        return t(lang, "leaderboard", rows=rows)

    async def _stats(self, channel: ChannelRef, player: PlayerRef, args: str, lang: str) -> str:
        """A player's record over every channel of this server or group: the sender's, or
        the one named (a display name, a user id or a mention)."""
        ids = await self._channels_of(channel)
        who = args.strip()
        person = player.user_id
        if who:
            found = await self._find_player(channel.platform, ids, who)
            if found is None:
                return t(lang, "stats_unknown", name=shorten(who))
            person = found
        record = await self.stats.across_channels(channel.platform, ids, person)
        if record is None:
            return t(lang, "stats_none", name=shorten(who) or player.display_name or person)
        average = record.average_score
        best = "-" if record.best_score is None else f"{record.best_score:+d}"
        if record.best_game_at is not None:
            best += f" ({record.best_game_at.strftime('%Y-%m-%d')})"
        return t(
            lang,
            "stats",
            name=record.name,
            channels=record.channels,
            played=record.games_played,
            won=record.games_won,
            average="-" if average is None else f"{average:+.1f}",
            best=best,
            matches_won=record.matches_won,
            matches=record.matches_played,
        )

    async def _find_player(self, platform: str, ids: Sequence[str], who: str) -> str | None:
        """The user id of a player named by display name, user id or mention (``<@123>``,
        ``@name``), among those with a record in ``ids``."""
        wanted = who.strip().removeprefix("<@").removeprefix("!").removesuffix(">")
        wanted = wanted.removeprefix("@").strip().lower()
        for chat_id in ids:
            for entry in await self.stats.leaderboard(platform, chat_id, limit=1000):
                if wanted in (entry.player_id.lower(), entry.name.lower()):
                    return entry.player_id
        return None

    async def _replay(self, channel: ChannelRef, player: PlayerRef, args: str) -> list[Reply]:
        """The animation of the channel's last finished game (or the ``nth`` newest of its
        history), posted with the game's record; drawn in a worker thread, outside the lock."""
        from engine.record import parse_record
        from renderers.animation import animate
        from storage.replays import record_for_channel

        lang = await self.language(channel)
        what = args.strip().lstrip("#")
        nth = parse_number(what) if what else 1
        if nth is None or nth < 1:
            return [self._note(channel, player, t(lang, "replay_usage"))]
        games = await self.games.history(channel.platform, channel.chat_id, limit=nth)
        if not games:
            return [self._note(channel, player, t(lang, "replay_none"))]
        if len(games) < nth:
            return [self._note(channel, player, t(lang, "replay_nth", count=len(games)))]
        game = games[nth - 1]
        record = await record_for_channel(
            self.db, channel.platform, channel.chat_id, game_id=game.id
        )
        translate = translator(lang)
        gif = await asyncio.to_thread(
            lambda: animate(parse_record(record), fmt="gif", translate=translate)
        )
        when = game.finished_at.strftime("%Y-%m-%d %H:%M") if game.finished_at else "?"
        caption = t(lang, "replay", when=when, names=", ".join(s.name for s in game.seats))
        replies = [Reply(channel, caption, images=(Image("replay.gif", gif, caption),))]
        for part in _chunks(record, RECORD_CHUNK):
            replies.append(Reply(channel, part))
        return replies

    async def _history(self, channel: ChannelRef, lang: str) -> str:
        games = await self.games.history(channel.platform, channel.chat_id, limit=5)
        if not games:
            return t(lang, "history_empty")
        rows = []
        for g in games:
            when = g.finished_at.strftime("%Y-%m-%d %H:%M") if g.finished_at else "?"
            if g.result and "text" in g.result:
                from engine.scoring import GameResult

                result = GameResult.from_text(g.result["text"])
                winner = g.seats[result.winner].name
                score = f"{result.scores[result.winner]:+d}"
                rows.append(t(lang, "history_won", when=when, name=winner, score=score))
            else:
                status = "history_cancelled" if g.status == "cancelled" else "history_ended"
                rows.append(t(lang, status, when=when))
        return t(lang, "history", rows="; ".join(rows))

    # ----- restart -------------------------------------------------------------------------

    async def _table_from_record(self, record: Any) -> LiveTable:
        """Rebuild a live table from its stored game alone (see ``describe``)."""
        setup = json.loads(record.setup)
        rules = Rules.from_text(setup["rules"])
        channel = ChannelRef(record.platform, record.channel_id)
        host = PlayerRef(record.platform, setup["host"]["user_id"], setup["host"]["name"])
        seats = []
        for s in record.seats:
            if s.ai is None:
                person = PlayerRef(record.platform, s.player_id, s.name)
                seats.append(SeatInfo(person, None, s.name, missed=s.missed))
            elif s.why is not None:
                owner = PlayerRef(record.platform, s.player_id, s.name if s.why == "away" else "")
                seats.append(SeatInfo(None, s.ai, s.name, owner=owner, why=s.why, missed=s.missed))
            else:
                seats.append(SeatInfo(None, s.ai, s.name))
        table = LiveTable(
            channel, host, rules, lang=setup.get("lang", "en"), seats=seats, phase="playing"
        )
        table.away_after = setup.get("away_after")
        game = Game.from_text(record.snapshot)
        game.log = list(record.actions or [])
        table.game = game
        table.game_id = record.id
        table.version = record.version
        table.saved_actions = len(game.log)
        if record.match_id is not None:
            match = await self.matches.load(record.match_id)
            engine_match = Match(len(seats), match.games_planned)
            from engine.scoring import GameResult

            for r in match.results:
                winner = r.winner if r.winner is not None else 0
                engine_match.results.append(
                    GameResult(EndReason.OUT, winner, tuple(r.scores), tuple(0 for _ in r.scores))
                )
            table.match = engine_match
            table.match_id = record.match_id
        if record.draft:
            draft = game.draft()
            for step in record.draft:
                try:
                    draft.apply_text(step)
                except RummikubError:
                    break
            table.draft = draft
        if record.deadline is not None:
            table.deadline = (
                record.deadline.replace(tzinfo=UTC).timestamp()
                if record.deadline.tzinfo is None
                else record.deadline.timestamp()
            )
        return table

    async def _current(self, channel: ChannelRef) -> LiveTable | None:
        """The channel's table as storage has it now (the caller holds the channel's lock):
        the copy in memory when its stored version is unchanged, else a fresh load (a game
        or lobby another process started or changed, or that this one has not loaded yet)."""
        table = self.tables.get(channel.key)
        if table is None:
            return await self._reload(channel)
        return await self._fresh(table)

    async def _fresh(self, table: LiveTable) -> LiveTable | None:
        """``table`` if storage still agrees with it (one version read), else the stored one."""
        if table.game_id is not None:
            stamp = await self.games.stamp(table.game_id)
            if stamp == (table.version, False):
                return table
            return await self._reload(table.channel)
        stored = await self.lobbies.get(table.channel.platform, table.channel.chat_id)
        if stored is not None and stored == self._lobby_data(table.channel):
            return table
        return await self._reload(table.channel)

    async def _reload(self, channel: ChannelRef) -> LiveTable | None:
        """Drop our copy and load the stored game (or lobby), re-arming its timers."""
        old = self.tables.pop(channel.key, None)
        if old is not None:
            self._cancel_timers(old)
        record = await self.games.load_active(channel.platform, channel.chat_id)
        if record is not None:
            table = await self._table_from_record(record)
            self.tables[channel.key] = table
            self._arm_timers(table)
            return table
        data = await self.lobbies.get(channel.platform, channel.chat_id)
        if data is not None:
            lobby = self._lobby_from_data(channel, data)
            self.tables[channel.key] = lobby
            return lobby
        return None

    async def _reload_quietly(self, channel: ChannelRef) -> None:
        """After a conflict or a failure: the stored game replaces ours (if even that fails,
        the channel is forgotten here and loaded again by its next command)."""
        try:
            await self._reload(channel)
        except Exception:
            self._internal("cannot reload %s", channel.key)
            gone = self.tables.pop(channel.key, None)
            if gone is not None:
                self._cancel_timers(gone)


def away_limit(rules: Rules, away_after: int | None) -> int:
    """The ``away_after`` setting in force: as chosen, or automatic (``AWAY_AUTO`` turns for
    timers of an hour or more, where one absent player would stall the table for days; off for
    real-time tables, as at a real table)."""
    if away_after is not None:
        return away_after
    return AWAY_AUTO if rules.turn_seconds >= AWAY_AUTO_HOURS else 0


AWAY_KEYS = ("away_after", "away")


def parse_away(value: str) -> tuple[bool, int | None]:
    """``away_after`` values: ``auto``, ``off`` (or 0), or 1 to 99 turns. Returns (valid, value)."""
    word = value.strip().lower()
    if word == "auto":
        return True, None
    if word in ("off", "no", "never", "0"):
        return True, 0
    number = parse_number(word)
    if number is not None and 1 <= number <= AWAY_MOST:
        return True, number
    return False, None


ServerChannels = Callable[[ChannelRef], Awaitable[Sequence[str]]]
RECORD_CHUNK = 1900  # a record goes out in messages under Discord's 2,000 characters


def _chunks(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where possible."""
    pieces: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            pieces.append(current)
            current = ""
        current += line
    if current.strip():
        pieces.append(current)
    return [p.rstrip("\n") for p in pieces if p.strip()]


class RummikubErrorText(RummikubError):
    """A one-sentence bot-level input error (shown like a rules error)."""


class CommandErrorAsRule(RummikubError):
    """A usage error found after parsing."""

    def __init__(self, usage_text: Msg) -> None:
        super().__init__(Msg("Write it like: {usage}.", usage=usage_text))


def _short_quotes(message: Msg) -> Msg:
    """The same message with every text blank cut to a short quote (input is echoed there)."""
    params: dict[str, object] = {}
    for key, value in message.params.items():
        if isinstance(value, str):
            params[key] = shorten(value, 60)
        elif isinstance(value, Msg):
            params[key] = _short_quotes(value)
        else:
            params[key] = value
    return Msg(message.template, **params)


def _dt(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)
