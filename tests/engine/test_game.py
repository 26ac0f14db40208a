"""Setup, timeouts, the two endings and their scoring, matches, snapshots and replay."""

from __future__ import annotations

import pytest

from engine import EndReason, Game, IllegalMoveError, Match, Rules
from engine.notation import parse_tiles
from engine.scoring import GameResult, score_blocked, score_out
from engine.tiles import Edition, tiles_text
from tests.engine.helpers import position, table_text

# ----- setup --------------------------------------------------------------------------------


def test_same_seed_deals_the_same_game() -> None:
    assert Game.new(4, 7).to_text() == Game.new(4, 7).to_text()
    assert Game.new(4, 7).to_text() != Game.new(4, 8).to_text()


def test_deal_fourteen_each_and_the_pool_holds_the_rest() -> None:
    game = Game.new(4, 1)
    assert [len(p.rack) for p in game.players] == [14] * 4
    assert len(game.pool) == 106 - 56
    game.check_conservation()


def test_highest_draw_starts_and_ties_redraw() -> None:
    for seed in range(200):
        game = Game.new(4, seed)
        final = game.start_draws[-1]
        best = max(t.number for _, t in final if not t.is_joker)
        winners = [s for s, t in final if not t.is_joker and t.number == best]
        assert winners == [game.starter] and game.current == game.starter
        if len(game.start_draws) > 1:
            first = game.start_draws[0]
            top = max(t.number for _, t in first if not t.is_joker)
            tied = {s for s, t in first if not t.is_joker and t.number == top}
            assert len(tied) > 1 and {s for s, _ in game.start_draws[1]} == tied
            return
    pytest.fail("no seed in 0..199 produced a tie for the first player")


def test_xp_edition_for_five_and_six_players() -> None:
    game = Game.new(6, 3, Rules(edition=Edition.XP))
    assert len(game.all_tiles()) == 160
    assert len(game.pool) == 160 - 6 * 14
    game.check_conservation()
    with pytest.raises(IllegalMoveError, match="2 to 4 players"):
        Game.new(5, 3)


# ----- the timer ----------------------------------------------------------------------------


def test_timeout_commits_a_legal_draft() -> None:
    game = position(["R10 R11 R12 K1", "B1"])
    draft = game.draft()
    draft.apply_text("play R10 R11 R12")
    outcome = game.timeout(draft)
    assert outcome.kind == "play" and outcome.timed_out
    assert table_text(game) == ["R10 R11 R12"]


def test_timeout_with_nothing_changed_draws_one() -> None:
    game = position(["R10 K1", "B1"], pool="O1 O2 O3 O4")
    outcome = game.timeout(game.draft())
    assert outcome.kind == "draw" and len(game.players[0].rack) == 3


def test_timeout_with_an_unfinished_change_rolls_back_and_draws_three() -> None:
    game = position(["R10 R11 K1", "B1"], "R1 R2 R3 R4", melded=[True, True], pool="O1 O2 O3 O4")
    draft = game.draft()
    draft.apply_text("play R10 R11")
    draft.apply_text("split 1 at R3")
    outcome = game.timeout(draft)
    assert outcome.kind == "penalty" and len(outcome.drawn) == 3
    assert table_text(game) == ["R1 R2 R3 R4"]
    assert tiles_text(game.players[0].rack) == "R10 R11 K1 O4 O3 O2"


def test_timeout_penalty_takes_what_the_pool_has() -> None:
    game = position(["R10 R11 K1", "B1"], "R1 R2 R3", melded=[True, True], pool="O1")
    draft = game.draft()
    draft.apply_text("play R10 R11")
    assert len(game.timeout(draft).drawn) == 1 and not game.pool


# ----- ending and scoring -------------------------------------------------------------------


def test_going_out_ends_the_game_and_scores() -> None:
    game = position(["R10 R11 R12", "B1 J", "K13 O2"], melded=[True, True, True])
    outcome = game.draft()
    draft = game.draft()
    draft.apply_text("play R10 R11 R12")
    outcome = game.commit(draft)
    assert outcome.result is not None and game.finished
    result = outcome.result
    assert result.reason is EndReason.OUT and result.winner == 0
    # joker on a rack costs 30: B1 + J = 31; K13 + O2 = 15
    assert result.scores == (46, -31, -15)
    with pytest.raises(IllegalMoveError, match="over"):
        game.draw()


