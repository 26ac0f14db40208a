"""The bot's Prometheus metrics: one registry per game manager, never the global default one.

Every metric is named ``rummikub_...`` as Prometheus' naming guide asks (a unit suffix,
``_total`` for counters, base units: seconds). Labels are small closed sets (platform, verb,
outcome, reason, AI level, API method): no player, channel or game id is ever a label.

The game manager feeds it through a few calls, each one line where it is used. The manager
opens a *scope* around each command (in ``GameManager.handle``) and each timer job
(:meth:`BotMetrics.job` where the deadlines are wired); inside one, its parts report with
plain functions that need no reference to the metrics: :func:`note_turn` where a turn is
stored, :func:`timed_solver` around the AI and the solver, :func:`note_conflict`, and
:func:`note_refusal` / :func:`note_told` where a command is turned down. Database save latency
comes from SQLAlchemy's engine events (``storage.health``), the platforms' API calls from
their HTTP clients (``bot.operations.platforms``), and the gauges (tables open, outbox
backlog, database up) are read when Prometheus scrapes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import wraps
from typing import ParamSpec, Protocol, TypeVar

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.commands import CommandError
from bot.logs import log_context
from engine import Game, TurnOutcome
from engine.errors import NotationError, RummikubError
from storage import Database
from storage.health import outbox_backlog, ping, time_commits

log = logging.getLogger("rummikub.commands")

P = ParamSpec("P")
R = TypeVar("R")

LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SAVES = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
THINKING = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

# The private refusals the manager answers by message key (``_tell``), by the reason a
# dashboard groups them under. A key not listed here is an answer, not a refusal.
TOLD_REASONS: Mapping[str, str] = {
    "too_long": "input",
    "bad_number": "input",
    "bad_level": "input",
    "bad_away": "input",
    "replay_usage": "input",
    "replay_nth": "input",
    "nothing_selected": "input",
    "not_your_turn": "not_your_turn",
    "turn_over": "turn_over",
    "host_only": "not_allowed",
    "not_seated": "not_allowed",
    "rematch_players_only": "not_allowed",
    "hint_off": "not_allowed",
    "no_game": "wrong_phase",
    "lobby_only": "wrong_phase",
    "playing_only": "wrong_phase",
    "already_running": "wrong_phase",
    "already_seated": "wrong_phase",
    "table_full": "wrong_phase",
    "need_players": "wrong_phase",
    "no_rematch": "wrong_phase",
    "busy": "conflict",
    "error": "internal",
}


class Where(Protocol):
    """A channel as the metrics label it (``bot.api.ChannelRef``; not imported, since the
    contract in ``bot.api`` names these metrics)."""

    @property
    def platform(self) -> str: ...
    @property
    def chat_id(self) -> str: ...


class SeatLike(Protocol):
    @property
    def ai(self) -> str | None: ...


class TableLike(Protocol):
    """What the metrics read of a live table (``bot.manager.LiveTable``)."""

    @property
    def channel(self) -> Where: ...
    @property
    def phase(self) -> str: ...
    @property
    def game_id(self) -> int | None: ...
    @property
    def game(self) -> Game | None: ...
    @property
    def seats(self) -> Sequence[SeatLike]: ...


class TablesLike(Protocol):
    """The manager's live tables (``bot.manager.tables.Tables``)."""

    def get(self, key: str) -> TableLike | None: ...
    def values(self) -> Sequence[TableLike]: ...


class Observed(Protocol):
    """What the metrics read of the game manager."""

    @property
    def db(self) -> Database: ...
    @property
    def tables(self) -> TablesLike: ...


class Measured(Protocol):
    """A game manager that has metrics."""

    @property
    def metrics(self) -> BotMetrics: ...
    @property
    def tables(self) -> TablesLike: ...


@dataclass
class _Scope:
    """A command or timer job being run in this task: whose metrics it counts into, and why
    the command was turned down, if it was."""

    metrics: BotMetrics
    reason: str | None = None


