"""Memory from the stored game: resuming at start-up, lobbies, reloads and version checks.
The stored game is the whole truth; a live table is a copy rebuilt from it exactly."""

from __future__ import annotations

import json
from datetime import UTC
from typing import Any

from bot.api import ChannelRef, PlayerRef
from bot.manager.deadlines import Deadlines
from bot.manager.faults import Faults
from bot.manager.state import LiveTable, SeatInfo, log
from bot.manager.tables import Tables
from engine import Game, Match, Rules, RummikubError
from engine.scoring import EndReason, GameResult
from engine.steps import apply_step
from storage import ConflictError, Database, StoredGame


class Store:
    """Loads live tables from storage and saves lobbies (games are saved by the turns)."""

    def __init__(
        self, db: Database, tables: Tables, deadlines: Deadlines, faults: Faults, *, shared: bool
    ) -> None:
        self._db = db
        self._tables = tables
        self._deadlines = deadlines
        self._faults = faults
        self._shared = shared

    async def resume(self) -> int:
        """Load every unfinished game from storage and re-arm its timer, and reopen every
        stored lobby. Returns the count of games and lobbies."""
        if not self._shared:
            log.info(
                "deadline leases are off (%s): run one bot process on this database",
                self._db.dialect,
            )
        stored = await self._db.games.list_active(with_actions=True)
        for record in stored:
            try:
                table = await self.from_record(record)
            except Exception:
                self._faults("cannot resume game %s", record.id)
                continue
            self._tables.put(table)
            self._deadlines.arm(table)
        return len(stored) + await self._resume_lobbies()

    async def _resume_lobbies(self) -> int:
        """Reopen every stored lobby whose channel has no game; forget the stale ones."""
        count = 0
        for platform, chat_id, data, version in await self._db.lobbies.list_versioned():
            channel = ChannelRef(platform, chat_id)
            if channel.key in self._tables:
                await self._db.lobbies.delete(platform, chat_id)
                continue
            try:
                self._tables.put(lobby_from_data(channel, data, version))
                count += 1
            except Exception:
                self._faults("cannot reopen the lobby of %s", channel.key)
        return count

    def lobby_data(self, channel: ChannelRef) -> dict[str, Any] | None:
        """The channel's lobby as stored data, or None when it has no table in its lobby."""
        table = self._tables.of(channel)
        if table is None or table.phase != "lobby":
            return None
        return lobby_data(table)

    async def save_lobby(self, channel: ChannelRef, before: dict[str, Any] | None) -> None:
        """Save the channel's lobby when a command changed it (delete it once dealt or
        cancelled), as the version this process read: when another process wrote it first,
        ``ConflictError`` (the caller reloads it and says so; the change is not kept). A
        lobby is cheap to open again, so another storage failure is only logged."""
        after = self.lobby_data(channel)
        if after == before:
            return
        try:
            if after is None:
                await self._db.lobbies.delete(channel.platform, channel.chat_id)
                return
            table = self._tables.of(channel)
            assert table is not None
            table.version = await self._db.lobbies.save(
                channel.platform, channel.chat_id, after, expected_version=table.version
            )
        except ConflictError:
            raise
        except Exception:
            self._faults("cannot store the lobby of %s", channel.key)

    async def from_record(self, record: StoredGame) -> LiveTable:
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
            match = await self._db.matches.load(record.match_id)
            engine_match = Match(len(seats), match.games_planned)
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
                    apply_step(draft, step)  # an old unresolved auto asks the solver
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

    async def current(self, channel: ChannelRef) -> LiveTable | None:
        """The channel's table as storage has it now (the caller holds the channel's lock):
        the copy in memory when its stored version is unchanged, else a fresh load (a game
        or lobby another process started or changed, or that this one has not loaded yet)."""
        table = self._tables.of(channel)
        if table is None:
            return await self.reload(channel)
        return await self.fresh(table)

    async def fresh(self, table: LiveTable) -> LiveTable | None:
        """``table`` if storage still agrees with it (one version read), else the stored one."""
        if table.game_id is not None:
            stamp = await self._db.games.stamp(table.game_id)
            if stamp == (table.version, False):
                return table
            return await self.reload(table.channel)
        stored = await self._db.lobbies.get_versioned(table.channel.platform, table.channel.chat_id)
        if stored is not None and stored[1] == table.version:
            return table
        return await self.reload(table.channel)

    async def reload(self, channel: ChannelRef) -> LiveTable | None:
        """Drop our copy and load the stored game (or lobby), re-arming its timers."""
        old = self._tables.pop(channel.key)
        if old is not None:
            self._deadlines.cancel(old)
        record = await self._db.games.load_active(channel.platform, channel.chat_id)
        if record is not None:
            table = await self.from_record(record)
            self._tables.put(table)
            self._deadlines.arm(table)
            return table
        stored = await self._db.lobbies.get_versioned(channel.platform, channel.chat_id)
        if stored is not None:
            lobby = lobby_from_data(channel, *stored)
            self._tables.put(lobby)
            return lobby
        return None

    async def reload_quietly(self, channel: ChannelRef) -> None:
        """After a conflict or a failure: the stored game replaces ours (if even that fails,
        the channel is forgotten here and loaded again by its next command)."""
        try:
            await self.reload(channel)
        except Exception:
            self._faults("cannot reload %s", channel.key)
            gone = self._tables.pop(channel.key)
            if gone is not None:
                self._deadlines.cancel(gone)


def lobby_data(table: LiveTable) -> dict[str, Any]:
    """A table in its lobby as stored data."""
    return {
        "host": {"user_id": table.host.user_id, "name": table.host.display_name},
        "rules": table.rules.to_text(),
        "lang": table.lang,
        "away_after": table.away_after,
        "notified": [[p.user_id, p.display_name] for p in table.notified],
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


def lobby_from_data(channel: ChannelRef, data: dict[str, Any], version: int) -> LiveTable:
    """A stored lobby (at ``version``) as a live table."""
    host = PlayerRef(channel.platform, data["host"]["user_id"], data["host"]["name"])
    table = LiveTable(channel, host, Rules.from_text(data["rules"]), lang=data["lang"])
    table.version = version
    table.away_after = data.get("away_after")
    table.notified = [PlayerRef(channel.platform, u, n) for u, n in data.get("notified", [])]
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
