"""The outbox room: a stored turn's announcements, confirmed once a platform accepted them,
and sent again (with the views refreshed) after a restart, or by a sweep of another process.

A turn is saved together with one outbox entry per reply it causes (``storage.outbox``): a
news line is stored as its text; a table, rack or panel message only by its slot, since it is
state and is drawn afresh from the stored game when it has to be sent again. The replies that
go out carry their keys (``Reply.delivers``); adapters confirm them through ``delivered`` once
the platform accepted the message, and the confirmations are written in the background, many
in one UPDATE. ``resume()`` sends every entry still unconfirmed: the news lines as stored, and
for each game with any, its table, every player's rack and the current player's panel as the
stored game shows them now (edited in place by the adapters' stored message ids). With several
processes on one database (shared mode) each also sweeps every minute for entries a process
that died left unconfirmed, and sends them again the same way (``_sweep``).
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from bot.api import Button, ChannelRef, PlayerRef, Reply
from bot.manager.state import LiveTable, _dt, log
from storage import OutboxEntry, outbox_key

PRUNE_EVERY = 600.0  # seconds between prunes of delivered entries, while running
# Shared mode (several processes on one database): each process sweeps the outbox every
# SWEEP_EVERY seconds for entries unconfirmed for RESEND_AFTER seconds, which a process that
# died left. Five minutes, because a live sender may hold a message a minute or more (a Telegram
# group is paced at 20 a minute; 429 answers and 5xx retries add their waits; a confirmation is
# written a moment later): one minute would take a slow sender for a dead one and announce
# its turn twice. It is also the lease of a re-send's claim, and how long this process leaves
# alone an entry it handed to an adapter itself. An entry unconfirmed for SWEEP_GIVES_UP
# seconds has been tried about ten times (a channel the bot lost): sweeps leave it to a
# restart and the prune.
SWEEP_EVERY = 60.0
RESEND_AFTER = 300.0
SWEEP_GIVES_UP = 3600.0
SWEEP_KEY = "outbox:sweep"  # the sweep's timer in the scheduler
MAX_HANDED = 10_000  # keys handed out and unconfirmed kept in memory, at most about


@dataclass(frozen=True, slots=True)
class Later:
    """A reply drawn only once its turn is stored (a view: pictures take time, and a failure
    to draw one must not undo the turn), with its outbox payload known before."""

    payload: dict[str, Any]
    make: Callable[[], Awaitable[Reply]]


def view(slot: str, to: PlayerRef | None, make: Callable[[], Awaitable[Reply]]) -> Later:
    return Later({"slot": slot, "to": to.user_id if to else None}, make)


async def drawn(items: Sequence[Reply | Later]) -> list[Reply]:
    return [item if isinstance(item, Reply) else await item.make() for item in items]


def as_written(reply: Reply) -> Later:
    """A reply with a slot that is stored and sent again as it is, not drawn again: a
    cancelled game's last table message is news (the game it showed no longer runs)."""

    async def make() -> Reply:
        return reply

    return Later({**_news(reply), "slot": reply.slot}, make)


def _news(reply: Reply) -> dict[str, Any]:
    to = reply.private_to
    payload: dict[str, Any] = {"text": reply.text}
    if to is not None:
        payload["to"] = [to.user_id, to.display_name]
    if reply.mentions:
        payload["mentions"] = [[p.user_id, p.display_name] for p in reply.mentions]
    if reply.buttons:
        payload["buttons"] = [[[b.label, b.command, b.style] for b in row] for row in reply.buttons]
    return payload


def announcements(replies: Sequence[Reply | Later]) -> list[dict[str, Any]]:
    """The outbox payloads of a turn's replies (no image bytes: views are re-drawn)."""
    payloads: list[dict[str, Any]] = []
    for reply in replies:
        if isinstance(reply, Later):
            payloads.append(reply.payload)
        elif reply.slot is not None:
            to = reply.private_to
            payloads.append({"slot": reply.slot, "to": to.user_id if to else None})
        else:
            payloads.append(_news(reply))
    return payloads


def is_view(payload: dict[str, Any]) -> bool:
    """Whether an entry is a view drawn again from the stored game (a slot and no text)."""
    return "slot" in payload and "text" not in payload


def keyed(game_id: int, version: int, replies: Sequence[Reply]) -> list[Reply]:
    """The replies, each carrying the key of its entry (as ``announcements`` wrote them)."""
    return [
        replace(reply, delivers=(outbox_key(game_id, version, seq),))
        for seq, reply in enumerate(replies)
    ]