_scope: ContextVar[_Scope | None] = ContextVar("rummikub_metrics_scope", default=None)


def note_refusal(err: RummikubError) -> None:
    """The command being handled is answered with this rules or input error."""
    _reject(refusal_of(err))


def note_told(message: str) -> None:
    """The command being handled is answered with the private note ``message`` (a refusal
    when it is one of :data:`TOLD_REASONS`)."""
    reason = TOLD_REASONS.get(message)
    if reason is not None:
        _reject(reason)


def _reject(reason: str) -> None:
    scope = _scope.get()
    if scope is not None and scope.reason is None:
        scope.reason = reason


def note_conflict() -> None:
    """A stale write was refused (``storage.ConflictError``) in this command or timer job."""
    scope = _scope.get()
    if scope is not None:
        scope.metrics.conflicts.inc()
        _reject("conflict")


def note_turn(table: TableLike, outcome: TurnOutcome) -> None:
    """A turn of ``table`` is stored with this outcome."""
    scope = _scope.get()
    if scope is not None:
        scope.metrics.turn(table, outcome)


def timed_solver(use: str, work: Callable[P, R], level: str = "") -> Callable[P, R]:
    """``work`` (run in a worker thread; ``asyncio.to_thread`` carries the scope there),
    timed as solver time of ``use`` (``ai`` with its level, ``hint``, ``auto``)."""

    @wraps(work)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        scope = _scope.get()
        started = time.perf_counter()
        try:
            return work(*args, **kwargs)
        finally:
            if scope is not None:
                elapsed = time.perf_counter() - started
                scope.metrics.thinking.labels(use, level).observe(elapsed)

    return run


def refusal_of(err: RummikubError) -> str:
    """The reason label of a rules or input error."""
    return "input" if isinstance(err, CommandError | NotationError) else "rules"


def outcome_of(status: int) -> str:
    """An HTTP status as an ``outcome`` label: ok, 403, 429, 4xx or 5xx."""
    if status < 400:
        return "ok"
    if status in (403, 429):
        return str(status)
    return "5xx" if status >= 500 else "4xx"


