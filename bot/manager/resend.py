"""Delivery confirmations and sending again what no platform confirmed: at start-up, and in
shared mode (several processes on one database) by a sweep every minute for what a process
that died left (see ``bot.manager.outbox`` for the stored entries)."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from datetime import timedelta

from bot.api import ChannelRef, Reply
from bot.manager.delivery import Delivery
from bot.manager.faults import Faults
from bot.manager.outbox import (
    PRUNE_EVERY,
    RESEND_AFTER,
    SWEEP_EVERY,
    SWEEP_GIVES_UP,
    SWEEP_KEY,
    is_view,
    news_reply,
)
from bot.manager.state import LiveTable, _dt, log
from bot.manager.store import Store
from bot.manager.tables import Tables
from bot.manager.views import Views
from bot.scheduler import Scheduler
from storage import Database, OutboxEntry
from storage.outbox import UnconfirmedGame, parse_key


class Resender:
    """Writes delivery confirmations (in the background, many in one UPDATE) and sends again
    the stored announcements no platform confirmed, with the views drawn afresh."""

    def __init__(
        self,
        db: Database,
        tables: Tables,
        store: Store,
        views: Views,
        delivery: Delivery,
        clock: Scheduler,
        faults: Faults,
        *,
        shared: bool,
        owner: str,
        lease: float = RESEND_AFTER,
        changed: Callable[[str], None] = lambda key: None,
    ) -> None:
        """``lease``: how long an entry is its sender's (as long as a live sender may take to
        deliver it; shared mode); ``changed`` is told of each channel whose game a re-send
        read again (open boards read it too)."""
        self._db = db
        self._tables = tables
        self._store = store
        self._views = views
        self._delivery = delivery
        self._clock = clock
        self._faults = faults
        self._shared = shared
        self._owner = owner
        self._lease = lease
        self._changed = changed
        self._confirmed: set[str] = set()  # outbox keys delivered, not yet marked so
        self._confirming: asyncio.Task[None] | None = None
        self._pruned_at = 0.0
        # the games found unconfirmed at start-up, per channel; sent once an outbox is set
        self._unsent: dict[str, tuple[ChannelRef, list[UnconfirmedGame]]] = {}
        self._sweeping: asyncio.Task[None] | None = None
        self._closed = False

    # ----- confirmations -------------------------------------------------------------------

    async def delivered(self, keys: Sequence[str]) -> None:
        """The platform accepted the messages carrying these outbox entries: they are marked
        delivered in the background (a crash before that only sends them once more)."""
        self._confirmed.update(keys)
        if self._confirming is None or self._confirming.done():
            self._confirming = asyncio.get_running_loop().create_task(self._write_confirmed())

    async def _write_confirmed(self) -> None:
        while self._confirmed:
            batch = sorted(self._confirmed)
            self._confirmed.difference_update(batch)
            try:
                await self._db.outbox.mark_delivered(batch)
                if time.monotonic() - self._pruned_at > PRUNE_EVERY:
                    self._pruned_at = time.monotonic()
                    await self._db.outbox.prune()
            except Exception:  # a bug or the database away; not lost: sent again after a restart
                self._faults("could not mark %d outbox entries delivered", len(batch))

    async def flush_confirmed(self) -> None:
        """Wait until every confirmation so far is written (at shutdown)."""
        while self._confirming is not None and not self._confirming.done():
            await asyncio.shield(self._confirming)

    # ----- at start-up ---------------------------------------------------------------------

    async def load_unconfirmed(self) -> int:
        """At start-up: find which games' announcements no platform confirmed (the process
        died in between), per channel; only counts are read now, the entries themselves a
        page at a time as they are sent. They are sent once their platform's outbox is
        registered (``start``); a manager that never gets one (a check, a test) draws nothing.
        Old delivered entries are pruned. The count of entries.

        Read before any timer is armed: what a channel's timer or command announces next
        goes out after what was found here (``before``)."""
        try:
            await self._db.outbox.prune()
            self._pruned_at = time.monotonic()
            found = await self._db.outbox.unconfirmed_games()
        except Exception:
            self._faults("cannot read the outbox")
            return 0
        for game in found:
            channel = ChannelRef(game.platform, game.channel_id)
            self._unsent.setdefault(channel.key, (channel, []))[1].append(game)
        return sum(game.count for game in found)

    def start(self) -> None:
        """Send again the unconfirmed entries of every platform that has an outbox now, one
        channel at a time."""
        ready = [
            key
            for key, (channel, _) in self._unsent.items()
            if self._delivery.reaches(channel.platform)
        ]
        if ready:
            self._delivery.spawn(self._resend_channels(ready))

    async def _resend_channels(self, keys: list[str]) -> None:
        """Send again what was found for these channels, each under its channel's lock (a
        channel a command or timer sent again first is skipped), letting other work run
        between channels."""
        total = sum(g.count for key in keys for g in self._unsent.get(key, (None, []))[1])
        log.info("sending again %d outbox entries of %d channels", total, len(keys))
        for key in keys:
            await asyncio.sleep(0)  # a free lock is taken without yielding
            async with self._tables.lock(key):
                await self._send_found(key)

    async def before(self, key: str) -> None:
        """Called by every command and timer of a channel under its lock, before it runs:
        what was found unconfirmed there at start-up goes out first, so the channel sees its
        turns in order (a timer due at the restart must not announce the next turn before
        the re-sent one)."""
        if key in self._unsent:
            await self._send_found(key)

    async def _send_found(self, key: str) -> None:
        """Send again the games found unconfirmed at start-up in this channel, if not done
        yet (the caller holds the channel's lock), a page of entries at a time."""
        _, games = self._unsent.pop(key, (None, []))
        for game in games:
            await self._claim_and_send(game)

    async def _claim_and_send(self, game: UnconfirmedGame, *, sweeping: bool = False) -> None:
        """Send again a game's unconfirmed entries (the caller holds the channel's lock). In
        shared mode only those this process claims: entries whose lease ran out (their
        writer, or the process that claimed them last, died or took longer than a live
        sender does), so that of several processes exactly one sends each, and none sends
        what a live one is delivering."""
        channel = ChannelRef(game.platform, game.channel_id)
        if not self._shared:
            pages = self._db.outbox.pages(game_id=game.game_id)
            await self._send_game(channel, game.game_id, pages)
            return
        now = self._clock.now()
        until = _dt(now + self._lease)
        try:
            won = await self._db.outbox.claim(
                game.game_id,
                owner=self._owner,
                now=_dt(now),
                until=until,
                younger_than=timedelta(seconds=SWEEP_GIVES_UP) if sweeping else None,
            )
        except Exception:
            self._faults("cannot claim the outbox of game %s", game.game_id)
            return
        if won:
            claimed = (self._owner, until)
            pages = self._db.outbox.pages(game_id=game.game_id, claimed=claimed)
            await self._send_game(channel, game.game_id, pages)

    # ----- sweeps (shared mode) ------------------------------------------------------------

    def arm_sweep(self) -> None:
        """Schedule the next sweep (shared mode only: one SQLite process has nobody to
        cover for, and sends what is unconfirmed at its start)."""
        if self._shared and not self._closed:
            when = self._clock.now() + min(SWEEP_EVERY, self._lease / 5)
            self._clock.schedule_at(SWEEP_KEY, when, self._sweep_due)

    def close(self) -> None:
        """No sweep starts again; one under way is cancelled with the other tasks."""
        self._closed = True
        self._clock.cancel(SWEEP_KEY)

    async def _sweep_due(self) -> None:
        """The sweep's timer: arm the next one, then sweep (as a task that ``close`` cancels;
        one at a time)."""
        self.arm_sweep()
        if self._closed or (self._sweeping is not None and not self._sweeping.done()):
            return
        task = asyncio.get_running_loop().create_task(self.sweep())
        self._sweeping = task
        self._delivery.tasks.add(task)
        task.add_done_callback(self._delivery.tasks.discard)
        await asyncio.wait({task})

    async def sweep(self) -> None:
        """Send again what another process stored and never saw confirmed (it died, or it
        died while sending such entries again), or what this one handed out and its lease ran
        out on: entries of platforms this process sends to whose lease ran out, written less
        than ``SWEEP_GIVES_UP`` ago. Each game's entries are claimed as at start-up."""
        now = _dt(self._clock.now())
        try:
            games = await self._db.outbox.claimable(
                now=now, younger_than=timedelta(seconds=SWEEP_GIVES_UP)
            )
        except Exception:  # a bug or the database away; the next sweep looks again
            self._faults("cannot read the outbox; the next sweep tries again")
            return
        for game in games:
            if not self._delivery.reaches(game.platform):
                continue
            key = ChannelRef(game.platform, game.channel_id).key
            async with self._tables.lock(key):
                await self.before(key)
                await self._claim_and_send(game, sweeping=True)

    async def retry(self, keys: list[str]) -> None:
        """Send again these entries, whose send failed for now (``bot.manager.retries``):
        those still undelivered and this process's own, or free (a lease that ran out), are
        claimed anew and sent as at start-up, under their channel's lock."""
        games: dict[int, list[str]] = {}
        for key in keys:
            parsed = parse_key(key)
            if parsed is not None:
                games.setdefault(parsed[0], []).append(key)
        for game_id, batch in games.items():
            now = self._clock.now()
            until = _dt(now + self._lease)
            try:
                owner = self._owner
                if not await self._db.outbox.claim_keys(
                    batch, owner=owner, now=_dt(now), until=until
                ):
                    continue  # delivered meanwhile, or another process took them over
                entries = [
                    entry
                    async for page in self._db.outbox.pages(game_id=game_id, claimed=(owner, until))
                    for entry in page
                ]
            except Exception:
                self._faults("cannot try again the outbox of game %s", game_id)
                continue
            if not entries:
                continue
            channel = channel_of(entries[0])
            async with self._tables.lock(channel.key):
                await self.before(channel.key)
                await self._send_game(channel, game_id, as_pages(entries))

    # ----- sending again -------------------------------------------------------------------

    async def _send_game(
        self, channel: ChannelRef, game_id: int, pages: AsyncIterator[list[OutboxEntry]]
    ) -> None:
        """Send again one game's unconfirmed entries (the caller holds the channel's lock, so
        no command or timer of the channel runs meanwhile): its news lines as stored, a page
        at a time, in the order written, then its views drawn once from the stored game."""
        views: list[OutboxEntry] = []
        try:
            if self._shared:  # another process may have played on
                await self._store.current(channel)
            async for page in pages:
                views.extend(e for e in page if is_view(e.payload))
                await self._delivery.send([news_reply(e) for e in page if not is_view(e.payload)])
            if views:
                await self._delivery.send(await self._views_of(channel, game_id, views))
        except Exception:
            self._faults("cannot send again the outbox of game %s", game_id)
        finally:
            self._changed(channel.key)

    async def _views_of(
        self, channel: ChannelRef, game_id: int, views: list[OutboxEntry]
    ) -> list[Reply]:
        """One game's views as replies drawn from the stored game now, each carrying the keys
        of the entries it stands for."""
        table = self._tables.get(channel.key)
        if table is None or table.game_id != game_id:  # a game that ended since
            table = await self._store.from_record(await self._db.games.load(game_id))
        return await self._redrawn(table, views)

    async def _redrawn(self, table: LiveTable, views: list[OutboxEntry]) -> list[Reply]:
        """The table, every player's rack and the current player's panel of ``table`` now,
        confirming ``views`` (a view for a seat no longer shown goes with the table)."""
        game = table.game
        assert game is not None
        shown: list[tuple[str, str | None, Reply]] = [
            ("table", None, await self._views.table(table))
        ]
        for seat, info in enumerate(table.seats):
            if info.player is not None:
                shown.append(("rack", info.player.user_id, await self._views.rack(table, seat)))
        current = table.current_seat
        if not game.finished and current is not None and current.player is not None:
            reply = await self._views.panel(table, game.current)
            shown.append(("panel", current.player.user_id, reply))
        places: dict[tuple[object, object], int] = {
            (slot, to): i for i, (slot, to, _) in reversed(list(enumerate(shown)))
        }
        keys: dict[int, list[str]] = defaultdict(list)
        for entry in views:
            slot, to = entry.payload.get("slot"), entry.payload.get("to")
            keys[places.get((slot, to), 0)].append(entry.key)
        return [replace(reply, delivers=tuple(keys[i])) for i, (_, _, reply) in enumerate(shown)]


def channel_of(entry: OutboxEntry) -> ChannelRef:
    return ChannelRef(entry.platform, entry.channel_id)


async def as_pages(entries: list[OutboxEntry]) -> AsyncIterator[list[OutboxEntry]]:
    """Entries already read, as one page."""
    yield entries
