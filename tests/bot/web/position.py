"""A stored terminal match with a chosen position, as ``rummikub play`` would find it.

The match is opened through the real manager (``start``, two AI seats, ``deal``) on a real
SQLite file; then its position is replaced by one written out tile by tile (every tile of
the box exactly once, checked) and stored, as if the game had come to it. ``rummikub play``
started on that file continues it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from bot.api import ChannelRef, PlayerRef
from bot.manager import GameManager
from bot.presenter import Presenter
from engine import Game
from engine.tiles import Tile
from storage import Database

T = TypeVar("T")
YOU = PlayerRef("terminal", "you", "Player")
LOCAL = ChannelRef("terminal", "local")


def position_text(game: Game, *, table: str, rack: str, seat: int, seed: int = 7) -> str:
    """``game``'s rules and seats with this table (melds of tile codes, ``/`` between) and
    this rack for ``seat`` (who is to move, with the initial meld made); the other seats get
    14 tiles each from the rest, and the pool what is left."""
    box = {t.code: t for t in game.rules.edition.all_tiles()}
    named = [code for meld in table.split("/") for code in meld.split()] + rack.split()
    bare = [code.partition("=")[0] for code in named]
    missing = [code for code in bare if code not in box]
    assert not missing and len(set(bare)) == len(bare), (missing, bare)
    rest: list[Tile] = [t for code, t in box.items() if code not in bare]
    random.Random(seed).shuffle(rest)
    lines = [
        "rummikub-snapshot 1",
        f"rules {game.rules.to_text()}",
        f"seed {game.seed}",
        f"turn {game.turn} current {seat} starter {game.starter} passes 0",
    ]
    racks: dict[int, str] = {seat: rack}
    for other in range(len(game.players)):
        if other != seat:
            racks[other] = " ".join(t.code for t in rest[:14])
            rest = rest[14:]
    lines.append("pool " + " ".join(t.code for t in rest))
    lines.append("table " + " / ".join(" ".join(m.split()) for m in table.split("/")))
    for index in range(len(game.players)):
        melded = "melded" if index == seat else "new"
        lines.append(f"player {index} {melded} - : {racks[index]}")
    text = "\n".join(lines) + "\n"
    Game.from_text(text).check_conservation()
    return text


async def prepare(
    db_path: Path, *, table: str, rack: str, timer: int = 3600, lang: str = "en"
) -> None:
    """A terminal match on ``db_path`` (you and two medium AI seats) at this position, your
    turn, stored, in the language ``lang``; the manager is closed again, so a
    ``rummikub play`` process takes it on."""
    db = Database(f"sqlite+aiosqlite:///{db_path}")
    await db.start()
    manager = GameManager(db, presenter=Presenter(images=False), rng=random.Random(3))
    try:
        await manager.resume()
        for command in (f"language {lang}", f"start timer={timer}", "addbot", "addbot", "deal"):
            await manager.handle(YOU, LOCAL, command, admin=True)
        live = manager.tables[LOCAL.key]
        assert live.game is not None and live.game_id is not None
        seat = live.seat_of(YOU)
        assert seat is not None
        text = position_text(live.game, table=table, rack=rack, seat=seat)
        deadline = datetime.fromtimestamp(manager.scheduler.now() + timer, UTC)
        await manager.games.save_turn(
            live.game_id,
            expected_version=live.version,
            snapshot=text,
            new_actions=[],
            deadline=deadline,
        )
    finally:
        await manager.close()
        await db.close()


def _in_thread(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` on an event loop of its own thread (Playwright's sync API holds this
    thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


def prepare_now(
    db_path: Path, *, table: str, rack: str, timer: int = 3600, lang: str = "en"
) -> None:
    _in_thread(prepare(db_path, table=table, rack=rack, timer=timer, lang=lang))


async def stored(db_path: Path) -> tuple[str, list[str]]:
    """The stored game's position and its draft steps (as the manager saved them)."""
    db = Database(f"sqlite+aiosqlite:///{db_path}")
    await db.start()
    try:
        from storage import GameRepository

        games = GameRepository(db)
        record = await games.load_active(LOCAL.platform, LOCAL.chat_id)
        assert record is not None
        return record.snapshot, list(record.draft or [])
    finally:
        await db.close()


def stored_now(db_path: Path) -> tuple[str, list[str]]:
    return _in_thread(stored(db_path))
