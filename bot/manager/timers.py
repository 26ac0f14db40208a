"""What a timer does when it fires: the reminder, the timeout, or a due AI move, if its turn
is still the one being played (checked against storage), then the replies go out."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.api import Reply
from bot.manager.deadlines import Deadlines, TurnKey
from bot.manager.delivery import Delivery
from bot.manager.faults import Faults
from bot.manager.store import Store
from bot.manager.tables import Tables
from bot.manager.turns import Turns
from bot.operations import note_conflict
from storage import ConflictError


class Timers:
    """Runs fired deadlines under the channel's lock. No exception escapes: a failure is
    logged, counted, and the stored game reloaded."""

    def __init__(
        self,
        tables: Tables,
        store: Store,
        deadlines: Deadlines,
        turns: Turns,
        delivery: Delivery,
        faults: Faults,
        *,
        before: Callable[[str], Awaitable[None]],
    ) -> None:
        """``before`` runs first under the channel's lock (the re-send of what a dead process
        left there, so that it goes out before what the timer announces)."""
        self._tables = tables
        self._store = store
        self._deadlines = deadlines
        self._turns = turns
        self._delivery = delivery
        self._faults = faults
        self._before = before

    async def run(self, key: str, turn: TurnKey, kind: str) -> None:
        replies: list[Reply] = []
        async with self._tables.lock(key):
            table = self._tables.get(key)
            if table is None:
                return
            channel = table.channel
            try:
                await self._before(key)
                current = await self._store.fresh(table)
                if current is None or current.game is None or current.game.finished:
                    return
                if current.turn_key != turn:
                    return  # that turn is over (the fresh copy armed its own timers)
                if kind == "ai" and not current.ai_due:
                    return
                if kind != "ai" and not await self._deadlines.claim(current, kind):
                    return  # another process acts on it (run_ai_turns claims AI moves)
                if kind == "warn":
                    replies = await self._turns.warning(current)
                elif kind == "expire":
                    replies = await self._turns.time_out(current)
                else:
                    replies = await self._turns.run_ai_turns(current)
            except ConflictError:
                note_conflict()
                await self._store.reload_quietly(channel)
                return
            except Exception:
                self._faults("the %s timer of %s failed", kind, key)
                await self._store.reload_quietly(channel)
                return
        await self._delivery.send(replies)
