"""A seeded random walk over many channels: valid and invalid commands, double clicks, timer
expiries, absent players and restarts. After every step the game a fresh manager rebuilds from
the database alone equals the one in memory, every tile is in exactly one place, and nothing
internal failed; at the end every game finishes when its players keep drawing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.api import ChannelRef, PlayerRef, Reply
from bot.manager import GameManager, LiveTable, describe
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from engine.ai import choose_move
from storage import Database

PLAYERS = [PlayerRef("fuzz", f"u{i}", name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"])]
CHANNELS = [ChannelRef("fuzz", f"c{i}") for i in range(6)]
NOISE = [
    "play R5 R6 R7",
    "play J R1 R2",
    "play R1 to 2",
    "move R5 from 1 to new",
    "split 1 at R3",
    "swap J in 1 with R5",
    "undo",
    "reset",
    "hint",
    "target ²",
    "target 2",
    "kick ²",
    "kick 9",
    "play R1 to 1" + "0" * 5000,
    "pick R1",
    "place",
    "status",
    "rack",
    "table",
    "score",
    "plya",
    "x" * 3000,
    "panel",
    "sort number",
    "settings threshold 25",
    "join",
    "leave",
    "addbot easy",
    "deal",
]
STARTS = [
    "start games=1 rack_size=7 threshold=0",
    "start rack_size=8 threshold=0 away_after=1",  # absent players go and come back
    "start",
]


class World:
    """One database, one manager (replaced on restart), a fake clock shared across restarts."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path = path
        self.rng = random.Random(seed)
        self.clock = ManualScheduler()
        self.db: Database | None = None
        self.manager: GameManager | None = None
        self.sent: list[Reply] = []
        self.restarts = 0

    async def open(self) -> None:
        self.db = Database(f"sqlite+aiosqlite:///{self.path}")
        await self.db.start()
        self.manager = GameManager(
            self.db,
            scheduler=self.clock,
            presenter=Presenter(images=False),
            rng=random.Random(self.rng.randrange(2**32)),
        )

        async def outbox(reply: Reply) -> None:
            self.sent.append(reply)

        self.manager.set_outbox(outbox)
        await self.manager.resume()
        await self.clock.advance(0)  # AI moves that were due run now

    async def restart(self) -> None:
        """The process stops (timers die with it); a fresh one resumes from the database."""
        assert self.manager is not None and self.db is not None
        await self.manager.close()
        await self.db.close()
        self.clock = ManualScheduler(start=self.clock.now())
        self.restarts += 1
        await self.open()

    async def close(self) -> None:
        if self.manager is not None and self.db is not None:
            await self.manager.close()
            await self.db.close()

    def table(self, channel: ChannelRef) -> LiveTable | None:
        assert self.manager is not None
        return self.manager.tables.get(channel.key)

    async def say(self, player: PlayerRef, channel: ChannelRef, text: str) -> list[Reply]:
        assert self.manager is not None
        replies = await self.manager.handle(player, channel, text)
        self.sent.extend(replies)
        for reply in replies:
            assert len(reply.text) < 4000, reply.text[:200]
            assert "Something went wrong" not in reply.text, text[:80]
        return replies

    async def answer(self, player: PlayerRef, channel: ChannelRef, replies: list[Reply]) -> None:
        """A question (leave, kick or cancel would end the game) is mostly answered yes, now
        or after the clock moved on; sometimes no."""
        asked = [b.command for r in replies for row in r.buttons for b in row]
        yes = [c for c in asked if c.endswith(" yes")]
        if not yes:
            return
        roll = self.rng.random()
        if roll < 0.15:
            await self.clock.advance(self.rng.choice([30, 150]))
        if roll < 0.85:
            await self.say(player, channel, yes[0])
        else:
            await self.say(player, channel, yes[0].replace(" yes", " no"))

    def current_human(self, channel: ChannelRef) -> PlayerRef | None:
        table = self.table(channel)
        if table is None or table.game is None or table.game.finished:
            return None
        return table.seats[table.game.current].player

    async def step(self) -> str:
        rng = self.rng
        channel = rng.choice(CHANNELS)
        table = self.table(channel)
        roll = rng.random()
        if roll < 0.03:
            await self.restart()
            return "restart"
        if roll < 0.10:
            await self.clock.advance(rng.choice([1, 20, 46, 60, 61]))
            return "advance"
        if table is None:
            if rng.random() < 0.3:  # after a match: the same seats again
                await self.say(rng.choice(PLAYERS), channel, "rematch")
                return "rematch"
            await self.say(rng.choice(PLAYERS), channel, rng.choice(STARTS))
            return "start"
        if table.phase == "lobby":
            player = rng.choice(PLAYERS)
            verb = rng.choices(
                ["join", "addbot easy", "deal", "leave", "kick 2", "status", "rematch"],
                weights=[30, 20, 35, 5, 5, 5, 10],
            )[0]
            if verb == "deal":
                player = table.host
            await self.say(player, channel, verb)
            return "lobby " + verb
        away = [s.owner for s in table.seats if s.why == "away" and s.owner is not None]
        if away and 0.55 <= roll < 0.65:  # an absent player sends a command and comes back
            owner = rng.choice(away)  # chosen once (not again for every player compared)
            person = next(p for p in PLAYERS if p.same_person(owner))
            await self.say(person, channel, rng.choice(["status", "draw", "rack", "leave"]))
            return "back"
        mover = self.current_human(channel)
        if mover is None:
            return "ai-only"
        if roll < 0.30:
            replies = await asyncio.gather(
                self.say(mover, channel, "draw"), self.say(mover, channel, "draw")
            )
            said = [" ".join(r.text for r in one) for one in replies]
            acted = [s for s in said if "already over" not in s and "not your turn" not in s]
            assert len(acted) == 1, said  # one click acted, the other changed nothing
            return "double-draw"
        if roll < 0.36:  # a panel button clicked late (panels are not refreshed every turn)
            buttons = [
                b.command
                for r in self.sent[-200:]
                if r.slot == "panel" and r.private_to == mover and r.channel == channel
                for row in r.buttons
                for b in row
                if b.command.split()[0] in ("draw", "done")
            ]
            if buttons:
                await self.say(mover, channel, rng.choice(buttons))
                return "button"
        if roll < 0.45:
            assert table.game is not None
            melds = choose_move(table.game, table.game.current, "easy")
            if melds is None:
                await self.say(mover, channel, "draw")
            else:
                await self.say(mover, channel, "arrange " + " / ".join(m.code() for m in melds))
                await self.say(mover, channel, "done")
            return "play"
        if roll < 0.50:
            seat = table.seat_of(mover)
            replies = await self.say(mover, channel, rng.choice(["leave", "kick 2", "kick 3"]))
            await self.answer(mover, channel, replies)
            return f"leave {seat}"
        if roll < 0.55:
            await self.answer(table.host, channel, await self.say(table.host, channel, "cancel"))
            return "cancel"
        player = mover if rng.random() < 0.7 else rng.choice(PLAYERS)
        await self.say(player, channel, rng.choice(NOISE))
        return "noise"

    async def check(self, what: str) -> None:
        """Memory equals what the database alone rebuilds; tiles conserved; no bug logged."""
        assert self.manager is not None and self.db is not None
        assert self.manager.internal_errors == 0, what
        other = GameManager(self.db, scheduler=ManualScheduler(start=self.clock.now()))
        try:
            await other.resume()
            for channel in CHANNELS:
                mine = self.table(channel)
                if mine is not None and mine.game is not None:
                    mine.game.check_conservation()
                    assert not mine.ai_due, f"{what}: an AI seat was left waiting"
                assert describe(other.tables.get(channel.key)) == describe(mine), (
                    f"{what} in {channel.key}"
                )
        finally:
            await other.close()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