def test_pool_empty_play_continues_and_a_round_without_play_ends_it() -> None:
    game = position(["K1 K2", "B5 J", "O3 O4"], pool="")
    game.draw()
    game.draw()
    assert not game.finished
    outcome = game.draw()
    assert game.finished and outcome.result is not None
    result = outcome.result
    # racks: 3, 35, 7 -> lowest (3) wins; others lose the difference; winner gets the sum
    assert result.reason is EndReason.BLOCKED and result.winner == 0
    assert result.scores == (32 + 4, -32, -4)


def test_a_play_resets_the_round_without_play() -> None:
    game = position(["K1 K2", "B5 B6 B7 B1", "O3 O4"], melded=[True, True, True], pool="")
    game.draw()
    draft = game.draft()
    draft.apply_text("play B5 B6 B7")
    game.commit(draft)
    game.draw()
    game.draw()
    assert not game.finished
    game.draw()
    assert game.finished


def test_scoring_functions() -> None:
    racks = [parse_tiles(""), parse_tiles("R5 J"), parse_tiles("K1")]
    assert score_out(racks, 0).scores == (36, -35, -1)
    blocked = score_blocked([parse_tiles("R5"), parse_tiles("K1 K2"), parse_tiles("O3")], 0)
    assert blocked.winner == 2 or blocked.winner == 1
    assert sum(blocked.scores) == 0


def test_blocked_tie_goes_to_fewer_tiles_then_turn_order() -> None:
    result = score_blocked([parse_tiles("K1 K2"), parse_tiles("O3"), parse_tiles("R3")], 2)
    assert result.winner == 2  # O3 and R3 tie with one tile each; seat 2 starts the order


# ----- match --------------------------------------------------------------------------------


def _result(winner: int, scores: tuple[int, ...]) -> GameResult:
    return GameResult(EndReason.OUT, winner, scores, tuple(abs(s) for s in scores))


def test_match_length_defaults_to_number_of_players() -> None:
    assert Rules().games_for(3) == 3 and Rules(match_games=5).games_for(3) == 5


def test_match_most_games_won_wins() -> None:
    match = Match(3, 3)
    match.record(_result(0, (10, -5, -5)))
    match.record(_result(0, (4, -2, -2)))
    match.record(_result(2, (-50, -50, 100)))
    assert match.finished and match.winners() == [0]


def test_match_tie_on_games_broken_by_total_score() -> None:
    match = Match(2, 2)
    match.record(_result(0, (20, -20)))
    match.record(_result(1, (-5, 5)))
    assert match.wins() == [1, 1]
    assert match.winners() == [0]
    assert [(s.seat, s.rank) for s in match.standings()] == [(0, 1), (1, 2)]
    assert Match.from_text(match.to_text()).standings() == match.standings()


# ----- snapshot and replay ------------------------------------------------------------------


def test_snapshot_round_trip_in_the_middle_of_a_game() -> None:
    game = position(
        ["R6 K3 K4 B1", "B2"], "R5 J R7 / K9 B9 J", melded=[True, False], pool="O1 O2 O3"
    )
    draft = game.draft()
    draft.apply_text("swap J in 1 with R6")
    draft.apply_text("play K3 K4 J")
    game.commit(draft)
    game.draw()
    text = game.to_text()
    again = Game.from_text(text)
    assert again.to_text() == text
    assert again.table[1].text() == "K9 B9 J=9"


def test_seed_and_log_replay_a_game_exactly() -> None:
    game = Game.new(2, 11)
    for _ in range(6):
        game.draw()
    replayed = Game.replay(2, 11, Rules(), game.log)
    assert replayed.to_text() == game.to_text()


def test_replay_keeps_timeouts_apart_from_voluntary_turns() -> None:
    game = Game.new(2, 4, Rules(opening_threshold=0))
    game.timeout(None)  # nothing done: a timed-out draw
    draft = game.draft()
    rack = game.players[game.current].rack
    draft.apply_text("play " + " ".join(t.code for t in rack[:2]))
    game.timeout(draft)  # an unfinished change: rollback and penalty
    game.draw()
    assert [e.split()[1] for e in game.log] == ["timeout-draw", "penalty", "draw"]
    replayed = Game.replay(2, 4, Rules(opening_threshold=0), game.log)
    assert replayed.to_text() == game.to_text()
    first = Game.replay(2, 4, Rules(opening_threshold=0), game.log[:1])
    assert first.to_text().splitlines()[-1].startswith("last 0 draw timeout") or (
        first.to_text().splitlines()[-1].startswith("last 1 draw timeout")
    )
