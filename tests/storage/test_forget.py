"""``rummikub db forget PLATFORM:USER``: a player's data deleted on request, on SQLite and
PostgreSQL. A real match is played through the game manager, then the real command forgets
one of its players: no stored row holds their name or id afterwards, every finished game
still replays, and every leaderboard row still adds up to the games it counts."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select, text

from bot.api import ChannelRef, PlayerRef
from storage import Database
from storage.models import GameRow, MatchGameRow, PlayerStatRow, StorageModel
from storage.replays import record_of
from tests.bot.manager.manager_harness import CHANNEL, Harness
from tests.storage.conftest import needs_postgres
from tests.storage.scratch import scratch_schema

ROOT = Path(__file__).resolve().parents[2]
ZOFIA = PlayerRef("test", "u-zofia-987", "Zofia Quartz")
BOB = PlayerRef("test", "u-bob-123", "Bob Basalt")
OTHER = ChannelRef("test", "chan-2")  # a channel where Zofia never played


@dataclass
class Place:
    """Where the test's database is: the URL the command gets, and its schema."""

    url: str
    schema: str | None
    path: Path


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def place(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Place]:
    if request.param == "sqlite":
        yield Place(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", None, tmp_path / "bot.db")
        return
    url = needs_postgres()
    async with scratch_schema(url, prefix="rk_forget") as schema:
        yield Place(url, schema, tmp_path / "unused.db")


async def open_harness(place: Place) -> Harness:
    return await Harness.open(place.path, url=place.url, schema=place.schema)


async def play_out(h: Harness, channel: ChannelRef, people: list[PlayerRef]) -> None:
    """Play the channel's match to its end, each person's turns as the medium AI would."""
    for _ in range(5000):
        table = h.manager.tables.get(channel.key)
        if table is None:
            return
        assert table.game is not None
        seat = table.seats[table.game.current]
        person = next(p for p in people if seat.player is not None and p.same_person(seat.player))
        if channel == CHANNEL:
            await h.play_like_ai(person)
        else:
            await h.manager.handle(person, channel, "draw")
    raise AssertionError("the match did not end")


async def played_match(place: Place) -> None:
    """Zofia and Bob play a two-game match with an AI seat; Bob plays a game alone with an AI
    in another channel; Zofia chooses Polish for her own messages."""
    h = await open_harness(place)
    try:
        await h.say(ZOFIA, "start games=2")
        await h.say(BOB, "join")
        await h.say(ZOFIA, "addbot easy")
        await h.say(ZOFIA, "language me pl")
        await h.say(ZOFIA, "deal")
        await play_out(h, CHANNEL, [ZOFIA, BOB])
        await h.manager.handle(BOB, OTHER, "start games=1")
        await h.manager.handle(BOB, OTHER, "addbot easy")
        await h.manager.handle(BOB, OTHER, "deal")
        await play_out(h, OTHER, [BOB])
    finally:
        await h.close()


def forget(place: Place, who: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "bot", "db", "forget", who, "--url", place.url]
    if place.schema is not None:
        command += ["--schema", place.schema]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=120, cwd=place.path.parent
    )


async def every_row(db: Database) -> str:
    """Every row of every table, as text."""
    rows = []
    async with db.engine.connect() as connection:
        for table in StorageModel.metadata.sorted_tables:
            rows += [repr(tuple(row)) for row in await connection.execute(select(table))]
        rows += [
            repr(tuple(r)) for r in await connection.execute(text("SELECT * FROM alembic_version"))
        ]
    return "\n".join(rows)


async def leaderboard(db: Database) -> dict[tuple[str, str], tuple[str, int, int, int, int, int]]:
    async with db.sessions() as session:
        rows = (await session.execute(select(PlayerStatRow))).scalars()
        return {
            (r.channel_id, r.user_id): (
                r.display_name,
                r.games_played,
                r.games_won,
                r.total_score,
                r.matches_played,
                r.matches_won,
            )
            for r in rows
        }


