"""Skill ratings in storage: the live update in a finished game's transaction, ties, 2-6
seats, cancelled games, the migration that rates stored history, restarts, and a channel
that joins its server. On SQLite and (with TEST_DATABASE_URL) PostgreSQL."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, select, text

from storage import Database, Seat, skill
from storage.migrate import alembic_config
from storage.ratings import (
    RatingEventRow,
    RatingRow,
    RatingScopeRow,
    StoredFinish,
    _finished_games_query,
    _stored_finish,
    replay_rows,
)
from storage.skill import ai_entity, person_entity
from tests.kills import ROOT, backend_url
from tests.storage.rating_games import PLATFORM, ai, finish_game, person, seeded_series

SCOPE = "channel:room"


async def table_rows(db: Database, model: Any, *order: Any) -> list[dict[str, Any]]:
    """Every row of a rating table as plain values (floats exact), in a stable order."""
    async with db.sessions() as session:
        rows = (await session.execute(select(model).order_by(*order))).scalars()
        return [row.model_dump(exclude={"updated_at"}) for row in rows]


async def snapshot(db: Database) -> dict[str, list[dict[str, Any]]]:
    return {
        "rating": await table_rows(db, RatingRow, RatingRow.scope, RatingRow.entity),
        "events": await table_rows(db, RatingEventRow, RatingEventRow.game_id, RatingEventRow.seat),
        "scopes": await table_rows(db, RatingScopeRow, RatingScopeRow.scope),
    }


async def test_a_player_who_always_beats_hard_ai_ends_above_one_who_always_loses(
    db: Database,
) -> None:
    ann, bob = person("ann"), person("bob")
    for _ in range(12):
        await finish_game(db, "room", [ann, ai(1, "hard")], winner=0, racks=[0, 25])
        await finish_game(db, "room", [bob, ai(1, "hard")], winner=1, racks=[25, 0])
    ladder = await db.ratings.ladder(PLATFORM, SCOPE)
    assert [e.entity for e in ladder] == [
        person_entity("ann"),
        ai_entity("hard", "classic"),
        person_entity("bob"),
    ]
    assert [e.rank for e in ladder] == [1, None, 2]  # people are ranked, the AI stands among them
    first, _, last = ladder
    assert first.games == first.wins == 12 and last.games == 12 and last.wins == 0
    assert first.display > skill.DISPLAY_BASE > last.display
    assert not first.provisional and first.trend > 0 > last.trend


async def test_a_new_player_is_provisional_until_the_fifth_game(db: Database) -> None:
    ann = person("ann")
    for played in range(1, skill.PROVISIONAL_GAMES + 1):
        await finish_game(db, "room", [ann, ai(1, "easy")], winner=0, racks=[0, 10])
        entry = await db.ratings.entry(PLATFORM, SCOPE, person_entity("ann"))
        assert entry is not None and entry.games == played
        assert entry.provisional == (played < skill.PROVISIONAL_GAMES)


async def test_equal_racks_tie_and_move_alike(db: Database) -> None:
    seats = [person("ann"), person("bob"), person("cleo"), person("dan")]
    await finish_game(db, "room", seats, winner=0, racks=[0, 12, 12, 30])
    entries = {e.entity: e for e in await db.ratings.ladder(PLATFORM, SCOPE)}
    bob, cleo = entries[person_entity("bob")], entries[person_entity("cleo")]
    assert (bob.mu, bob.sigma) == (cleo.mu, cleo.sigma)
    ann, dan = entries[person_entity("ann")], entries[person_entity("dan")]
    assert ann.mu > bob.mu > dan.mu
    places = {p.entity: p.place for p in await _events(db)}
    assert places == {
        person_entity("ann"): 1,
        person_entity("bob"): 2,
        person_entity("cleo"): 2,
        person_entity("dan"): 4,
    }


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
async def test_every_seat_of_two_to_six_is_rated_in_order(db: Database, seats: int) -> None:
    edition = "classic" if seats <= 4 else "xp"
    people = [person(f"p{i}") for i in range(seats - 1)]
    table = [*people, ai(seats - 1, "medium")]
    racks = [0, *range(5, 5 * seats, 5)]  # seat 0 goes out, then ever higher racks
    await finish_game(db, "room", table, winner=0, racks=racks, edition=edition)
    events = await _events(db)
    assert [e.place for e in events] == list(range(1, seats + 1))
    assert events[-1].entity == ai_entity("medium", edition)
    mus = [e.mu for e in events]
    assert mus == sorted(mus, reverse=True)  # the better the place, the higher the rating
    assert {e.seats for e in events} == {seats}


async def test_two_seats_of_one_ai_level_share_one_rating(db: Database) -> None:
    await finish_game(db, "room", [person("ann"), ai(1, "hard"), ai(2, "hard")], 1, [20, 0, 40])
    hard = await db.ratings.entry(PLATFORM, SCOPE, ai_entity("hard", "classic"))
    assert hard is not None and hard.games == 1 and hard.wins == 1
    history = await db.ratings.history(PLATFORM, SCOPE, ai_entity("hard", "classic"))
    assert len(history) == 1 and history[0].place == 1


async def test_a_cancelled_game_changes_no_rating(db: Database) -> None:
    await finish_game(db, "room", [person("ann"), ai(1, "easy")], winner=0, racks=[0, 10])
    before = await snapshot(db)
    game = await db.games.create(
        platform=PLATFORM, channel_id="room", seats=[person("ann")], seed=1, setup="", snapshot="S"
    )
    await db.games.finish(game.id, expected_version=game.version, snapshot="S", status="cancelled")
    assert await snapshot(db) == before


async def test_a_person_who_left_counts_last_and_one_away_counts_as_themselves(
    db: Database,
) -> None:
    left = Seat("ann", "Ann (AI)", ai="medium", why="left")
    away = Seat("bob", "Bob (AI)", ai="medium", why="away")
    await finish_game(db, "room", [left, away, person("cleo")], winner=0, racks=[0, 10, 20])
    places = {e.entity: (e.place, e.name) for e in await _events(db)}
    assert places == {
        person_entity("ann"): (3, "Ann"),  # went out with an AI at the seat: still last
        person_entity("bob"): (1, "Bob"),  # the best of those who stayed at the table
        person_entity("cleo"): (2, "Cleo"),
    }


async def test_ratings_survive_a_restart(db: Database) -> None:
    await seeded_series(db, random.Random(4), 12, "room")
    before = await snapshot(db)
    again = Database(db.url.render_as_string(hide_password=False), schema=db.schema)
    await again.start()
    try:
        assert await snapshot(again) == before
        assert await again.ratings.ladder(PLATFORM, SCOPE) == await db.ratings.ladder(
            PLATFORM, SCOPE
        )
    finally:
        await again.close()


async def test_the_migration_rates_history_exactly_as_the_live_updates_did(db: Database) -> None:
    rng = random.Random(25)
    await seeded_series(db, rng, 30, "room")
    await seeded_series(db, rng, 15, "other-room")
    game = await db.games.create(
        platform=PLATFORM, channel_id="room", seats=[person("ann")], seed=1, setup="", snapshot="S"
    )
    await db.games.finish(game.id, expected_version=game.version, snapshot="S", status="cancelled")
    live = await snapshot(db)
    assert [(s["scope"], s["games"]) for s in live["scopes"]] == [
        ("channel:other-room", 15),
        ("channel:room", 30),
    ]

    def downgrade(connection: Any) -> None:
        from alembic import command

        command.downgrade(alembic_config(connection), "0006")

    async with db.engine.begin() as connection:
        await connection.run_sync(downgrade)
        tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
    assert "rating" not in tables and "game" in tables
    await db.start()  # the upgrade: 0008 rates the 45 finished games, oldest first
    assert await snapshot(db) == live


async def test_a_channel_that_joins_its_server_brings_its_rated_games(db: Database) -> None:
    rng = random.Random(8)
    await seeded_series(db, rng, 10, "room")
    await seeded_series(db, rng, 6, "hall")
    assert await db.ratings.link(PLATFORM, "room", "guild-1")
    assert not await db.ratings.link(PLATFORM, "room", "guild-1")  # known: nothing to do
    assert await db.ratings.scope_of(PLATFORM, "room") == "server:guild-1"
    assert await db.ratings.link(PLATFORM, "hall", "guild-1")
    await seeded_series(db, rng, 4, "hall")  # rated live in the server's scope
    linked = await snapshot(db)
    assert {s["scope"] for s in linked["scopes"] if s["games"]} == {"server:guild-1"}

    # The same 20 games, rated from nothing with both channels in the server: the same rows.
    async with db.transaction() as session:
        for model in (RatingRow, RatingEventRow, RatingScopeRow):
            await session.execute(text(f"DELETE FROM {model.__tablename__}"))

    def rate(connection: Any) -> None:
        from storage.ratings import _inserts

        games = [_stored_finish(r) for r in connection.execute(_finished_games_query())]
        rows = replay_rows(games, {(PLATFORM, c): "server:guild-1" for c in ("room", "hall")})
        for statement, values in _inserts(rows):
            connection.execute(statement, values)

    async with db.engine.begin() as connection:
        await connection.run_sync(rate)
    again = await snapshot(db)
    assert again["rating"] == linked["rating"] and again["events"] == linked["events"]


async def _events(db: Database) -> list[RatingEventRow]:
    async with db.sessions() as session:
        return list(
            (
                await session.execute(
                    select(RatingEventRow).order_by(RatingEventRow.seq, RatingEventRow.seat)
                )
            ).scalars()
        )


def test_the_display_value_is_conservative() -> None:
    new = skill.Skill()
    assert new.display == skill.DISPLAY_BASE  # mu 25 - 3 * 25/3 = 0
    sure = skill.Skill(25.0, 1.0)
    assert sure.display == skill.DISPLAY_BASE + skill.DISPLAY_SCALE * 22
    assert skill.Skill(30.0, 8.0).display < skill.Skill(28.0, 2.0).display


@pytest.mark.slow
@pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
async def test_two_processes_finishing_games_at_once_lose_no_rating_update(
    backend: str, tmp_path: Path
) -> None:
    """Two processes finish games in two channels of one server at the same time; the games
    share a player (Ann) and an AI level, so both update the same ratings. Each game must be
    applied to the ratings the previous one left: the stored events chain, every game has its
    own number in the server, and replaying the games in that order gives the stored ratings."""
    games = 25
    async with backend_url(backend, tmp_path) as target:
        options = dict(zip(target[::2], target[1::2], strict=True))
        db = Database(options["--url"], schema=options.get("--schema"))
        await db.start()
        try:
            for channel in ("room-a", "room-b"):
                await db.ratings.link(PLATFORM, channel, "guild")
            go = tmp_path / "go"
            children = [
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "tests.storage.rating_worker",
                        *target,
                        "--channel",
                        channel,
                        "--seed",
                        str(seed),
                        "--games",
                        str(games),
                        "--go",
                        str(go),
                    ],
                    cwd=ROOT,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                for seed, channel in enumerate(("room-a", "room-b"))
            ]
            for child in children:
                assert child.stdout is not None
                assert child.stdout.readline().strip() == "ready", child.communicate()[1]
            go.touch()
            finished: list[int] = []
            for child in children:
                out, err = child.communicate(timeout=180)
                assert child.returncode == 0, err
                finished += json.loads(out.strip().splitlines()[-1])["games"]
            assert len(finished) == 2 * games
            events = await _events(db)
            by_game: dict[int, set[int]] = {}
            for event in events:
                by_game.setdefault(event.seq, set()).add(event.game_id)
            # every game has its own number in the server, 1 to 50, none twice, none lost
            assert sorted(by_game) == list(range(1, 2 * games + 1))
            assert sorted(g for ids in by_game.values() for g in ids) == sorted(finished)
            assert {e.scope for e in events} == {"server:guild"}
            # each game started from the ratings the game before it left
            now: dict[str, tuple[float, float]] = {}
            for seq in sorted(by_game):
                these = [e for e in events if e.seq == seq]
                for event in these:
                    start = now.get(event.entity, (skill.MU, skill.SIGMA))
                    assert (event.mu_before, event.sigma_before) == start, (seq, event.entity)
                for event in these:
                    now[event.entity] = (event.mu, event.sigma)
            stored = {r["entity"]: r for r in await table_rows(db, RatingRow, RatingRow.entity)}
            assert {e: (r["mu"], r["sigma"]) for e, r in stored.items()} == now
            assert stored[person_entity("ann")]["games"] == 2 * games
            assert stored[ai_entity("hard", "classic")]["games"] == 2 * games
            # and rating the same games from nothing, in that order, gives the same numbers
            order = {g: seq for seq, ids in by_game.items() for g in ids}
            async with db.engine.connect() as connection:
                rows = await connection.run_sync(
                    lambda c: [_stored_finish(r) for r in c.execute(_finished_games_query())]
                )
            rows.sort(key=lambda g: order[g.game_id])
            again = replay_rows(rows, {(PLATFORM, c): "server:guild" for c in ("room-a", "room-b")})
            assert {r["entity"]: (r["mu"], r["sigma"]) for r in again.ratings} == now
        finally:
            await db.close()


async def test_a_result_the_ratings_cannot_read_still_finishes_the_game_unrated(
    db: Database,
) -> None:
    """A stored result that is not a game result (an older or hand-made record) finishes its
    game as before; it is just not rated, live or by the migration's replay."""
    game = await db.games.create(
        platform=PLATFORM,
        channel_id="room",
        seats=[person("ann"), ai(1, "easy")],
        seed=1,
        setup="",
        snapshot="S",
    )
    await db.games.finish(
        game.id,
        expected_version=game.version,
        snapshot="S",
        result={"text": "won"},
        scores=[10, -10],
        winner=0,
    )
    assert not (await db.games.load(game.id)).active
    assert await snapshot(db) == {"rating": [], "events": [], "scopes": []}
    half = StoredFinish(
        game.id,
        PLATFORM,
        "room",
        [person("ann").to_json()],
        "",
        {"text": "out winner=0"},
        datetime.now(UTC),
    )
    assert replay_rows([half]).events == []


async def test_the_ladder_shows_the_best_people_and_every_ai_level_among_them(
    db: Database,
) -> None:
    for level in ("easy", "medium", "hard"):
        for index in range(4):
            who = person(f"{level}-{index}")
            await finish_game(db, "room", [who, ai(1, level)], winner=index % 2, racks=[9, 9])
    ladder = await db.ratings.ladder(PLATFORM, SCOPE, limit=5)
    people = [e for e in ladder if not e.is_ai]
    assert [e.rank for e in people] == [1, 2, 3, 4, 5]
    assert {e.key for e in ladder if e.is_ai} == {"easy:classic", "medium:classic", "hard:classic"}
    shown = [e.mu - skill.Z * e.sigma for e in ladder]
    assert shown == sorted(shown, reverse=True)
