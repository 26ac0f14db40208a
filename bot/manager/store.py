"""Memory from the stored game: resume at start-up, lobbies, reloads and version checks."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC
from typing import Any

from bot.api import ChannelRef, PlayerRef
from bot.manager.outbox import SWEEP_KEY
from bot.manager.state import (
    LiveTable,
    SeatInfo,
    log,
)
from engine import Game, Match, Rules, RummikubError
from engine.scoring import EndReason


class StoreRoom:
    """Rebuilding live tables from storage.

    A part of :class:`bot.manager.GameManager`; it works on the manager's state."""

    async def resume(self) -> int:
        """Load every unfinished game from storage and re-arm its timer, and reopen every
        stored lobby; then send again what stored turns announced and no platform confirmed
        (``OutboxRoom._load_unconfirmed``). Returns the count of games and lobbies."""
        if not self.shared:
            log.info(
                "deadline leases are off (%s): run one bot process on this database",
                self.db.dialect,
            )
        stored = await self.games.list_active(with_actions=True)
        for record in stored:
            try:
                table = await self._table_from_record(record)
            except Exception:
                self._internal("cannot resume game %s", record.id)
                continue
            self.tables[table.channel.key] = table
            self._arm_timers(table)
        count = len(stored) + await self._resume_lobbies()
        await self._load_unconfirmed()
        self._arm_sweep()  # shared mode: what a process that dies later leaves is sent too
        return count

    async def _resume_lobbies(self) -> int:
        """Reopen every stored lobby whose channel has no game; forget the stale ones."""
        count = 0
        for platform, chat_id, data in await self.lobbies.list_all():
            channel = ChannelRef(platform, chat_id)
            if channel.key in self.tables:
                await self.lobbies.delete(platform, chat_id)
                continue
            try:
                self.tables[channel.key] = self._lobby_from_data(channel, data)
                count += 1
            except Exception:
                self._internal("cannot reopen the lobby of %s", channel.key)
        return count

    def _lobby_data(self, channel: ChannelRef) -> dict[str, Any] | None:
        """The channel's lobby as stored data, or None when it has no table in its lobby."""
        table = self.tables.get(channel.key)
        if table is None or table.phase != "lobby":
            return None
        return {
            "host": {"user_id": table.host.user_id, "name": table.host.display_name},
            "rules": table.rules.to_text(),
            "lang": table.lang,
            "away_after": table.away_after,
            "seats": [
                {
                    "user_id": seat.player.user_id if seat.player else None,
                    "name": seat.name,
                    "ai": seat.ai,
                    "waiting": seat.waiting,
                }
                for seat in table.seats
            ],
        }

    @staticmethod
    def _lobby_from_data(channel: ChannelRef, data: dict[str, Any]) -> LiveTable:
        host = PlayerRef(channel.platform, data["host"]["user_id"], data["host"]["name"])
        table = LiveTable(channel, host, Rules.from_text(data["rules"]), lang=data["lang"])
        table.away_after = data.get("away_after")
        for seat in data["seats"]:
            player = (
                None
                if seat["user_id"] is None
                else PlayerRef(channel.platform, seat["user_id"], seat["name"])
            )
            table.seats.append(
                SeatInfo(player, seat["ai"], seat["name"], waiting=bool(seat.get("waiting")))
            )
        return table

    async def _store_lobby(self, channel: ChannelRef, before: dict[str, Any] | None) -> None:
        """Save the channel's lobby when a command changed it (delete it once dealt or
        cancelled). A lobby is cheap to open again, so a storage failure is only logged."""
        after = self._lobby_data(channel)
        if after == before:
            return
        try:
            if after is None:
                await self.lobbies.delete(channel.platform, channel.chat_id)
            else:
                await self.lobbies.save(channel.platform, channel.chat_id, after)
        except Exception:
            self._internal("cannot store the lobby of %s", channel.key)

    async def close(self) -> None:
        self._closed = True  # no sweep starts again; one under way is cancelled below
        self.scheduler.cancel(SWEEP_KEY)
        for table in self.tables.values():
            self._cancel_timers(table)
        tasks = list(self._tasks)  # sending again or flushing kept replies: their entries stay
        for task in tasks:  # unconfirmed, so the next start sends them
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.flush_confirmed()

    # ----- restart -------------------------------------------------------------------------

    async def _table_from_record(self, record: Any) -> LiveTable:
        """Rebuild a live table from its stored game alone (see ``describe``)."""
        setup = json.loads(record.setup)
        rules = Rules.from_text(setup["rules"])
        channel = ChannelRef(record.platform, record.channel_id)
        host = PlayerRef(record.platform, setup["host"]["user_id"], setup["host"]["name"])
        seats = []
        for s in record.seats:
            if s.ai is None:
                person = PlayerRef(record.platform, s.player_id, s.name)
                seats.append(SeatInfo(person, None, s.name, missed=s.missed))
            elif s.why is not None:
                owner = PlayerRef(record.platform, s.player_id, s.name if s.why == "away" else "")
                seats.append(SeatInfo(None, s.ai, s.name, owner=owner, why=s.why, missed=s.missed))
            else:
                seats.append(SeatInfo(None, s.ai, s.name))
        table = LiveTable(
            channel, host, rules, lang=setup.get("lang", "en"), seats=seats, phase="playing"
        )
        table.away_after = setup.get("away_after")
        table.paused_left = setup.get("paused_left")
        game = Game.from_text(record.snapshot)
        game.log = list(record.actions or [])
        table.game = game
        table.game_id = record.id
        table.version = record.version
        table.saved_actions = len(game.log)
        if record.match_id is not None:
            match = await self.matches.load(record.match_id)
            engine_match = Match(len(seats), match.games_planned)
            from engine.scoring import GameResult

            for r in match.results:
                winner = r.winner if r.winner is not None else 0
                engine_match.results.append(
                    GameResult(EndReason.OUT, winner, tuple(r.scores), tuple(0 for _ in r.scores))
                )
            table.match = engine_match
            table.match_id = record.match_id
        if record.draft:
            draft = game.draft()
            for step in record.draft:
                try:
                    draft.apply_text(step)
                except RummikubError:
                    break
            table.draft = draft
        if record.deadline is not None:
            table.deadline = (
                record.deadline.replace(tzinfo=UTC).timestamp()
                if record.deadline.tzinfo is None
                else record.deadline.timestamp()
            )
        return table

    async def _current(self, channel: ChannelRef) -> LiveTable | None:
        """The channel's table as storage has it now (the caller holds the channel's lock):
        the copy in memory when its stored version is unchanged, else a fresh load (a game
        or lobby another process started or changed, or that this one has not loaded yet)."""
        table = self.tables.get(channel.key)
        if table is None:
            return await self._reload(channel)
        return await self._fresh(table)

    async def _fresh(self, table: LiveTable) -> LiveTable | None:
        """``table`` if storage still agrees with it (one version read), else the stored one."""
        if table.game_id is not None:
            stamp = await self.games.stamp(table.game_id)
            if stamp == (table.version, False):
                return table
            return await self._reload(table.channel)
        stored = await self.lobbies.get(table.channel.platform, table.channel.chat_id)
        if stored is not None and stored == self._lobby_data(table.channel):
            return table
        return await self._reload(table.channel)

    async def _reload(self, channel: ChannelRef) -> LiveTable | None:
        """Drop our copy and load the stored game (or lobby), re-arming its timers."""
        old = self.tables.pop(channel.key, None)
        if old is not None:
            self._cancel_timers(old)
        record = await self.games.load_active(channel.platform, channel.chat_id)
        if record is not None:
            table = await self._table_from_record(record)
            self.tables[channel.key] = table
            self._arm_timers(table)
            return table
        data = await self.lobbies.get(channel.platform, channel.chat_id)
        if data is not None:
            lobby = self._lobby_from_data(channel, data)
            self.tables[channel.key] = lobby
            return lobby
        return None

    async def _reload_quietly(self, channel: ChannelRef) -> None:
        """After a conflict or a failure: the stored game replaces ours (if even that fails,
        the channel is forgotten here and loaded again by its next command)."""
        try:
            await self._reload(channel)
        except Exception:
            self._internal("cannot reload %s", channel.key)
            gone = self.tables.pop(channel.key, None)
            if gone is not None:
                self._cancel_timers(gone)