def news_reply(entry: OutboxEntry) -> Reply:
    """A stored news line (in its slot, for one stored ``as_written``) as the reply to send
    again."""
    payload = entry.payload
    platform = entry.platform

    def person(pair: Sequence[str]) -> PlayerRef:
        return PlayerRef(platform, str(pair[0]), str(pair[1]))

    to = payload.get("to")
    slot = payload.get("slot")
    return Reply(
        ChannelRef(platform, entry.channel_id),
        str(payload.get("text", "")),
        private_to=person(to) if to else None,
        slot=str(slot) if slot else None,
        mentions=tuple(person(p) for p in payload.get("mentions", ())),
        buttons=tuple(
            tuple(Button(str(b[0]), str(b[1]), str(b[2])) for b in row)
            for row in payload.get("buttons", ())
        ),
        delivers=(entry.key,),
    )


class OutboxRoom:
    """Delivery confirmations and re-sending.

    A part of :class:`bot.manager.GameManager`; it works on the manager's state."""

    _confirmed: set[str]
    _confirming: asyncio.Task[None] | None
    _pruned_at: float
    _handed: dict[str, float]  # shared mode: keys handed to an adapter, when; not confirmed
    _sweeping: asyncio.Task[None] | None
    _closed: bool

    async def delivered(self, keys: Sequence[str]) -> None:
        """The platform accepted the messages carrying these outbox entries: they are marked
        delivered in the background (a crash before that only sends them once more)."""
        self._confirmed.update(keys)
        for key in keys:
            self._handed.pop(key, None)
        if self._confirming is None or self._confirming.done():
            self._confirming = asyncio.get_running_loop().create_task(self._write_confirmed())

    async def _write_confirmed(self) -> None:
        while self._confirmed:
            batch = sorted(self._confirmed)
            self._confirmed.difference_update(batch)
            try:
                await self.db.outbox.mark_delivered(batch)
                if time.monotonic() - self._pruned_at > PRUNE_EVERY:
                    self._pruned_at = time.monotonic()
                    await self.db.outbox.prune()
            except Exception:  # a bug or the database away; not lost: sent again after a restart
                self._internal("could not mark %d outbox entries delivered", len(batch))

    async def flush_confirmed(self) -> None:
        """Wait until every confirmation so far is written (at shutdown)."""
        while self._confirming is not None and not self._confirming.done():
            await asyncio.shield(self._confirming)

    async def _load_unconfirmed(self) -> int:
        """At start-up: read what stored turns announced and no platform confirmed (the
        process died in between). It is sent once its platform's outbox is registered
        (``_start_resend``); a manager that never gets one (a check, a test) draws nothing.
        Old delivered entries are pruned. The count of entries."""
        try:
            await self.db.outbox.prune()
            self._pruned_at = time.monotonic()
            entries = await self.db.outbox.pending()
        except Exception:
            self._internal("cannot read the outbox")
            return 0
        self._unsent.extend(entries)
        self._start_resend()
        return len(entries)

    def _start_resend(self) -> None:
        """Send again the unconfirmed entries of every platform that has an outbox now."""
        ready = [e for e in self._unsent if e.platform in self._routes or self._broadcast]
        if not ready:
            return
        self._unsent = [e for e in self._unsent if e not in ready]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet: kept for the next registration
            self._unsent.extend(ready)
            return
        task = loop.create_task(self._resend(ready))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _hand(self, replies: Sequence[Reply]) -> None:
        """Note the keys of replies this process hands to an adapter now (shared mode): its
        sweeps leave them alone for ``RESEND_AFTER`` while the adapter delivers them."""
        if not self.shared:
            return
        now = self.scheduler.now()
        if len(self._handed) > MAX_HANDED:  # no sweep forgets them (a manager not resumed)
            self._handed = {k: at for k, at in self._handed.items() if now - at < RESEND_AFTER}
        for reply in replies:
            for key in reply.delivers:
                self._handed[key] = now

    def _arm_sweep(self) -> None:
        """Schedule the next sweep (shared mode only: one SQLite process has nobody to
        cover for, and sends what is unconfirmed at its start)."""
        if self.shared and not self._closed:
            when = self.scheduler.now() + SWEEP_EVERY
            self.scheduler.schedule_at(SWEEP_KEY, when, self._sweep_due)

    async def _sweep_due(self) -> None:
        """The sweep's timer: arm the next one, then sweep (as a task that ``close`` cancels;
        one at a time)."""
        self._arm_sweep()
        if self._closed or (self._sweeping is not None and not self._sweeping.done()):
            return
        task = asyncio.get_running_loop().create_task(self._sweep())
        self._sweeping = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        await asyncio.wait({task})

    async def _sweep(self) -> None:
        """Send again what another process stored and never saw confirmed (it died, or it
        died while sending such entries again): entries unconfirmed for ``RESEND_AFTER`` of
        platforms this process sends to, except what this process itself handed to an adapter
        less than that ago (it is still being delivered; adapters report no failure, so after
        that it is taken for lost). Each game's re-send is claimed as at start-up."""
        now = self.scheduler.now()
        for key, at in list(self._handed.items()):
            if now - at >= RESEND_AFTER:
                del self._handed[key]
        try:
            entries = await self.db.outbox.pending(
                older_than=timedelta(seconds=RESEND_AFTER),
                younger_than=timedelta(seconds=SWEEP_GIVES_UP),
                now=_dt(now),
            )
        except Exception:  # a bug or the database away; the next sweep looks again
            self._internal("cannot read the outbox; the next sweep tries again")
            return
        ready = [
            e
            for e in entries
            if e.key not in self._handed and (e.platform in self._routes or self._broadcast)
        ]
        if ready:
            await self._resend(ready)

    async def _resend(self, entries: list[OutboxEntry]) -> None:
        games: dict[int, list[OutboxEntry]] = defaultdict(list)
        for entry in entries:
            games[entry.game_id].append(entry)
        log.info("sending again %d outbox entries of %d games", len(entries), len(games))
        for game_id, pending in games.items():
            if not await self._claim_resend(game_id, pending):
                continue  # another process that found them too sends them
            channel = ChannelRef(pending[0].platform, pending[0].channel_id)
            async with self._lock(channel.key):  # the views are drawn as no command changes them
                try:
                    if self.shared:  # another process may have confirmed some, or played on
                        still = {e.key for e in await self.db.outbox.pending(game_id=game_id)}
                        pending = [e for e in pending if e.key in still]
                        await self._current(channel)
                    replies = await self._resent(game_id, pending) if pending else []
                except Exception:
                    self._internal("cannot send again the outbox of game %s", game_id)
                    continue
                finally:
                    self.boards.changed(channel.key)
            await self._send(replies)

    async def _claim_resend(self, game_id: int, pending: list[OutboxEntry]) -> bool:
        """Whether this process sends a game's unconfirmed entries again. With several
        processes on one database (shared mode) each finds them at its start; the one that
        claims them (a lease on the newest entry's version, as deadlines are claimed) sends
        them, so a turn is not announced once per process. The lease is ``RESEND_AFTER``, as
        long as a live sender may take: a claimer that died is taken over after it (by a
        sweep); one that is merely slow is not doubled."""
        if not self.shared:
            return True
        now = self.scheduler.now()
        newest = max(entry.version for entry in pending)
        try:
            won = await self.claims.claim(
                game_id,
                newest,
                "resend",
                owner=self.owner,
                now=_dt(now),
                until=_dt(now + RESEND_AFTER),
            )
        except Exception:
            self._internal("cannot claim the outbox of game %s", game_id)
            return False
        return won is True

    async def _resent(self, game_id: int, pending: list[OutboxEntry]) -> list[Reply]:
        """One game's unconfirmed entries as replies: its news lines as stored, then its
        views drawn from the stored game, each carrying the keys of the entries it stands for."""
        news = [news_reply(e) for e in pending if not is_view(e.payload)]
        views = [e for e in pending if is_view(e.payload)]
        first = pending[0]
        table = self.tables.get(ChannelRef(first.platform, first.channel_id).key)
        if table is None or table.game_id != game_id:  # a game that ended since
            if not views:
                return news
            table = await self._table_from_record(await self.games.load(game_id))
        return news + await self._views(table, views)

    async def _views(self, table: LiveTable, views: list[OutboxEntry]) -> list[Reply]:
        """The table, every player's rack and the current player's panel of ``table`` now,
        confirming ``views`` (a view for a seat no longer shown goes with the table)."""
        game = table.game
        assert game is not None
        shown: list[tuple[str, str | None, Reply]] = [
            ("table", None, await self._table_reply(table))
        ]
        for seat, info in enumerate(table.seats):
            if info.player is not None:
                shown.append(("rack", info.player.user_id, await self._rack_reply(table, seat)))
        current = table.current_seat
        if not game.finished and current is not None and current.player is not None:
            reply = await self._panel_reply(table, game.current)
            shown.append(("panel", current.player.user_id, reply))
        keys: dict[int, list[str]] = defaultdict(list)
        for entry in views:
            slot, to = entry.payload.get("slot"), entry.payload.get("to")
            index = next((i for i, (s, o, _) in enumerate(shown) if (s, o) == (slot, to)), 0)
            keys[index].append(entry.key)
        return [replace(reply, delivers=tuple(keys[i])) for i, (_, _, reply) in enumerate(shown)]