async def games_add_up(db: Database) -> None:
    """Each leaderboard row's games and total score are those of the finished games whose
    seats name that player."""
    played: dict[tuple[str, str], list[int]] = defaultdict(list)
    async with db.sessions() as session:
        results = await session.execute(
            select(MatchGameRow, GameRow).join(GameRow, GameRow.id == MatchGameRow.game_id)
        )
        for result, game in results:
            for seat, score in zip(game.seats, result.scores, strict=True):
                if seat.get("ai") is None or seat.get("why"):
                    played[(game.channel_id, seat["player_id"])].append(score)
    board = await leaderboard(db)
    assert board, "no leaderboard at all"
    for key, (_, games, _, total, _, _) in board.items():
        assert (games, total) == (len(played[key]), sum(played[key])), key


async def test_forget_leaves_no_trace_of_the_player_and_every_game_and_score_intact(
    place: Place,
) -> None:
    await played_match(place)
    db = Database(place.url, schema=place.schema)
    await db.start()
    try:
        before = await every_row(db)
        assert ZOFIA.display_name in before and ZOFIA.user_id in before  # the setting is real
        board_before = await leaderboard(db)
        await games_add_up(db)
    finally:
        await db.close()

    done = forget(place, "test:u-zofia-987")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        "Forgot test:u-zofia-987: 2 games, 1 match and 1 leaderboard row"
    ), done.stdout
    assert "Traceback" not in done.stderr

    db = Database(place.url, schema=place.schema)
    await db.start()
    try:
        after = await every_row(db)
        assert ZOFIA.display_name not in after and "Zofia" not in after
        assert ZOFIA.user_id not in after and "zofia" not in after
        assert BOB.display_name in after and BOB.user_id in after  # others keep theirs

        board = await leaderboard(db)
        assert len(board) == len(board_before)
        for (channel, user), numbers in board_before.items():
            if user != ZOFIA.user_id:
                assert board[(channel, user)] == numbers
        [renamed] = [v for k, v in board.items() if k[1].startswith("forgotten-")]
        assert renamed[0].startswith("Player ")
        assert renamed[1:] == board_before[(CHANNEL.chat_id, ZOFIA.user_id)][1:]
        await games_add_up(db)

        async with db.sessions() as session:
            finished = (
                (await session.execute(select(GameRow.id).where(GameRow.finished_at.is_not(None))))
                .scalars()
                .all()
            )
        assert len(finished) == 3
        for game_id in finished:
            record = record_of(
                await db.games.load(game_id)
            )  # replayed, checked against the snapshot
            assert "Zofia" not in record.to_text()
    finally:
        await db.close()

    again = forget(place, "test:u-zofia-987")
    assert (
        again.returncode == 0
        and again.stdout.strip() == "Nothing is stored about test:u-zofia-987."
    )


async def test_forget_refuses_a_player_still_at_a_table_and_changes_nothing(place: Place) -> None:
    h = await open_harness(place)
    try:
        await h.say(ZOFIA, "start")
        await h.say(ZOFIA, "addbot easy")
        await h.say(ZOFIA, "deal")
    finally:
        await h.close()
    db = Database(place.url, schema=place.schema)
    await db.start()
    try:
        before = await every_row(db)
    finally:
        await db.close()

    refused = forget(place, "test:u-zofia-987")
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        "rummikub db forget: They are still at a table in test:chan-1: forget them once that "
        "game has ended (or after cancel there)."
    )
    db = Database(place.url, schema=place.schema)
    await db.start()
    try:
        assert await every_row(db) == before
    finally:
        await db.close()


def test_forget_names_the_player_as_platform_and_user(tmp_path: Path) -> None:
    place = Place(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", None, tmp_path / "x.db")
    for bad in ("zofia", ":42", "telegram:", "tele gram:42"):
        result = forget(place, bad)
        assert result.returncode == 2, bad
        assert result.stderr.strip() == (
            "rummikub db forget: name the player as PLATFORM:USER (discord:123456789, "
            f"telegram:42), not {bad!r}."
        )
