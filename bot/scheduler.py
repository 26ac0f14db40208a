"""Timers keyed by name: ``schedule_at(key, when, callback)`` and ``cancel(key)``.

The manager never sleeps; it asks a scheduler. ``AsyncioScheduler`` uses the event loop and the
wall clock; ``ManualScheduler`` is a fake clock for tests that runs due callbacks when told to
``advance`` - both run the same manager code.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.logs import log_internal

Callback = Callable[[], Awaitable[None]]
log = logging.getLogger(__name__)


class Scheduler(Protocol):
    def now(self) -> float: ...

    def schedule_at(self, key: str, when: float, callback: Callback) -> None: ...

    def cancel(self, key: str) -> None: ...


class AsyncioScheduler:
    """Real timers on the running event loop; times are Unix seconds."""

    def __init__(self) -> None:
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def schedule_at(self, key: str, when: float, callback: Callback) -> None:
        self.cancel(key)
        loop = asyncio.get_running_loop()
        delay = max(0.0, when - self.now())

        def fire() -> None:
            self._handles.pop(key, None)
            task = loop.create_task(self._run(key, callback))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._handles[key] = loop.call_later(delay, fire)

    async def _run(self, key: str, callback: Callback) -> None:
        try:
            await callback()
        except Exception:  # a timer must never kill the loop; a bug, so flagged and counted
            log_internal(log, "timer %s failed", key)

    def cancel(self, key: str) -> None:
        handle = self._handles.pop(key, None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for key in list(self._handles):
            self.cancel(key)


class ManualScheduler:
    """A fake clock: nothing fires until ``advance`` moves time past it."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, str]] = []
        self._callbacks: dict[str, tuple[float, int, Callback]] = {}
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    def schedule_at(self, key: str, when: float, callback: Callback) -> None:
        order = next(self._counter)
        self._callbacks[key] = (when, order, callback)
        heapq.heappush(self._queue, (when, order, key))

    def cancel(self, key: str) -> None:
        self._callbacks.pop(key, None)

    def pending(self) -> dict[str, float]:
        return {key: when for key, (when, _, _) in self._callbacks.items()}

    async def advance(self, seconds: float) -> None:
        """Move the clock forward, running every callback that falls due, in time order."""
        target = self._now + seconds
        while self._queue and self._queue[0][0] <= target:
            when, order, key = heapq.heappop(self._queue)
            entry = self._callbacks.get(key)
            if entry is None or entry[1] != order:
                continue
            del self._callbacks[key]
            self._now = max(self._now, when)
            await entry[2]()
        self._now = target
