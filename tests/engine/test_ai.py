"""AI seats: each level's policy on set positions, and whole games through the draft path."""

from __future__ import annotations

import pytest

from bot.cli.simulate import play_game, summary
from engine import Game, Rules
from engine.ai import AI_LEVELS, choose_move, take_turn
from engine.rules import joker_problem, opening_problem
from tests.engine.helpers import position


def placed(game: Game, seat: int, melds: list) -> list[str]:  # type: ignore[type-arg]
    before = {t for m in game.table for t in m.tiles}
    return sorted(str(t) for m in melds for t in m.tiles if t not in before)


def test_levels_and_unknown_level() -> None:
    assert AI_LEVELS == ("easy", "medium", "hard")
    game = position(["R1 R2 R3", "K1"])
    with pytest.raises(ValueError, match="easy, medium, hard"):
        choose_move(game, 0, "grandmaster")


def test_every_level_opens_with_30_from_its_rack_or_draws() -> None:
    game = position(["R10 R11 R12 K1 B2", "K5"], "K7 K8 K9")
    for level in AI_LEVELS:
        melds = choose_move(game, 0, level)
        assert melds is not None
        assert opening_problem(game.table, melds, game.players[0].rack, 30) is None
        assert placed(game, 0, melds) == ["R10", "R11", "R12"]
    poor = position(["R1 R2 R3 K9", "K5"])
    assert all(choose_move(poor, 0, level) is None for level in AI_LEVELS)


def test_easy_never_touches_the_table_medium_does() -> None:
    game = position(["R7 K1 B9", "K5"], "R4 R5 R6", melded=[True, False])
    assert choose_move(game, 0, "easy") is None
    melds = choose_move(game, 0, "medium")
    assert melds is not None and placed(game, 0, melds) == ["R7"]


def test_hard_keeps_rack_only_sets_in_reserve() -> None:
    # R7 R8 and O12 O13 extend table runs; B1 B2 B3 can be played any later turn instead of
    # drawing, so hard keeps it back while nobody is close to going out.
    game = position(
        ["R7 R8 B1 B2 B3 O12 O13 K11", "K5 K6 K7 K8 K9 K10 K12 B12 O2 O7"],
        "R4 R5 R6 / O9 O10 O11",
        melded=[True, True],
    )
    medium = choose_move(game, 0, "medium")
    hard = choose_move(game, 0, "hard")
    assert medium is not None and hard is not None
    assert placed(game, 0, medium) == ["B1", "B2", "B3", "O12", "O13", "R7", "R8"]
    assert len(placed(game, 0, hard)) < 7 and "B1" not in placed(game, 0, hard)
    assert joker_problem(game.table, hard, True) is None


def test_hard_holds_a_cheap_extension_back() -> None:
    game = position(
        ["R7 R8 O12 O13 K11 K1", "K5 K6 K7 K8 K9 K10 K12 B12 O2 O7"],
        "R4 R5 R6 / O9 O10 O11",
        melded=[True, True],
    )
    hard = choose_move(game, 0, "hard")
    assert hard is not None and len(placed(game, 0, hard)) == 3


def test_medium_and_hard_take_a_joker_from_the_table_with_a_swap() -> None:
    # The solver itself retrieves jokers now, so medium finds the swap too.
    game = position(
        ["R6 K1 K2 B9", "K5 K6 K7 K8 K9 K10 B2 B5 O7"], "R4 R5 J=R6", melded=[True, True]
    )
    for level in ("medium", "hard"):
        chosen = choose_move(game, 0, level)
        assert chosen is not None
        assert joker_problem(game.table, chosen, True) is None
        assert sorted(m.text() for m in chosen) == ["K1 K2 J=K3", "R4 R5 R6"]
    outcome, refused = take_turn(game, "hard")
    assert not refused and outcome.kind == "play"


def test_hard_starves_an_opponent_about_to_go_out() -> None:
    # The opponent holds 2 tiles: every tile hard adds to the table is room they could use to
    # go out, so hard draws instead of playing 4 of its 6 tiles (medium plays them).
    game = position(["K1 K2 K4 B13 O13 J", "K5 K6"], "R4 R5 R6", melded=[True, True])
    assert choose_move(game, 0, "hard") is None
    medium = choose_move(game, 0, "medium")
    assert medium is not None and placed(game, 0, medium) == ["J", "K1", "K2", "K4"]
    outcome, refused = take_turn(game, "hard")
    assert not refused and outcome.kind == "draw" and len(game.players[0].rack) == 7
    # It still goes out when the whole rack fits, and plays normally against a full rack.
    out = position(["K1 K2 K3 R7", "K5 K6"], "R4 R5 R6", melded=[True, True])
    hard = choose_move(out, 0, "hard")
    assert hard is not None and placed(out, 0, hard) == ["K1", "K2", "K3", "R7"]
    calm = position(
        ["K1 K2 K4 B13 O13 J", "K5 K6 K7 K8 K9 B2 B3 O1 O7"], "R4 R5 R6", melded=[True, True]
    )
    assert choose_move(calm, 0, "hard") is not None


def test_hard_sheds_points_when_the_pool_is_empty() -> None:
    # Tiles: K1 K2 K4 with the joker (4 tiles); value: B13 O13 with the joker (56 points).
    game = position(["K1 K2 K4 B13 O13 J", "K5 K6"], "R4 R5 R6", melded=[True, True], pool="")
    hard = choose_move(game, 0, "hard")
    assert hard is not None and placed(game, 0, hard) == ["B13", "J", "O13"]


def test_take_turn_commits_through_the_draft() -> None:
    game = position(["R10 R11 R12 K1", "K5 K9"], melded=[False, False])
    outcome, refused = take_turn(game, "medium")
    assert not refused and outcome.kind == "play"
    assert [m.text() for m in game.table] == ["R10 R11 R12"]
    outcome, refused = take_turn(game, "hard")
    assert not refused and outcome.kind == "draw"
    game.check_conservation()


def test_seeded_games_finish_and_are_reproducible() -> None:
    first = play_game(3, ["hard", "medium"])
    again = play_game(3, ["hard", "medium"])
    assert first.winner is not None
    assert (first.winner, first.scores, first.turns) == (again.winner, again.scores, again.turns)
    assert sum(first.scores) == 0


def test_ai_games_make_no_illegal_moves() -> None:
    records = [
        play_game(seed, levels)
        for seed in (1, 2)
        for levels in (["easy", "medium"], ["hard", "medium"], ["medium", "hard", "easy"])
    ]
    report = summary(records)
    assert report["illegal"] == 0 and report["unfinished"] == 0


def test_three_and_four_seat_games_finish() -> None:
    for seats in (["easy", "medium", "hard"], ["hard", "hard", "medium", "easy"]):
        record = play_game(5, seats)
        assert record.winner is not None and record.turns > len(seats)


def test_rules_threshold_is_respected() -> None:
    game = Game.new(2, 9, Rules(opening_threshold=50))
    while not game.finished and not any(p.melded for p in game.players):
        seat = game.current
        melds = choose_move(game, seat, "hard")
        if melds is not None:
            assert opening_problem(game.table, melds, game.players[seat].rack, 50) is None
        take_turn(game, "hard")
