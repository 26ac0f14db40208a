"""Several bot processes on one database: two shards each run a game in their own server,
then one process takes both servers over and both games go on from their old buttons."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.platforms.discord.playing import Live, current_member, play_turn
from tests.fakes.discord_api import DiscordHarness, FakeDiscord
from tests.storage.scratch import scratch_schema

# aiohttp's own multipart reader (inside the fake server) trips this deprecation.
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def shared_database(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[str, str | None]]:
    """One database for several bot processes: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}", None
        return
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set (no PostgreSQL for this run)")
    async with scratch_schema(url) as schema:
        yield url, schema


async def test_sharded_processes_share_the_database_and_hand_games_over(
    fake: FakeDiscord, shared_database: tuple[str, str | None]
) -> None:
    """Shard 0 and shard 1 of a two-process deployment each run a game in their own server,
    writing to one database; then one process takes both servers over (a reshard) and both
    games go on from their old buttons and messages."""
    url, schema = shared_database
    one = Live(fake, url, schema, seed=3, shard_count=2, shard_ids=[0])
    two = Live(fake, url, schema, seed=4, shard_count=2, shard_ids=[1])
    await one.boot()
    await two.boot()
    merged: Live | None = None
    try:
        ann, ben = one.h.member("ann"), one.h.member("ben")
        cat, dan = two.h.member("cat"), two.h.member("dan")
        await one.start(ann, ben)
        await two.start(cat, dan)
        for _ in range(3):  # interleaved turns, two processes writing at once
            await play_turn(one, current_member(one, [ann, ben]), use_panel=False)
            await play_turn(two, current_member(two, [cat, dan]), use_panel=False)
        turns = (one.game.turn, two.game.turn)
        (table_one,) = one.table_messages()
        (table_two,) = two.table_messages()
        await one.shutdown()
        await two.shutdown()

        merged = Live(fake, url, schema, seed=5)
        merged.h = DiscordHarness(fake, guild_id=one.h.guild_id, channel_id=one.h.channel_id)
        await merged.boot()
        other = Live(fake, url, schema)
        other.h = DiscordHarness(fake, guild_id=two.h.guild_id, channel_id=two.h.channel_id)
        merged.same_process(other)
        assert (merged.game.turn, other.game.turn) == turns
        # buttons made by the old processes work in the new one
        outcome = await merged.h.click(ann, table_one, "Status")
        assert f"turn {turns[0]}" in outcome.text_for(ann.id)
        outcome = await other.h.click(dan, table_two, "Status")
        assert f"turn {turns[1]}" in outcome.text_for(dan.id)
        await play_turn(merged, current_member(merged, [ann, ben]), use_panel=False)
        await play_turn(other, current_member(other, [cat, dan]), use_panel=False)
        assert merged.game.turn > turns[0] and other.game.turn > turns[1]
        # each server still has one table message, edited in place by the new process
        assert merged.table_messages() == [table_one]
        assert other.table_messages() == [table_two]
        assert "to play" in table_one.text and "to play" in table_two.text
    finally:
        for live in (one, two, merged):
            if live is not None:
                await live.shutdown()
