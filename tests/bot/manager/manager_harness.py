"""A fake adapter for manager tests: real SQLite file, fake clock, every reply recorded."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bot.api import ChannelRef, PlayerRef, Reply
from bot.manager import GameManager
from bot.presenter import Presenter
from bot.scheduler import ManualScheduler
from engine import Game, Tile
from engine.ai import choose_move
from engine.notation import parse_tiles
from storage import Database

CHANNEL = ChannelRef("test", "chan-1")
ANN = PlayerRef("test", "u-ann", "Ann")
BOB = PlayerRef("test", "u-bob", "Bob")
EVE = PlayerRef("test", "u-eve", "Eve")  # never seated


@dataclass
class Harness:
    """One manager over one database; ``sent`` holds everything any path produced."""

    db: Database
    scheduler: ManualScheduler
    manager: GameManager
    sent: list[Reply] = field(default_factory=list)

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        seed: int = 1,
        scheduler: ManualScheduler | None = None,
        images: bool = False,
        shared: bool | None = None,
        url: str | None = None,
        schema: str | None = None,
        language: str = "en",
    ) -> Harness:
        """A manager over the SQLite file ``path``, or over ``url`` (and ``schema``)."""
        db = Database(url or f"sqlite+aiosqlite:///{path}", schema=schema)
        await db.start()
        clock = scheduler or ManualScheduler()
        manager = GameManager(
            db,
            scheduler=clock,
            presenter=Presenter(images=images),
            rng=random.Random(seed),
            shared=shared,
            default_language=language,
        )
        harness = cls(db, clock, manager)

        async def outbox(reply: Reply) -> None:
            harness.sent.append(reply)

        manager.set_outbox(outbox)
        return harness

    async def close(self) -> None:
        await self.manager.close()
        await self.db.close()

    async def say(self, player: PlayerRef, text: str, *, admin: bool = False) -> list[Reply]:
        replies = await self.manager.handle(player, CHANNEL, text, admin=admin)
        self.sent.extend(replies)
        return replies

    @property
    def game(self) -> Game:
        table = self.manager.tables[CHANNEL.key]
        assert table.game is not None
        return table.game

    def seat(self, player: PlayerRef) -> int:
        seat = self.manager.tables[CHANNEL.key].seat_of(player)
        assert seat is not None
        return seat

    async def give(self, seat: int, text: str) -> None:
        """``give`` and store the changed position, as if the deal had been so."""
        table = self.manager.tables[CHANNEL.key]
        give(self.game, seat, text)
        assert table.game_id is not None
        table.version = await self.manager.games.save_turn(
            table.game_id,
            expected_version=table.version,
            snapshot=self.game.to_text(),
            new_actions=[],
            deadline=datetime.fromtimestamp(table.deadline or 0, UTC),
        )

    async def play_like_ai(self, player: PlayerRef, level: str = "medium") -> list[Reply]:
        """Take the player's turn with commands a person could type (arrange ... / done)."""
        game = self.game
        seat = self.seat(player)
        melds = choose_move(game, seat, level)
        if melds is None:
            return await self.say(player, "draw")
        text = " / ".join(m.code() for m in melds)
        replies = await self.say(player, f"arrange {text}")
        replies += await self.say(player, "done")
        return replies


def give(game: Game, seat: int, text: str) -> None:
    """Swap tiles into a seat's rack from wherever they are, keeping every tile unique."""
    rack = game.players[seat].rack
    for wanted in parse_tiles(text):
        if any(t.same_face(wanted) for t in rack):
            continue
        for zone in [game.pool] + [p.rack for i, p in enumerate(game.players) if i != seat]:
            match = next((t for t in zone if t.same_face(wanted)), None)
            if match is not None:
                out = next(t for t in rack if not any(t.same_face(w) for w in parse_tiles(text)))
                zone[zone.index(match)] = out
                rack[rack.index(out)] = match
                break
    game.check_conservation()


def rack_of(game: Game, seat: int) -> list[Tile]:
    return list(game.players[seat].rack)
