"""Sending what board actions caused in the chat, in order, without making the board wait."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence

from bot.api import Reply
from bot.logs import log_internal

log = logging.getLogger(__name__)

Deliver = Callable[[Sequence[Reply]], Awaitable[None]]
MAX_WAITING = 200  # batches waiting for one channel; more means that chat is not taking them


class Deliveries:
    """One queue per channel: a board answers at once, and the chat gets the replies of its
    actions one batch after another, in the order the actions ran."""

    def __init__(self, deliver: Deliver) -> None:
        self._deliver = deliver
        self._queues: dict[str, deque[list[Reply]]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    def put(self, channel: str, replies: Sequence[Reply]) -> None:
        if not replies:
            return
        queue = self._queues.setdefault(channel, deque())
        if len(queue) >= MAX_WAITING:
            log.warning("board replies for %s are not being taken; dropping the oldest", channel)
            queue.popleft()
        queue.append(list(replies))
        if channel not in self._workers:
            self._workers[channel] = asyncio.get_running_loop().create_task(self._work(channel))

    async def _work(self, channel: str) -> None:
        queue = self._queues[channel]
        try:
            while queue:
                batch = queue.popleft()
                try:
                    await self._deliver(batch)
                except Exception:  # an adapter's bug must not stop the next batches
                    log_internal(log, "could not send a board action's replies to %s", channel)
        finally:
            self._workers.pop(channel, None)
            if not queue:
                self._queues.pop(channel, None)

    async def drain(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for what is queued, then stop."""
        workers = list(self._workers.values())
        if workers:
            await asyncio.wait(workers, timeout=timeout)
        for worker in list(self._workers.values()):
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker
