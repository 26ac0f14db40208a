from __future__ import annotations

import asyncio

import pytest

from storage import ChannelSettings, ConflictError, Database, LobbyRepository, NotFoundError, Seat
from storage.lobbies import NEW

ANN, BOB, ROBO = Seat("u1", "Ann"), Seat("u2", "Bob"), Seat("ai:1", "Robo", ai="hard")


async def play_match_game(
    db: Database, match_id: int, index: int, seats: tuple[Seat, ...], scores: list[int], winner: int
) -> None:
    game = await db.games.create(
        platform="telegram",
        channel_id="-100",
        seats=seats,
        seed=index,
        setup="rules",
        snapshot=f"S{index}",
        match_id=match_id,
        game_index=index,
    )
    await db.games.finish(game.id, expected_version=1, snapshot="END", scores=scores, winner=winner)


async def test_a_match_records_each_game_and_ends_after_the_last(db: Database) -> None:
    match = await db.matches.create(
        platform="telegram", channel_id="-100", players=[ANN, BOB, ROBO], games_planned=3
    )
    assert [s.total_score for s in match.standings] == [0, 0, 0] and match.active
    # seat order changes between games: results are mapped back to the match's players
    await play_match_game(db, match.id, 0, (ANN, BOB, ROBO), [40, -25, -15], winner=0)
    await play_match_game(db, match.id, 1, (BOB, ROBO, ANN), [-10, 30, -20], winner=1)
    middle = await db.matches.load(match.id)
    assert middle.games_played == 2 and middle.active
    assert [(r.scores, r.winner) for r in middle.results] == [
        ((40, -25, -15), 0),
        ((-20, -10, 30), 2),
    ]
    await play_match_game(db, match.id, 2, (ROBO, ANN, BOB), [-5, 12, -7], winner=1)
    done = await db.matches.load(match.id)
    assert not done.active and done.games_played == 3
    assert [(s.name, s.games_won, s.total_score) for s in done.standings] == [
        ("Ann", 2, 32),
        ("Robo", 1, 10),
        ("Bob", 0, -42),
    ]
    assert [w.name for w in done.winners] == ["Ann"]
    assert await db.matches.load_active("telegram", "-100") is None
    ann = await db.stats.player("telegram", "-100", "u1")
    assert ann is not None and (ann.matches_played, ann.matches_won) == (1, 1)
    assert await db.stats.player("telegram", "-100", "ai:1") is None  # AI seats are not ranked


async def test_a_closed_match_counts_no_win(db: Database) -> None:
    match = await db.matches.create(
        platform="discord", channel_id="g", players=[ANN, BOB], games_planned=2
    )
    assert (await db.matches.load_active("discord", "g")) == match
    await db.matches.close(match.id, expected_version=match.version)
    closed = await db.matches.load(match.id)
    assert not closed.active and closed.games_played == 0
    with pytest.raises(ConflictError):
        await db.matches.close(match.id, expected_version=closed.version)
    with pytest.raises(NotFoundError, match="Match 404 does not exist"):
        await db.matches.load(404)
    with pytest.raises(ValueError, match="at least one game"):
        await db.matches.create(platform="discord", channel_id="g", players=[ANN], games_planned=0)


async def test_leaderboard_ranks_by_wins_then_score(db: Database) -> None:
    results = [([50, -50], 0), ([-10, 10], 1), ([5, -5], 0), ([-70, 70], 1)]
    for seed, (scores, winner) in enumerate(results):
        game = await db.games.create(
            platform="discord", channel_id="lb", seats=[ANN, BOB], seed=seed, setup="", snapshot=""
        )
        await db.games.finish(
            game.id, expected_version=1, snapshot="", scores=scores, winner=winner
        )
    board = await db.stats.leaderboard("discord", "lb")
    assert [(e.name, e.games_played, e.games_won, e.total_score, e.best_score) for e in board] == [
        ("Bob", 4, 2, 25, 70),
        ("Ann", 4, 2, -25, 50),
    ]
    assert await db.stats.leaderboard("discord", "other") == []
    assert len(await db.stats.leaderboard("discord", "lb", limit=1)) == 1


async def test_concurrent_finishes_do_not_lose_statistics(db: Database) -> None:
    games = [
        await db.games.create(
            platform="discord", channel_id=f"ch{i}", seats=[ANN, BOB], seed=i, setup="", snapshot=""
        )
        for i in range(6)
    ]
    await asyncio.gather(
        *(
            db.games.finish(g.id, expected_version=1, snapshot="", scores=[1, -1], winner=0)
            for g in games
        )
    )
    for i in range(6):
        ann = await db.stats.player("discord", f"ch{i}", "u1")
        assert ann is not None and ann.games_won == 1


async def test_channel_settings_default_update_and_reset(db: Database) -> None:
    assert await db.settings.get("discord", "c") == ChannelSettings()
    changed = await db.settings.update("discord", "c", opening_threshold=25, async_mode=True)
    assert (changed.opening_threshold, changed.async_mode, changed.turn_seconds) == (25, True, 60)
    again = await db.settings.update("discord", "c", turn_seconds=3600, match_games=2)
    assert again == ChannelSettings(
        opening_threshold=25, turn_seconds=3600, async_mode=True, match_games=2
    )
    assert again.version == changed.version + 1
    assert await db.settings.get("discord", "c") == again
    assert await db.settings.get("discord", "other") == ChannelSettings()
    with pytest.raises(ValueError, match="Unknown channel setting"):
        await db.settings.update("discord", "c", colour="blue")
    assert await db.settings.reset("discord", "c") == ChannelSettings()
    assert await db.settings.get("discord", "c") == ChannelSettings()


async def test_concurrent_setting_changes_both_stick(db: Database) -> None:
    await asyncio.gather(
        db.settings.update("telegram", "g", hints=False),
        db.settings.update("telegram", "g", language="de"),
        db.settings.update("telegram", "g", edition="xp"),
    )
    final = await db.settings.get("telegram", "g")
    assert (final.hints, final.language, final.edition) == (False, "de", "xp")


async def test_lobby_saved_replaced_listed_and_deleted(db: Database) -> None:
    lobbies = LobbyRepository(db)
    assert await lobbies.get("discord", "42") is None
    await lobbies.save("discord", "42", {"seats": [{"name": "Ann"}]})
    await lobbies.save("discord", "42", {"seats": [{"name": "Ann"}, {"name": "Bob"}]})
    await lobbies.save("telegram", "-7", {"seats": []})
    assert await lobbies.get("discord", "42") == {"seats": [{"name": "Ann"}, {"name": "Bob"}]}
    assert sorted((p, c) for p, c, _ in await lobbies.list_all()) == [
        ("discord", "42"),
        ("telegram", "-7"),
    ]
    await lobbies.delete("discord", "42")
    await lobbies.delete("discord", "42")  # already gone: nothing happens
    assert [(p, c) for p, c, _ in await lobbies.list_all()] == [("telegram", "-7")]


async def test_a_lobby_write_naming_a_stale_version_is_refused_and_changes_nothing(
    db: Database,
) -> None:
    lobbies = LobbyRepository(db)
    first = await lobbies.save("discord", "9", {"seats": ["Ann"]}, expected_version=NEW)
    assert first == 1
    with pytest.raises(ConflictError):  # another process opened it first
        await lobbies.save("discord", "9", {"seats": ["Eve"]}, expected_version=NEW)
    second = await lobbies.save("discord", "9", {"seats": ["Ann", "Bob"]}, expected_version=1)
    assert second == 2
    with pytest.raises(ConflictError):  # written on version 1, which is gone
        await lobbies.save("discord", "9", {"seats": ["Ann", "Eve"]}, expected_version=1)
    assert await lobbies.get_versioned("discord", "9") == ({"seats": ["Ann", "Bob"]}, 2)
    await lobbies.delete("discord", "9")
    with pytest.raises(ConflictError):  # dealt or cancelled meanwhile
        await lobbies.save("discord", "9", {"seats": ["Ann", "Eve"]}, expected_version=2)
    assert await lobbies.get("discord", "9") is None


async def test_a_game_cancelled_with_close_match_ends_its_match_in_the_same_transaction(
    db: Database,
) -> None:
    match = await db.matches.create(
        platform="discord", channel_id="c", players=[ANN, BOB], games_planned=2
    )
    game = await db.games.create(
        platform="discord",
        channel_id="c",
        seats=(ANN, BOB),
        seed=1,
        setup="rules",
        snapshot="S",
        match_id=match.id,
        game_index=0,
    )
    with pytest.raises(ConflictError):  # a stale version changes neither the game nor the match
        await db.games.finish(
            game.id, expected_version=7, snapshot="END", status="cancelled", close_match=True
        )
    assert (await db.matches.load(match.id)).active
    assert (await db.games.load(game.id)).status == "active"
    await db.games.finish(
        game.id, expected_version=1, snapshot="END", status="cancelled", close_match=True
    )
    closed = await db.matches.load(match.id)
    assert not closed.active and closed.games_played == 0
    assert (await db.games.load(game.id)).status == "cancelled"
    assert await db.matches.load_active("discord", "c") is None
