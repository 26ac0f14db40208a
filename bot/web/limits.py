"""How much one caller may ask of the board's server: requests per second and open streams."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

RATE = 10.0  # requests a second, sustained, per viewer (or per address before sign-in)
BURST = 40.0  # requests at once after a quiet spell
MAX_CALLERS = 20_000  # callers remembered; the longest quiet are forgotten first
STREAMS_PER_VIEWER = 4  # open change streams for one person at one board (tabs, reconnects)
MAX_STREAMS = 5_000  # open change streams in all


class RateLimit:
    """A token bucket per caller: ``allow(key)`` takes one request's token or says no."""

    def __init__(
        self,
        rate: float = RATE,
        burst: float = BURST,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key: tokens, at

    def allow(self, key: str) -> bool:
        now = self._clock()
        tokens, at = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > MAX_CALLERS:
            self._buckets.popitem(last=False)
        return allowed


class Streams:
    """Counts open change streams, per viewer and in all."""

    def __init__(self, per_viewer: int = STREAMS_PER_VIEWER, most: int = MAX_STREAMS) -> None:
        self.per_viewer = per_viewer
        self.most = most
        self._open: dict[str, int] = {}
        self.total = 0

    def open(self, key: str) -> bool:
        """Count a new stream for ``key``, unless that is one too many."""
        if self.total >= self.most or self._open.get(key, 0) >= self.per_viewer:
            return False
        self._open[key] = self._open.get(key, 0) + 1
        self.total += 1
        return True

    def close(self, key: str) -> None:
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)
        self.total = max(0, self.total - 1)
