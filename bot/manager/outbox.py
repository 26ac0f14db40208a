"""The outbox: a stored turn's announcements as stored payloads, and the replies that carry
their keys (the confirmations and re-sending are ``bot.manager.resend``).

A turn is saved together with one outbox entry per reply it causes (``storage.outbox``): a
news line is stored as its text; a table, rack or panel message only by its slot, since it is
state and is drawn afresh from the stored game when it has to be sent again. The replies that
go out carry their keys (``Reply.delivers``); adapters confirm them through ``delivered`` once
the platform accepted the message, and the confirmations are written in the background, many
in one UPDATE. ``resume()`` sends every entry still unconfirmed: the news lines as stored, and
for each game with any, its table, every player's rack and the current player's panel as the
stored game shows them now (edited in place by the adapters' stored message ids), a channel at
a time and before anything new of that channel. With several processes on one database
(shared mode) entries are leased to the process that stored them, a starting process sends
only those whose lease ran out, and each sweeps every minute for such entries a process that
died left, claiming them before sending them again the same way (``Resender.sweep``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.api import Button, ChannelRef, PlayerRef, Reply
from storage import OutboxEntry, outbox_key

PRUNE_EVERY = 600.0  # seconds between prunes of delivered entries, while running
# Shared mode (several processes on one database): the entries a process stores are leased to
# it for RESEND_AFTER seconds (its own to deliver); each process sweeps the outbox every
# SWEEP_EVERY seconds (at most a fifth of the lease) for entries whose lease ran out, which a
# process that died left, and claims them with a lease of its own before sending them again.
# Five minutes, because a live sender may hold a message a minute or more (a Telegram group is
# paced at 20 a minute; 429 answers and 5xx retries add their waits; a confirmation is written
# a moment later): one minute would take a slow sender for a dead one and announce its turn
# twice (OUTBOX_LEASE_SECONDS sets it). An entry unconfirmed for SWEEP_GIVES_UP seconds has
# been tried about ten times (a channel the bot lost): sweeps leave it to a restart and the
# prune.
SWEEP_EVERY = 60.0
RESEND_AFTER = 300.0
SWEEP_GIVES_UP = 3600.0
SWEEP_KEY = "outbox:sweep"  # the sweep's timer in the scheduler


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
