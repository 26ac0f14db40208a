"""``GameManager``: the facade that builds the manager's parts and implements the service
contract adapters use (``bot.api.GameService``): ``handle`` (parsing, locks, errors, routing),
outboxes, delivery confirmations, languages and the reads adapters need."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import socket
import uuid
from collections.abc import AsyncIterator, Sequence

from bot.api import (
    BoardState,
    ChannelRef,
    Completions,
    Outbox,
    PlayerRef,
    Reply,
    Sent,
    ServerChannels,
    ServerOf,
    TableSummary,
)
from bot.commands import (
    BadNumber,
    Command,
    read_command,
    shorten,
)
from bot.i18n import LANGUAGES, say, t
from bot.manager.board import Boards
from bot.manager.channels import Defaults
from bot.manager.clock import Clock
from bot.manager.confirm import Questions
from bot.manager.deadlines import Deadlines, TurnKey
from bot.manager.delivery import Delivery
from bot.manager.faults import Faults
from bot.manager.languages import Languages
from bot.manager.lobby import Lobby
from bot.manager.notices import Notices
from bot.manager.outbox import RESEND_AFTER
from bot.manager.ratings import Ratings
from bot.manager.records import Records
from bot.manager.resend import Resender
from bot.manager.retries import Retries
from bot.manager.routes import Router, build_routes
from bot.manager.state import (
    AWAY_KEYS,
    AWAY_MOST,
    MAX_COMMAND,
    SETTING_VERBS,
    LiveTable,
    log,
    note,
)
from bot.manager.store import Store
from bot.manager.tables import Tables
from bot.manager.timers import Timers
from bot.manager.turns import Turns
from bot.manager.views import Views
from bot.operations import BotMetrics, note_conflict
from bot.presenter import Presenter
from bot.scheduler import AsyncioScheduler, Scheduler
from engine import Rules, RummikubError, Tile
from storage import (
    ConflictError,
    Database,
    GameRepository,
    LobbyRepository,
    MatchRepository,
    MessageSlots,
    PlayerLanguageRepository,
    StatsRepository,
)


class GameManager:
    """Implements ``bot.api.GameService`` for every adapter, over parts that each take what
    they use in their constructor:

    ``tables`` (live tables and locks), ``languages``, ``views`` (replies drawn from a table),
    ``records`` (leaderboard, history, stats, replays), ``deadlines`` (timers and claims),
    ``store`` (memory rebuilt from storage), ``turns`` (games, turns, AI moves, the draft),
    ``lobby`` (seats and settings), ``timers`` (what a fired deadline does), ``delivery``
    (outboxes), ``resender`` (confirmations, sending again), ``retries`` (failed and refused
    sends), ``ratings`` (the ladder, a player's rating), ``notices`` (``notify``) and
    ``router`` (the verb table).
    """

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
        outbox_lease: float = RESEND_AFTER,
    ) -> None:
        """Shared mode: ``lease_seconds`` a deadline is this process's, ``outbox_lease`` what
        it stores is its own to deliver (``docs/outbox.md``)."""
        self.db = db
        self.scheduler: Scheduler = scheduler or AsyncioScheduler()
        self.presenter = presenter or Presenter()
        # Several processes on one database (PostgreSQL): timeouts and AI moves are leased so
        # one process acts on each. SQLite is for one process; reminders are claimed anyway.
        self.shared = db.dialect == "postgresql" if shared is None else shared
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        db.outbox.lease_to(self.owner, outbox_lease)  # what it stores, it delivers
        language = default_language if default_language in LANGUAGES else "en"
        self.defaults = Defaults(default_rules or Rules(), language)
        self.faults = Faults(log)
        self.tables = Tables()
        self.languages = Languages(self.tables, db.settings, db.players, self.defaults, self.faults)
        self.views = Views(self.presenter, self.scheduler, self.languages)
        self.ratings = Ratings(db, self.presenter, self.faults)
        self.records = Records(db, self.presenter, self.languages, self.ratings)
        self.notices = Notices(db, self.languages)
        self.deadlines = Deadlines(
            self.scheduler,
            db.claims,
            warn_before=warn_before,
            shared=self.shared,
            lease_seconds=lease_seconds,
            owner=self.owner,
        )
        self.store = Store(db, self.tables, self.deadlines, self.faults, shared=self.shared)
        self.delivery = Delivery()
        self.turns = Turns(
            db.games,
            self.tables,
            self.views,
            self.deadlines,
            self.languages,
            self.faults,
            rng or random.Random(),
        )
        self.questions = Questions()  # what leave, kick and cancel asked before ending a game
        self.lobby = Lobby(
            db,
            self.tables,
            self.views,
            self.turns,
            self.deadlines,
            self.languages,
            self.defaults,
            self.questions,
        )
        self.clock = Clock(self.tables, self.deadlines, self.lobby)
        timers = (self.tables, self.store, self.deadlines, self.turns, self.delivery)
        self.timers = Timers(*timers, self.faults, before=lambda key: self.resender.before(key))
        self._metrics = BotMetrics(self)  # this manager's Prometheus registry (bot.operations)
        self.boards = Boards(
            table=self.tables.get,
            lock=self.tables.lock,
            load=self.store.current,
            channel_language=self.languages.safe,
            player_language=self.languages.read_for,
            now=self.scheduler.now,
            shared=self.shared,
        )
        self.deadlines.connect(self._metrics.job(self._timer_fired))  # each job counted
        self.resender = Resender(
            db,
            self.tables,
            self.store,
            self.views,
            self.delivery,
            self.scheduler,
            self.faults,
            shared=self.shared,
            owner=self.owner,
            lease=outbox_lease,
            changed=self.boards.changed,
        )
        self.retries = Retries(db, self.scheduler, self.faults, self.resender.retry)
        routes = build_routes(
            self.lobby,
            self.turns,
            self.views,
            self.records,
            self.languages,
            self._channel_rules,
            self.ratings,
            self.notices,
        )
        self.router = Router(
            routes, self.tables, self.store, self.lobby, self.languages, self.notices, self.ratings
        )

    # ----- what tests and tools read -------------------------------------------------------

    @property
    def internal_errors(self) -> int:
        """Exceptions that reached a catch-all (bugs) since this manager started."""
        return self.faults.count

    @property
    def default_language(self) -> str:
        return self.defaults.language

    @property
    def games(self) -> GameRepository:
        return self.db.games

    @property
    def matches(self) -> MatchRepository:
        return self.db.matches

    @property
    def lobbies(self) -> LobbyRepository:
        return self.db.lobbies

    @property
    def stats(self) -> StatsRepository:
        return self.db.stats

    @property
    def player_languages(self) -> PlayerLanguageRepository:
        return self.db.players

    # ----- the service contract ------------------------------------------------------------

    def set_outbox(self, outbox: Outbox, *, platform: str | None = None) -> None:
        """Where replies caused by timers and AI turns go: one outbox per platform (replacing
        an earlier one), or, without a platform, an outbox that sees every such reply."""
        self.delivery.register(outbox, platform=platform)
        self.resender.start()

    async def report(self, keys: Sequence[str], outcome: Sent) -> None:
        """What the platform said to the messages carrying these outbox entries: accepted,
        they are marked delivered; refused for good, marked refused at once and never sent
        again; failed for now, tried again soon, then after longer waits
        (``bot.manager.retries``)."""
        if outcome is Sent.DELIVERED:
            self.retries.settled(keys)
            await self.resender.delivered(keys)
        elif outcome is Sent.REFUSED:
            await self.retries.refused(keys)
        else:
            self.retries.failed(keys)

    async def delivered(self, keys: Sequence[str]) -> None:
        """The platform accepted the messages carrying these outbox entries."""
        await self.report(keys, Sent.DELIVERED)

    async def summary(self, channel: ChannelRef, player: PlayerRef) -> TableSummary | None:
        """The channel's table as an adapter may know it (no tiles), under its lock."""
        async with self.tables.lock(channel.key):
            table = self.tables.of(channel)
            if table is None:
                return None
            seat = table.seat_of(player)
            game = table.game
            return TableSummary(
                phase=table.phase,
                lang=table.lang,
                turn_seconds=table.rules.turn_seconds,
                hints=table.rules.hints,
                seated=seat is not None,
                to_play=game is not None and not game.finished and seat == game.current,
            )

    @property
    def metrics(self) -> BotMetrics:
        """This manager's Prometheus metrics (``bot.operations``)."""
        return self._metrics

    @property
    def messages(self) -> MessageSlots:
        """The ids of the messages adapters edit in place, kept in the database."""
        return self.db.messages

    async def flush_confirmed(self) -> None:
        """Wait until every delivery confirmation so far is written."""
        await self.resender.flush_confirmed()

    async def board(self, player: PlayerRef, channel: ChannelRef) -> BoardState:
        """``player``'s board of ``channel``, read under the channel's lock."""
        return await self.boards.read(player, channel)

    def watch(self, channel: ChannelRef) -> AsyncIterator[int]:
        """The channel's change counter, each time it moves (a board reads again then)."""
        return self.boards.watch(channel.key)

    async def deliver(self, replies: Sequence[Reply]) -> None:
        """Send what a board action caused in the chat through the registered outboxes."""
        await self.delivery.send(list(replies))

    async def _timer_fired(self, key: str, turn: TurnKey, kind: str) -> None:
        """A deadline fired: its job (``Timers.run``), then open boards read the channel."""
        try:
            await self.timers.run(key, turn, kind)
        finally:
            self.boards.changed(key)

    def has_table(self, channel: ChannelRef) -> bool:
        """Whether ``channel`` has a lobby or a game open in this process's memory."""
        return channel.key in self.tables

    def opens_new_lobby(self, channel: ChannelRef, command: Command) -> bool:
        """Whether ``command``, about to run in ``channel``, opens a new lobby (a new message
        at the bottom, and a new table after it): ``start``, or ``rematch`` where no table is
        open (in its own waiting lobby, Rematch only confirms)."""
        return command.verb == "start" or (
            command.verb == "rematch" and not self.has_table(channel)
        )

    def set_server_channels(self, platform: str, lookup: ServerChannels) -> None:
        """How ``stats`` finds the other channels of a channel's server or group."""
        self.records.set_server_channels(platform, lookup)

    def set_server_of(self, platform: str, lookup: ServerOf) -> None:
        """How ratings learn the server (Discord guild) of a channel: one ladder per server."""
        self.ratings.set_server_of(platform, lookup)

    def set_notice_style(self, platform: str, style: str) -> None:
        """How subscribers on ``platform`` are told a lobby opened: ``mention`` (one line in
        the lobby message, the default) or ``private`` (a private notice each)."""
        self.notices.set_style(platform, style)

    async def language(self, channel: ChannelRef) -> str:
        """The language the bot speaks in ``channel`` (read-only)."""
        return await self.languages.of_channel(channel)

    async def language_for(self, player: PlayerRef, channel: ChannelRef) -> str:
        """The language ``player`` reads privately in ``channel`` (for an adapter's own
        private sentences)."""
        return await self.languages.private(player, channel)

    async def completions(self, player: PlayerRef, channel: ChannelRef) -> Completions:
        """Autocomplete data, read under the channel's lock: the player's rack (their draft's,
        on their turn) and the numbered melds they see."""
        async with self.tables.lock(channel.key):
            return completions_of(self.tables.of(channel), player)

    def hold_clock(self, channel: ChannelRef) -> None:
        """Load the channel's game without running its clock until ``start_clock`` (the
        terminal game, which may be cancelled before it goes on). Call it before ``resume``."""
        self.clock.hold(channel)

    async def pause_clock(self, channel: ChannelRef) -> None:
        """Stop the channel's turn clock, storing the time left (a game nobody waits for
        while it is closed: the terminal game against AI seats)."""
        await self.clock.stop(channel)

    async def start_clock(self, channel: ChannelRef) -> None:
        """Give a stopped clock its time left back and arm the timers."""
        await self.clock.start(channel)

    async def resume(self) -> int:
        """Load every unfinished game and lobby from storage and re-arm its timers; then send
        again what stored turns announced and no platform confirmed. The count of games and
        lobbies."""
        await self.resender.load_unconfirmed()  # first: due timers announce after it
        count = await self.store.resume()
        self.resender.start()
        self.resender.arm_sweep()  # shared mode: what a process that dies later leaves too
        return count

    async def close(self) -> None:
        self.resender.close()
        self.retries.close()
        for table in self.tables.values():
            self.deadlines.cancel(table)
        tasks = list(self.delivery.tasks)  # sending again or flushing kept replies: their
        for task in tasks:  # entries stay unconfirmed, so the next start sends them
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.resender.flush_confirmed()

    async def settle(self) -> None:
        """Wait for the background sends under way (re-sends after ``resume``)."""
        while self.delivery.tasks:
            await asyncio.gather(*list(self.delivery.tasks), return_exceptions=True)

    async def handle(
        self,
        player: PlayerRef,
        channel: ChannelRef,
        command: str | Command,
        *,
        admin: bool = False,
    ) -> list[Reply]:
        """Run one command and return what to send; never raises for user input. ``command``
        is read once (``bot.commands.read_command``), here or by the adapter that had to know
        its verb first. Each command is counted, timed and, when turned down, counted by reason
        (``bot.operations``); its log lines carry its platform, channel and game."""
        if isinstance(command, str):
            if len(command) > MAX_COMMAND:
                return await self._too_long(player, channel)
            command = read_command(command)
        table = self.tables.of(channel)
        with self.metrics.command(channel, command.verb, game=table.game_id if table else None):
            return await self._handle(player, channel, command, admin=admin)

    async def _too_long(self, player: PlayerRef, channel: ChannelRef) -> list[Reply]:
        """Text too long to be a command: one sentence, nothing read."""
        known = self.tables.of(channel)
        lang = self.languages.for_player(known.lang if known is not None else "en", player)
        return [self.languages.tell(channel, player, lang, "too_long", most=MAX_COMMAND)]

    async def _handle(
        self, player: PlayerRef, channel: ChannelRef, command: Command, *, admin: bool
    ) -> list[Reply]:
        known = self.tables.of(channel)
        try:
            await self.languages.know(player)  # their client's language, and any they chose
        except Exception:
            self.faults("cannot read or store the language of %s", player.key)
        # The turn this command was meant for: the one in play when it arrived.
        seen = known.turn_key if known is not None and known.game is not None else None
        problem = command.problem
        if isinstance(problem, BadNumber):
            said = self.languages.for_player(await self.languages.safe(channel), player)
            return [note(channel, player, self._number_out_of_range(said, command, problem))]
        if problem is not None and (not command.verb or command.verb == "replay"):
            return [note(channel, player, await self.languages.error(channel, problem, player))]
        if command.verb == "replay":  # reads finished games only: no lock, drawn off the loop
            try:
                return await self.records.replay(channel, player, command.args)
            except Exception:
                self.faults("replay %r failed in %s", shorten(command.source, 80), channel.key)
                said = await self.languages.safe(channel)
                return [self.languages.tell(channel, player, said, "error")]
        async with self.tables.lock(channel.key):  # a failure is undone under the lock too
            try:
                await self.resender.before(channel.key)  # what a dead process left goes first
                replies = await self.router.dispatch(player, channel, command, admin, seen)
                return replies
            except RummikubError as err:
                return [note(channel, player, await self.languages.error(channel, err, player))]
            except ConflictError:
                note_conflict()
                await self.store.reload_quietly(channel)
                said = await self.languages.safe(channel)
                return [self.languages.tell(channel, player, said, "busy")]
            except Exception:  # no exception ever reaches a user; the stored game is unchanged
                text = shorten(command.source or command.text, 80)
                self.faults("command %r failed in %s", text, channel.key)
                await self.store.reload_quietly(channel)
                said = await self.languages.safe(channel)
                return [self.languages.tell(channel, player, said, "error")]
            finally:
                self.boards.changed(channel.key)  # an open board reads the channel again

    def _number_out_of_range(self, lang: str, command: Command, err: BadNumber) -> str:
        """What a number too long to read means in its command: the range of the setting it
        is the value of (``start timer=99999999``), of ``replay N``, or of meld and seat
        numbers (four digits)."""
        number = shorten(err.text)
        if err.text.isascii() and command.verb in SETTING_VERBS:
            words = command.args.replace("=", " ").split()
            for key, value in itertools.pairwise(words):
                if value != err.text:
                    continue
                if key.lower() in AWAY_KEYS:
                    return t(lang, "bad_away", most=AWAY_MOST)
                try:  # a value past every range: the engine says which range it has
                    self.defaults.rules.with_setting(key, "9" * 12)
                except RummikubError as problem:
                    return say(lang, problem)
        if err.text.isascii() and command.verb == "replay":
            return t(lang, "replay_range", number=number)
        return t(lang, "bad_number", number=number)

    async def _channel_rules(self, channel: ChannelRef) -> Rules:
        """The rules a channel with no table would start with."""
        return self.defaults.rules_of(await self.db.settings.get(channel.platform, channel.chat_id))


def completions_of(table: LiveTable | None, player: PlayerRef) -> Completions:
    """What autocomplete offers ``player`` at ``table``: their rack tiles (their draft's, on
    their turn) and the numbered melds they see. A missing table or seat gives nothing."""
    game = table.game if table is not None else None
    if table is None or game is None or game.finished:
        return Completions()
    seat = table.seat_of(player)
    draft = table.draft if table.draft is not None and table.draft.seat == seat else None
    rack: Sequence[Tile]
    if draft is not None:
        rack = draft.rack
        melds = [slot.tiles for slot in draft.slots]
    else:
        rack = game.players[seat].rack if seat is not None else ()
        melds = [meld.tiles for meld in game.table]
    return Completions(
        rack=tuple(str(tile) for tile in rack),
        melds=tuple(
            (number, " ".join(str(tile) for tile in tiles))
            for number, tiles in enumerate(melds, start=1)
            if tiles
        ),
    )
