"""What the platforms said to the messages that carried outbox entries (``GameService.report``):
a send that failed for now (a timeout, a 5xx, a rate limit) is tried again soon, then after
longer and longer waits; one refused for good (the chat is gone, the bot was removed) is marked
refused at once and never sent again. Neither waits for the five-minute sweep."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Sequence
from functools import partial

from bot.manager.faults import Faults
from bot.manager.state import log
from bot.scheduler import Scheduler
from storage import Database

RETRY_AFTER = (5.0, 30.0, 120.0, 600.0)  # seconds before each try again after a failure
RETRY_KEY = "outbox:retry:"  # the retries' timers in the scheduler


class Retries:
    """Schedules the tries again of failed sends (``failed``) and marks refused ones; once a
    send succeeds or is refused its tries are forgotten. After the last wait of
    ``RETRY_AFTER`` an entry is left to the sweeps (shared mode) and the next start."""

    def __init__(
        self,
        db: Database,
        clock: Scheduler,
        faults: Faults,
        send_again: Callable[[list[str]], Awaitable[None]],
    ) -> None:
        """``send_again`` sends the entries of these keys again (``Resender.retry``)."""
        self._db = db
        self._clock = clock
        self._faults = faults
        self._send_again = send_again
        self._failures: dict[str, int] = {}  # outbox key -> failed sends so far
        self._waiting: set[str] = set()  # keys with a try again scheduled
        self._timers: set[str] = set()
        self._numbers = itertools.count()

    def failed(self, keys: Sequence[str]) -> None:
        """The platform failed to send these for now: each is tried again after the wait
        for its count of failures (5 s, 30 s, 2 min, 10 min), then left to the sweeps."""
        waits: dict[float, list[str]] = {}
        for key in dict.fromkeys(keys):
            failures = self._failures.get(key, 0) + 1
            if failures > len(RETRY_AFTER):
                self.settled([key])
                log.warning("outbox entry %s failed %d times; left to the sweeps", key, failures)
                continue
            self._failures[key] = failures
            self._waiting.add(key)
            waits.setdefault(RETRY_AFTER[failures - 1], []).append(key)
        for wait, batch in waits.items():
            timer = f"{RETRY_KEY}{next(self._numbers)}"
            self._timers.add(timer)
            self._clock.schedule_at(
                timer, self._clock.now() + wait, partial(self._due, timer, batch)
            )

    def settled(self, keys: Sequence[str]) -> None:
        """These were delivered or refused: no try again."""
        for key in keys:
            self._failures.pop(key, None)
            self._waiting.discard(key)

    async def refused(self, keys: Sequence[str]) -> None:
        """The platform refused these for good: marked refused at once, never sent again."""
        self.settled(keys)
        try:
            await self._db.outbox.refuse(keys)
        except Exception:  # a bug or the database away: the entries are sent again later
            self._faults("cannot mark %d outbox entries refused", len(keys))

    def close(self) -> None:
        """No try again starts (the entries stay unconfirmed for the next start)."""
        for timer in self._timers:
            self._clock.cancel(timer)
        self._timers.clear()
        self._waiting.clear()

    async def _due(self, timer: str, batch: list[str]) -> None:
        self._timers.discard(timer)
        due = [key for key in batch if key in self._waiting]
        self._waiting.difference_update(due)
        if due:
            await self._send_again(due)