class BotMetrics:
    """The metrics of one game manager (and so of one bot process), in its own registry."""

    def __init__(self, manager: Observed | None = None) -> None:
        self.registry = CollectorRegistry()
        self._manager = manager
        self._ready_platforms: dict[str, Callable[[], str | None]] = {}
        self.expected: list[str] = []  # platforms with a token: readiness waits for them
        reg = self.registry
        self.commands = Counter(
            "rummikub_commands",
            "Commands handled (typed, slash commands and buttons), by platform and verb.",
            ["platform", "verb"],
            registry=reg,
        )
        self.command_seconds = Histogram(
            "rummikub_command_duration_seconds",
            "Time to handle a command, from its arrival in the manager to its replies.",
            ["platform", "verb"],
            buckets=LATENCY,
            registry=reg,
        )
        self.rejected = Counter(
            "rummikub_commands_rejected",
            "Commands answered with a refusal (one sentence, nothing changed), by reason.",
            ["platform", "reason"],
            registry=reg,
        )
        self.turns = Counter(
            "rummikub_turns_committed",
            "Turns stored, by platform, outcome (play, draw, penalty, pass) and who moved.",
            ["platform", "outcome", "player"],
            registry=reg,
        )
        self.timeouts = Counter(
            "rummikub_turn_timeouts",
            "Turns the timer ended, by what it did (play: a legal draft committed; draw: an "
            "untouched draft; penalty: an unfinished change rolled back).",
            ["platform", "outcome"],
            registry=reg,
        )
        self.penalty_tiles = Counter(
            "rummikub_penalty_tiles",
            "Tiles drawn as timeout penalties.",
            ["platform"],
            registry=reg,
        )
        self.games_finished = Counter(
            "rummikub_games_finished",
            "Games that ended, by how (out: a player went out; blocked: the pool ran dry).",
            ["platform", "reason"],
            registry=reg,
        )
        self.thinking = Histogram(
            "rummikub_solver_duration_seconds",
            "Time the solver took: an AI seat's move (use=ai, by level), a hint, an auto.",
            ["use", "level"],
            buckets=THINKING,
            registry=reg,
        )
        self.saves = Histogram(
            "rummikub_database_save_duration_seconds",
            "Write transactions, from BEGIN until the commit is done (fsync included).",
            buckets=SAVES,
            registry=reg,
        )
        self.conflicts = Counter(
            "rummikub_database_conflicts",
            "Stale writes refused by optimistic locking (another process moved first).",
            registry=reg,
        )
        self.api_calls = Counter(
            "rummikub_platform_api_calls",
            "Platform API requests, by method and outcome (ok, 403, 429, 4xx, 5xx, error).",
            ["platform", "method", "outcome"],
            registry=reg,
        )
        self.api_seconds = Histogram(
            "rummikub_platform_api_call_duration_seconds",
            "Platform API request time, by method.",
            ["platform", "method"],
            buckets=LATENCY,
            registry=reg,
        )
        self.internal_errors = Counter(
            "rummikub_internal_errors",
            "Exceptions that reached a catch-all (bugs, each logged with its traceback).",
            ["logger"],
            registry=reg,
        )
        self.outbox_backlog = Gauge(
            "rummikub_outbox_backlog_entries",
            "Stored announcements not yet confirmed delivered (the whole database).",
            registry=reg,
        )
        self.outbox_oldest = Gauge(
            "rummikub_outbox_oldest_entry_age_seconds",
            "Age of the oldest announcement not yet confirmed delivered (0: none).",
            registry=reg,
        )
        self.database_up = Gauge(
            "rummikub_database_up",
            "1 when the database answered the last check, else 0.",
            registry=reg,
        )
        reg.register(_Tables(self))
        ProcessCollector(registry=reg)
        reg.register(PLATFORM_COLLECTOR)
        reg.register(GC_COLLECTOR)
        if manager is not None:
            time_commits(manager.db, self.saves.observe)

    # ----- hooks (one line each where they are called) ---------------------------------------

    @contextmanager
    def command(self, channel: Where, verb: str, *, game: int | None) -> Iterator[None]:
        """Count and time one command (``verb``: its verb, "" for a word that is none); what
        it logs carries its platform, channel and game."""
        seen = _Scope(self)
        token = _scope.set(seen)
        started = time.perf_counter()
        verb = verb or "unknown"
        with log_context(platform=channel.platform, channel=channel.chat_id, game=game):
            try:
                yield
            finally:
                _scope.reset(token)
                elapsed = time.perf_counter() - started
                self.commands.labels(channel.platform, verb).inc()
                self.command_seconds.labels(channel.platform, verb).observe(elapsed)
                if seen.reason is not None:
                    self.rejected.labels(channel.platform, seen.reason).inc()
                how = f"refused ({seen.reason})" if seen.reason else "handled"
                log.debug("%s %s in %.1f ms", verb, how, elapsed * 1000)

    def turn(self, table: TableLike, outcome: TurnOutcome) -> None:
        """A turn of ``table`` is stored with this outcome."""
        platform = table.channel.platform
        mover = table.seats[outcome.seat] if outcome.seat < len(table.seats) else None
        who = "ai" if mover is not None and mover.ai is not None else "human"
        self.turns.labels(platform, outcome.kind, who).inc()
        if outcome.timed_out:
            self.timeouts.labels(platform, outcome.kind).inc()
        if outcome.kind == "penalty":
            self.penalty_tiles.labels(platform).inc(len(outcome.drawn))
        if outcome.result is not None:
            self.games_finished.labels(platform, outcome.result.reason.value).inc()

    def job(
        self, run: Callable[[str, tuple[int | None, int], str], Awaitable[None]]
    ) -> Callable[[str, tuple[int | None, int], str], Awaitable[None]]:
        """A timer job ``run(channel key, turn, kind)`` in a scope of these metrics; what it
        logs carries the platform, channel and game of its table."""

        @wraps(run)
        async def in_scope(key: str, turn: tuple[int | None, int], kind: str) -> None:
            platform, _, channel = key.partition(":")
            token = _scope.set(_Scope(self))
            try:
                with log_context(platform=platform, channel=channel, game=turn[0]):
                    await run(key, turn, kind)
            finally:
                _scope.reset(token)

        return in_scope

    def api_call(self, platform: str, method: str, outcome: str, seconds: float) -> None:
        self.api_calls.labels(platform, method, outcome).inc()
        self.api_seconds.labels(platform, method).observe(seconds)

    # ----- readiness -------------------------------------------------------------------------

    def expect(self, platform: str) -> None:
        """``platform`` has a token: the bot is ready only once it is connected."""
        if platform not in self.expected:
            self.expected.append(platform)

    def watch_platform(self, platform: str, problem: Callable[[], str | None]) -> None:
        """How to tell whether ``platform`` is connected: ``problem()`` is None when it is,
        else one sentence saying what is wrong."""
        self._ready_platforms[platform] = problem

    def platform_problem(self, platform: str) -> str | None:
        probe = self._ready_platforms.get(platform)
        if probe is None:
            return f"{platform}: not started yet"
        try:
            return probe()
        except Exception as exc:  # a probe must not break the endpoint
            return f"{platform}: cannot tell ({type(exc).__name__})"

    async def database_problem(self) -> str | None:
        """None when the database answers a query (3 s at most), else why not."""
        if self._manager is None:
            return None
        try:
            await ping(self._manager.db)
        except Exception as exc:
            self.database_up.set(0)
            detail = " ".join(str(exc).split())[:160].split("[SQL:")[0].strip()
            return f"database: {type(exc).__name__}" + (f": {detail}" if detail else "")
        self.database_up.set(1)
        return None

    async def problem(self) -> str | None:
        """Why the bot is not ready (the database first, then each platform), or None."""
        found = await self.database_problem()
        if found is not None:
            return found
        for platform in self.expected:
            found = self.platform_problem(platform)
            if found is not None:
                return found
        return None

    async def refresh(self) -> None:
        """Read what the gauges show from the database (before a scrape)."""
        await self.database_problem()
        if self._manager is None:
            return
        try:
            count, oldest = await outbox_backlog(self._manager.db)
        except Exception:  # the database is away: database_up says so
            return
        self.outbox_backlog.set(count)
        self.outbox_oldest.set(oldest)

    # ----- internals -------------------------------------------------------------------------

    def log_handler(self) -> logging.Handler:
        """A handler that counts the records marked as internal errors (``log_internal``);
        the process's operations server puts it on the root logger while it runs."""
        return _InternalErrors(self.internal_errors)


class _InternalErrors(logging.Handler):
    def __init__(self, counter: Counter) -> None:
        super().__init__(logging.ERROR)
        self.counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "internal_error", False):
            self.counter.labels(record.name).inc()


class _Tables(Collector):
    """Lobbies and games open in this process, counted when scraped."""

    def __init__(self, metrics: BotMetrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        manager = self.metrics._manager
        tables = list(manager.tables.values()) if manager is not None else []
        lobbies = GaugeMetricFamily(
            "rummikub_active_lobbies", "Lobbies open in this process (waiting for the deal)."
        )
        lobbies.add_metric([], sum(1 for t in tables if t.phase == "lobby"))
        games = GaugeMetricFamily(
            "rummikub_active_games", "Games being played in this process's channels."
        )
        games.add_metric([], sum(1 for t in tables if t.phase != "lobby" and t.game is not None))
        yield lobbies
        yield games


def metrics_of(service: object) -> BotMetrics | None:
    """The metrics of a game service (None for a service without, such as a test double)."""
    found = getattr(service, "metrics", None)
    return found if isinstance(found, BotMetrics) else None
