"""The clock of a game nobody waits for while it is closed (the terminal game against AI
seats): held while it loads, stopped with its time left stored, and given back at the next
start. Chat games never stop their clocks: other people are waiting there."""

from __future__ import annotations

from bot.api import ChannelRef
from bot.manager.deadlines import Deadlines
from bot.manager.lobby import Lobby
from bot.manager.seats import setup_text
from bot.manager.tables import Tables


class Clock:
    """Holds, stops and starts a channel's turn clock (the stored deadline becomes the time
    left while it is stopped)."""

    def __init__(self, tables: Tables, deadlines: Deadlines, lobby: Lobby) -> None:
        self._tables = tables
        self._deadlines = deadlines
        self._lobby = lobby

    def hold(self, channel: ChannelRef) -> None:
        """Load the channel's game without running its clock (no timeout, no AI move) until
        ``start``: the terminal game, which may be cancelled (``--new``) before it goes on.
        Call it before ``resume``."""
        self._deadlines.held.add(channel.key)

    async def stop(self, channel: ChannelRef) -> None:
        """Stop the turn clock of the channel's game and store the time left instead of the
        deadline; ``start`` gives the time back."""
        async with self._tables.lock(channel.key):
            table = self._tables.of(channel)
            game = table.game if table is not None else None
            if table is None or game is None or game.finished or table.game_id is None:
                return
            self._deadlines.cancel(table)
            if table.paused_left is None:
                now = self._deadlines.clock.now()
                due = now if table.deadline is None or table.ai_due else table.deadline
                table.paused_left = max(0.0, due - now)
            table.deadline = None
            await self._lobby.save_seats(table, (), setup=setup_text(table))

    async def start(self, channel: ChannelRef) -> None:
        """Run the clock of the channel's game again: a stopped clock gets its time left back,
        then the timers are armed (a due AI move runs at once, its replies going to the
        outbox)."""
        self._deadlines.held.discard(channel.key)
        async with self._tables.lock(channel.key):
            table = self._tables.of(channel)
            if table is None or table.game is None or table.game_id is None:
                return
            if table.paused_left is not None:
                left = 0.0 if table.ai_due else table.paused_left
                table.deadline = self._deadlines.clock.now() + left
                table.paused_left = None
                await self._lobby.save_seats(table, (), setup=setup_text(table))
            self._deadlines.arm(table)
