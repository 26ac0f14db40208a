"""Ratings through ``GameManager.handle`` on a real SQLite file: a finished game is rated and a
cancelled one is not, the ladder in ``leaderboard`` (a real PNG, English and Polish, the win
counts one button away), one ladder per server, and the rating part of ``stats``."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image as PILImage

from bot.api import ChannelRef, PlayerRef, Reply
from bot.i18n import translator
from renderers.ladder import (
    LADDER_WIDTH,
    LadderRow,
    ladder_view,
    rating_chart_view,
    render_ladder,
    render_rating_chart,
)
from storage.rating_reads import TREND_GAMES
from storage.skill import PROVISIONAL_GAMES, ai_entity, person_entity
from tests.bot.manager.manager_harness import ANN, BOB, CHANNEL, EVE, Harness
from tests.bot.manager.test_stats import one_game_match, say, texts
from tests.storage.rating_games import ai, finish_game, person

OTHER = ChannelRef("test", "chan-2")
OLA = PlayerRef("test", "u-ola", "Ola", locale="pl")


@pytest.fixture
async def drawn(tmp_path: Path) -> AsyncIterator[Harness]:
    """A manager that draws its pictures."""
    harness = await Harness.open(tmp_path / "bot.db", images=True)
    try:
        yield harness
    finally:
        await harness.close()


async def series(h: Harness, channel: str = "chan-1", games: int = 12) -> None:
    """Ann always beats a hard AI; Bob always loses to it; Eve plays twice."""
    ann, bob, eve = person("u-ann", "Ann"), person("u-bob", "Bob"), person("u-eve", "Eve")
    for _ in range(games):
        await finish_game(h.db, channel, [ann, ai(1, "hard")], winner=0, racks=[0, 25])
        await finish_game(h.db, channel, [bob, ai(1, "hard")], winner=1, racks=[25, 0])
    for _ in range(2):
        await finish_game(h.db, channel, [eve, ai(1, "easy")], winner=0, racks=[0, 8])


def png_size(reply: Reply, filename: str) -> tuple[int, int]:
    (image,) = [i for i in reply.images if i.filename == filename]
    with PILImage.open(io.BytesIO(image.png)) as picture:
        assert picture.format == "PNG"
        picture.load()
        return picture.size


async def test_a_game_finished_through_the_manager_is_rated_and_a_cancelled_one_is_not(
    h: Harness,
) -> None:
    await one_game_match(h, CHANNEL, ANN)
    ladder = await h.db.ratings.ladder("test", "channel:chan-1")
    assert [e.entity for e in ladder] == [person_entity("u-ann"), person_entity("u-bob")]
    assert ladder[0].wins == 1 and ladder[1].wins == 0 and ladder[0].display > ladder[1].display
    await h.say(ANN, "start")
    await h.say(BOB, "join")
    await h.say(ANN, "addbot hard")
    await h.say(ANN, "deal")
    await h.say(ANN, "cancel")
    assert await h.db.ratings.ladder("test", "channel:chan-1") == ladder


async def test_leaderboard_shows_the_ladder_with_its_picture_and_still_the_win_counts(
    drawn: Harness,
) -> None:
    h = drawn
    await series(h)
    await one_game_match(h, CHANNEL, BOB)  # Bob beats Ann once, through the manager
    (reply,) = await h.say(BOB, "leaderboard")
    assert reply.private_to == BOB
    assert reply.text.startswith("Rating ladder: 1. Ann: ")
    # AI levels stand among the people, unranked; Eve's two wins over easy AI put her above
    # Bob, who lost twelve times to hard AI, though her rating is still provisional
    assert "; AI hard: " in reply.text and "; AI easy: " in reply.text
    assert "; 2. Eve: " in reply.text and "?, 2 games" in reply.text
    assert "; 3. Bob: " in reply.text and "? provisional: fewer than 5 games." in reply.text
    assert [[b.command for b in row] for row in reply.buttons] == [["leaderboard wins"]]
    assert png_size(reply, "ladder.png")[0] == LADDER_WIDTH
    # the picture is the ladder of the stored ratings, Bob (who asked) highlighted
    entries = await h.db.ratings.ladder("test", "channel:chan-1")
    rows = [
        LadderRow(
            name=e.key.partition(":")[0] if e.is_ai else e.name,  # AI levels by level
            rating=e.display,
            games=e.games,
            trend=e.trend,
            rank=e.rank,
            provisional=e.provisional and not e.is_ai,
            ai=e.is_ai,
            highlight=e.name == "Bob",
        )
        for e in entries
    ]
    people = sum(1 for e in entries if not e.is_ai)
    view = ladder_view(
        rows, people=people, provisional_games=PROVISIONAL_GAMES, trend_games=TREND_GAMES
    )
    assert reply.images[0].png == render_ladder(view)
    assert "Trend: the change in the last 5 games" in reply.images[0].alt
    # the win counts, one button away, with a button back
    (wins,) = await h.say(BOB, "leaderboard wins")
    assert (
        wins.text.startswith("Leaderboard: 1. Ann: 12/13 won") and "3. Bob: 1/13 won" in wins.text
    )
    assert [[b.command for b in row] for row in wins.buttons] == [["leaderboard"]]
    # a Polish reader gets the same ladder in Polish
    (polish,) = await h.say(OLA, "leaderboard")
    assert polish.text.startswith("Ranking ocen: 1. Ann: ")
    assert polish.images[0].png == render_ladder(
        ladder_view(
            [_plain(r) for r in rows],
            people=people,
            provisional_games=PROVISIONAL_GAMES,
            trend_games=TREND_GAMES,
        ),
        translate=translator("pl"),
    )
    said = texts(await h.say(BOB, "leaderboard everything"))
    assert said.startswith("'leaderboard' does not take 'everything'; nothing was changed.")


def _plain(row: LadderRow) -> LadderRow:
    return LadderRow(
        row.name, row.rating, row.games, row.trend, row.rank, row.provisional, row.ai, False
    )


async def test_one_ladder_per_server(h: Harness) -> None:
    async def server_of(channel: ChannelRef) -> str | None:
        return {"chan-1": "guild-1", "chan-2": "guild-1"}.get(channel.chat_id)

    await series(h, "chan-1", games=3)  # rated before the server was known: the channel's own
    h.manager.set_server_of("test", server_of)
    await one_game_match(h, OTHER, ANN)  # opening the lobby notes chan-2's server
    said = texts(await h.say(EVE, "leaderboard"))  # asked in chan-1: its games move over
    assert said.startswith("Rating ladder: 1. Ann: ")
    assert "4 games" in said.split(";")[0]  # Ann's three games in chan-1 and one in chan-2
    assert await h.db.ratings.scope_of("test", "chan-1") == "server:guild-1"
    alone = texts(await say(h, EVE, ChannelRef("test", "chan-9"), "leaderboard"))
    assert alone.startswith("No rated games in this server or group yet")


async def test_stats_add_the_rating_its_history_and_results_against_each_ai_level(
    drawn: Harness,
) -> None:
    h = drawn
    await series(h)
    seats = [person("u-ann", "Ann"), ai(1, "easy"), ai(2, "hard")]
    await finish_game(h.db, "chan-1", seats, winner=1, racks=[9, 0, 20])  # easy wins, Ann 2nd
    (reply,) = await h.say(EVE, "stats Ann")
    entry = await h.db.ratings.entry("test", "channel:chan-1", person_entity("u-ann"))
    assert entry is not None and entry.rank == 1 and entry.games == 13
    assert (
        f"Rating: {entry.display} (#1 of 3 in this server or group; 13 rated games;" in reply.text
    )
    assert "Against the AI: easy: 1 game, ahead of it in 0, best place 2 of 3; hard: 13 " in (
        reply.text
    )
    assert "hard: 13 games, ahead of it in 13, best place 1 of 2." in reply.text
    (chart,) = [i for i in reply.images if i.filename == "rating.png"]
    history = await h.db.ratings.history("test", "channel:chan-1", person_entity("u-ann"))
    view = rating_chart_view(
        "Ann",
        [history[0].before, *(p.display for p in history)],
        first_game=1,
        provisional_games=PROVISIONAL_GAMES,
    )
    assert chart.png == render_rating_chart(view)
    assert chart.alt.startswith(f"Rating of Ann\n{entry.display} after 13 games")
    # Eve has played twice: provisional, and said so
    said = texts(await h.say(EVE, "stats"))
    assert "? provisional until 5 games." in said
    hard = await h.db.ratings.entry("test", "channel:chan-1", ai_entity("hard", "classic"))
    assert hard is not None and hard.rank is None  # AI levels are not ranked among people
    (polish,) = await h.say(OLA, "stats Ann")
    assert f"Ocena: {entry.display} (miejsce 1 z 3" in polish.text
    assert "hard: 13 gier, wyżej niż AI w 13, najlepsze miejsce 1 na 2" in polish.text
