"""Records of stored games: the last finished game of a channel, or one from its history;
never an unfinished game, never another channel's. The record replays to the stored game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Game, Rules
from engine.record import parse_record, replay_game
from storage import Database, Seat, StorageError
from storage.replays import RecordUnavailableError, record_for_channel, rules_of
from tests.bot.manager.manager_harness import ANN, CHANNEL, Harness
from tests.engine.test_record import simulate

SEATS = [Seat("u1", "Ann"), Seat("ai-1", "Robo", ai="easy"), Seat("u2", "Bob")]


async def store(db: Database, game: Game, channel: str = "c1", *, finish: bool = True) -> int:
    """Store ``game`` as the manager does: created at the deal, its log appended, finished."""
    seats = SEATS[: game.player_count]
    setup = json.dumps({"rules": game.rules.to_text(), "players": len(seats), "lang": "en"})
    deal = Game.new(game.player_count, game.seed, game.rules)
    stored = await db.games.create(
        platform="discord",
        channel_id=channel,
        seats=seats,
        seed=game.seed,
        setup=setup,
        snapshot=deal.to_text(),
    )
    if not finish:
        await db.games.save_turn(
            stored.id,
            expected_version=stored.version,
            snapshot=game.to_text(),
            new_actions=game.log,
            deadline=None,
        )
        return stored.id
    assert game.result is not None
    await db.games.finish(
        stored.id,
        expected_version=stored.version,
        snapshot=game.to_text(),
        new_actions=game.log,
        result={"text": game.result.to_text()},
        scores=list(game.result.scores),
        winner=game.result.winner,
    )
    return stored.id


async def test_the_last_finished_game_and_one_from_history_replay_to_the_stored_game(
    db: Database,
) -> None:
    first, second = simulate(21, 3), simulate(22, 2)
    first_id = await store(db, first)
    await store(db, second)
    last = parse_record(await record_for_channel(db, "discord", "c1"))
    assert replay_game(last).to_text() == second.to_text()
    assert last.names == ["Ann", "Robo"] and last.seats[1].ai == "easy"
    assert last.tag("Platform") == "discord" and last.tag("Channel") == "c1"
    older = parse_record(await record_for_channel(db, "discord", "c1", first_id))
    assert replay_game(older).to_text() == first.to_text()
    assert older.tag("Game") == str(first_id)
    by_place = await record_for_channel(db, "discord", "c1", nth=2)
    assert by_place == older.to_text()
    with pytest.raises(RecordUnavailableError, match="has 2 finished games, not 3"):
        await record_for_channel(db, "discord", "c1", nth=3)


async def test_unfinished_or_foreign_games_are_not_exported(db: Database) -> None:
    with pytest.raises(RecordUnavailableError, match="no finished game yet"):
        await record_for_channel(db, "discord", "c1")
    elsewhere = await store(db, simulate(23, 2), channel="other")
    with pytest.raises(RecordUnavailableError, match=f"no game {elsewhere}"):
        await record_for_channel(db, "discord", "c1", elsewhere)
    with pytest.raises(RecordUnavailableError, match="no game 999"):
        await record_for_channel(db, "discord", "c1", 999)
    partial = Game.new(2, 5)
    partial.draw()
    running = await store(db, partial, channel="c1", finish=False)
    with pytest.raises(RecordUnavailableError, match="still being played"):
        await record_for_channel(db, "discord", "c1", running)


async def test_a_stored_log_that_does_not_rebuild_the_snapshot_is_refused(db: Database) -> None:
    game = simulate(24, 2)
    game_id = await store(db, game)
    async with db.transaction() as session:
        from sqlmodel import col, update

        from storage.models import GameActionRow

        await session.execute(
            update(GameActionRow)
            .where(col(GameActionRow.game_id) == game_id, col(GameActionRow.seq) == 3)
            .values(action="0 play K1 K2 K4")
        )
    with pytest.raises(StorageError, match=f"Game {game_id} cannot be exported: Turn 4"):
        await record_for_channel(db, "discord", "c1")


def test_rules_come_from_the_setup_json_or_the_plain_rules_text() -> None:
    rules = Rules(opening_threshold=25)
    assert rules_of(json.dumps({"rules": rules.to_text()})) == rules
    assert rules_of(rules.to_text()) == rules


async def test_a_game_played_through_the_manager_exports_and_replays(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path / "bot.db")
    try:
        await h.say(ANN, "start games=1")
        await h.say(ANN, "addbot easy")
        await h.say(ANN, "deal")
        for _ in range(400):
            if CHANNEL.key not in h.manager.tables:
                break
            await h.play_like_ai(ANN, "easy")
        else:
            pytest.fail("the game did not end")
        text = await record_for_channel(h.db, CHANNEL.platform, CHANNEL.chat_id)
        stored = (await h.db.games.history(CHANNEL.platform, CHANNEL.chat_id))[0]
        record = parse_record(text)
        assert record.names[0] == "Ann" or record.names[1] == "Ann"
        assert replay_game(record).to_text() == Game.from_text(stored.snapshot).to_text()
    finally:
        await h.close()


async def cancel(db: Database, game: Game, channel: str = "c1") -> int:
    """Store ``game`` as the manager does when it is cancelled mid-way."""
    game_id = await store(db, game, channel, finish=False)
    stored = await db.games.load(game_id)
    await db.games.finish(
        game_id, expected_version=stored.version, snapshot=game.to_text(), status="cancelled"
    )
    return game_id


async def test_a_cancelled_game_is_not_finished_so_it_has_no_record(db: Database) -> None:
    """Defect 8 of issue 21: a cancelled game is not exported, not even by its id, and the
    numbers (nth, as replay N) count finished games only."""
    partial = Game.new(2, 9)
    partial.draw()
    partial.draw()
    cancelled = await cancel(db, partial)
    with pytest.raises(RecordUnavailableError, match="no finished game yet"):
        await record_for_channel(db, "discord", "c1")
    with pytest.raises(RecordUnavailableError, match=f"Game {cancelled} was cancelled"):
        await record_for_channel(db, "discord", "c1", cancelled)
    finished = simulate(25, 2)
    await store(db, finished)
    later = Game.new(2, 10)
    later.draw()
    await cancel(db, later)  # the newest game is cancelled: the finished one is still 1
    only = parse_record(await record_for_channel(db, "discord", "c1", nth=1))
    assert replay_game(only).to_text() == finished.to_text()
    assert only.tag("Status") is None
    with pytest.raises(RecordUnavailableError, match="has 1 finished game, not 2"):
        await record_for_channel(db, "discord", "c1", nth=2)