async def test_random_walk_memory_always_equals_the_stored_game(seed: int, tmp_path: Path) -> None:
    world = World(tmp_path / "fuzz.db", seed)
    await world.open()
    try:
        seen: dict[str, int] = {}
        for _ in range(300):
            what = await world.step()
            seen[what.split()[0]] = seen.get(what.split()[0], 0) + 1
            await world.check(what)
        assert world.restarts > 0 and seen.get("double-draw", 0) > 0, seen
        went = sum("an AI plays their seat" in r.text for r in world.sent)
        came = sum(" is back and plays" in r.text for r in world.sent)
        assert went > 0 and came > 0, (went, came)  # absent players went away and came back
        # Every game finishes when its players keep drawing (and timers run).
        for _ in range(4000):
            live = [c for c in CHANNELS if world.table(c) is not None]
            if not live:
                break
            for channel in live:
                table = world.table(channel)
                assert table is not None
                if table.phase == "lobby":
                    await world.say(table.host, channel, "cancel")
                    continue
                mover = world.current_human(channel)
                assert mover is not None, "an AI seat was left waiting"
                await world.say(mover, channel, "draw")
        else:
            pytest.fail("some games never finished")
        await world.check("the end")
        finished = sum("Rummikub!" in r.text or "lowest rack" in r.text for r in world.sent)
        assert finished >= 2
    finally:
        await world.close()
