"""Delivery: where replies caused by timers, AI turns and re-sends go (one outbox per platform,
or outboxes that see every reply)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from typing import Any

from bot.api import Outbox, Reply
from bot.manager.state import MAX_PENDING, log

YIELD_EVERY = 50  # replies handed out between two yields to the event loop


class Delivery:
    """Hands replies to the adapters' outboxes. Before any outbox is registered (an AI move
    that was due at start-up runs at once, while the adapters are still connecting) replies
    are kept, and sent when one registers."""

    def __init__(self) -> None:
        self._routes: dict[str, Outbox] = {}
        self._broadcast: list[Outbox] = []
        self._pending: list[Reply] = []  # timer and AI replies waiting for an outbox
        self.tasks: set[asyncio.Task[None]] = set()  # background sends (close cancels them)

    def register(self, outbox: Outbox, *, platform: str | None = None) -> None:
        """One outbox per platform (replacing an earlier one), or, without a platform, an
        outbox that sees every reply; then send what was kept for it."""
        if platform is not None:
            self._routes[platform] = outbox
        elif outbox not in self._broadcast:
            self._broadcast.append(outbox)
        if self._pending:
            self.spawn(self._flush_pending())

    def reaches(self, platform: str) -> bool:
        """Whether replies to ``platform`` have somewhere to go now."""
        return platform in self._routes or bool(self._broadcast)

    def spawn(self, job: Coroutine[Any, Any, None]) -> bool:
        """Run ``job`` in the background; False (and ``job`` never runs) when no event loop
        runs yet, so the caller keeps what the job would have sent."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            job.close()
            return False
        task = loop.create_task(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return True

    async def send(self, replies: Sequence[Reply]) -> None:
        """Hand replies of timers, AI turns and re-sends to their platform's outbox."""
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
        for count, reply in enumerate(single, start=1):
            if count % YIELD_EVERY == 0:  # many replies (a re-send): let other work run
                await asyncio.sleep(0)
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
        await self.send(kept)
