"""Deadlines: each table's timers (a human's reminder and timeout, a due AI move), scheduled
from the stored game, and the claims that make one process act on each deadline."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.manager.state import LiveTable, _dt
from bot.scheduler import Scheduler
from storage import ClaimRepository

TurnKey = tuple[int | None, int]
OnDue = Callable[[str, TurnKey, str], Awaitable[None]]
"""What runs when a timer fires: (channel key, the turn it was armed for, kind)."""

KINDS = ("warn", "expire", "ai")


class Deadlines:
    """Arms and cancels timers; what a timer does when it fires is ``on_due``, connected once
    by the manager that owns the turns (``connect``)."""

    def __init__(
        self,
        clock: Scheduler,
        claims: ClaimRepository,
        *,
        warn_before: float,
        shared: bool,
        lease_seconds: float,
        owner: str,
    ) -> None:
        self.clock = clock
        self._claims = claims
        self._warn_before = warn_before
        self._shared = shared
        self._lease = lease_seconds
        self._owner = owner
        self._on_due: OnDue | None = None
        self.held: set[str] = set()  # channels whose clock waits for ``Clock.start``

    def connect(self, on_due: OnDue) -> None:
        """Say what a timer does when it fires (``bot.manager.timers.Timers.run``)."""
        self._on_due = on_due

    def _schedule(self, key: str, turn: TurnKey, kind: str, when: float) -> None:
        on_due = self._on_due
        assert on_due is not None, "Deadlines.connect was not called"
        self.clock.schedule_at(f"{key}:{kind}", when, lambda: on_due(key, turn, kind))

    def arm(self, table: LiveTable) -> None:
        """Schedule what the stored game says is next: a due AI move at once, else the
        reminder and the timeout of the human's turn. Each timer knows the turn it is for."""
        self.cancel(table)
        game = table.game
        if game is None or game.finished or table.game_id is None:
            return
        if table.paused_left is not None or table.channel.key in self.held:
            return  # a stopped clock (bot.manager.clock): nothing runs until it starts again
        key = table.channel.key
        turn = table.turn_key
        if table.ai_due:
            self._schedule(key, turn, "ai", self.clock.now())
            return
        if table.deadline is None:
            return
        seconds = table.rules.turn_seconds
        before = self._warn_before if seconds < 3600 else min(3600.0, seconds / 4)
        warn_at = table.deadline - before
        if warn_at > self.clock.now() and seconds > 2 * before:
            self._schedule(key, turn, "warn", warn_at)
        self._schedule(key, turn, "expire", table.deadline)

    def cancel(self, table: LiveTable) -> None:
        for kind in KINDS:
            self.clock.cancel(f"{table.channel.key}:{kind}")

    def next_deadline(self, table: LiveTable) -> float:
        """When the turn now beginning ends: a human's after the turn timer; an AI's move is
        due at once (stored like any deadline, so a restart runs it)."""
        now = self.clock.now()
        return now if table.ai_due else now + table.rules.turn_seconds

    async def claim(self, table: LiveTable, kind: str) -> bool:
        """Whether this process acts on the table's current deadline of ``kind``. Reminders
        are claimed for good (sent at most once, by one process). In shared mode timeouts and
        AI moves are leased; a process that loses checks again when the lease runs out."""
        if kind != "warn" and not self._shared:
            return True
        game_id, turn = table.turn_key
        assert game_id is not None
        now = self.clock.now()
        until = None if kind == "warn" else _dt(now + self._lease)
        won = await self._claims.claim(
            game_id, turn, kind, owner=self._owner, now=_dt(now), until=until
        )
        if won is True:
            return True
        if isinstance(won, datetime):  # someone else holds a lease: look again after it
            self._schedule(table.channel.key, table.turn_key, kind, won.timestamp() + 0.5)
        return False
