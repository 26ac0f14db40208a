"""Game records: export, parse and replay equal the game; a changed record is refused, naming the
turn at fault."""

from __future__ import annotations

import random
import re

import pytest

from engine import Game, Rules
from engine.ai import choose_move, take_turn
from engine.record import (
    GameRecord,
    RecordError,
    parse_record,
    record_from_game,
    replay_game,
    replay_record,
)
from engine.tiles import Edition


def simulate(seed: int, players: int, *, edition: Edition = Edition.CLASSIC) -> Game:
    """A seeded AI game with every kind of turn: plays, draws, and now and then a timeout
    (nothing done, a legal play committed by the timer, or an unfinished change: penalty)."""
    rng = random.Random(seed)
    game = Game.new(players, seed, Rules(edition=edition))
    levels = ["easy", "medium"]
    while not game.finished and game.turn <= 400:
        roll = rng.random()
        if roll < 0.03:
            game.timeout(None)
        elif roll < 0.05:
            game.penalty()
        elif roll < 0.08:
            melds = choose_move(game, game.current, "easy")
            draft = game.draft()
            if melds is not None:
                draft.arrange_melds(melds)
            game.timeout(draft)
        else:
            take_turn(game, levels[(seed + game.current) % 2])
    return game


def export(game: Game) -> str:
    names = [f"Player {i}" for i in range(game.player_count)]
    ai = ["easy" if i % 2 else None for i in range(game.player_count)]
    return record_from_game(game, names, ai=ai, Platform="test", Game=str(game.seed)).to_text()


@pytest.mark.slow
def test_record_round_trip_over_hundreds_of_simulated_games() -> None:
    kinds: set[str] = set()
    cases = [(seed, 2 + seed % 3, Edition.CLASSIC) for seed in range(192)]
    cases += [(1000 + seed, 5 + seed % 2, Edition.XP) for seed in range(8)]
    for seed, players, edition in cases:
        game = simulate(seed, players, edition=edition)
        text = export(game)
        record = parse_record(text)
        assert record.to_text() == text
        replayed = replay_game(record)
        assert replayed.to_text() == game.to_text(), f"seed {seed}"
        assert replayed.log == game.log
        assert replayed.result == game.result
        kinds.update(entry.split()[1] for entry in game.log)
    assert kinds == {"play", "draw", "timeout-draw", "timeout-play", "penalty"}


def test_replay_yields_the_deal_then_one_step_per_turn() -> None:
    game = simulate(7, 3)
    record = parse_record(export(game))
    steps = list(replay_record(record))
    assert len(steps) == len(record.turns) + 1 == len(game.log) + 1
    assert steps[0].turn is None and steps[-1].game.finished


def _turn_line(text: str, kind: str, after: int = 5) -> tuple[int, str]:
    """The first turn line of ``kind`` (``arrange`` or ``draw``) past turn ``after``."""
    for line in text.splitlines():
        m = re.match(r"^(\d+)\. \d+ (\w+)", line)
        if m and int(m.group(1)) > after and m.group(2) == kind:
            return int(m.group(1)), line
    raise AssertionError(f"no {kind} turn")


def _refusal(text: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay_game(parse_record(text))
    assert "\n" not in str(caught.value)
    return caught.value


def test_a_tile_changed_in_a_play_is_refused_naming_the_turn() -> None:
    text = export(simulate(3, 2))
    number, line = _turn_line(text, "arrange")
    # Change the number of the first plain tile: its meld is then no group and no run.
    head, _, table = line.partition(" arrange ")
    first = next(code for code in table.split() if not code.startswith("J"))
    number_of = int(first[1:].split("#")[0])
    changed = f"{first[0]}{number_of + 5 if number_of <= 8 else number_of - 5}"
    tampered = text.replace(line, f"{head} arrange {table.replace(first, changed, 1)}")
    err = _refusal(tampered)
    assert err.turn == number
    assert str(err).startswith(f"Turn {number} (Player ")


def test_a_draw_turned_into_a_play_is_refused_naming_the_turn() -> None:
    text = export(simulate(4, 2))
    number, line = _turn_line(text, "draw", after=2)
    seat = line.split()[1]
    tampered = text.replace(line, f"{number}. {seat} play K1 K2 K4", 1)
    err = _refusal(tampered)
    assert err.turn == number and f"Turn {number} " in str(err)


def test_a_turn_given_to_the_wrong_seat_is_refused() -> None:
    text = export(simulate(5, 3))
    number, line = _turn_line(text, "draw", after=4)
    seat = int(line.split()[1])
    other = (seat + 1) % 3
    tampered = text.replace(line, line.replace(f"{number}. {seat} ", f"{number}. {other} ", 1))
    err = _refusal(tampered)
    assert err.turn == number
    assert f"(Player {other}, seat {other}): it was the turn of Player {seat}, seat {seat}." in str(
        err
    )


def test_a_changed_result_or_seed_is_refused() -> None:
    text = export(simulate(6, 2))
    record = parse_record(text)
    assert record.result is not None
    wrong = _refusal(text.replace(record.result, "out winner=1 scores=5,-5 racks=5,0"))
    assert wrong.turn == len(record.turns)
    assert f"After turn {len(record.turns)}" in str(wrong)
    reseeded = _refusal(text.replace(f'[Seed "{record.seed}"]', f'[Seed "{record.seed + 1}"]'))
    assert reseeded.turn is not None and f"urn {reseeded.turn}" in str(reseeded)


def test_a_missing_turn_or_a_turn_after_the_end_is_refused() -> None:
    text = export(simulate(8, 2))
    number, line = _turn_line(text, "draw")
    err = _refusal(text.replace(line + "\n", "", 1))
    assert err.turn == number + 1 and f"expected turn {number}" in str(err)
    record = parse_record(text)
    last = record.turns[-1]
    extra = text + f"{last.number + 1}. {(last.seat + 1) % 2} draw\n"
    over = _refusal(extra)
    assert over.turn == last.number + 1 and "already over" in str(over)


HAND_WRITTEN = """\
[Format "rummikub-record 1"]
[Seed "42"]
[Seat0 "Ann"]
[Seat1 "Ben"]
[Seat1AI "hard"]

% a record may be written by hand, with any draft steps
1. {seat} draw
2. {other} draw {{Ben waits}}
"""


def test_a_hand_written_record_replays_with_defaults() -> None:
    game = Game.new(2, 42)
    text = HAND_WRITTEN.format(seat=game.current, other=1 - game.current)
    record = parse_record(text)
    assert record.rules == Rules() and record.seats[1].ai == "hard"
    assert record.turns[1].comment == "Ben waits"
    final = replay_game(record)
    assert final.turn == 3 and final.log == [f"{game.current} draw", f"{1 - game.current} draw"]


def test_draft_steps_and_done_replay_like_the_arrangement() -> None:
    game = Game.new(2, 11, Rules(opening_threshold=0))
    seat = game.current
    rack = sorted(game.rack(seat), key=lambda t: t.sort_key())
    melds = choose_move(game, seat, "hard")
    assert melds is not None, rack
    steps = " ; ".join(f"play {' '.join(t.code for t in m.tiles)}" for m in melds)
    text = (
        '[Format "rummikub-record 1"]\n[Rules "opening_threshold=0"]\n[Seed "11"]\n'
        f'[Seat0 "A"]\n[Seat1 "B"]\n\n1. {seat} {steps} ; done\n'
    )
    final = replay_game(parse_record(text))
    assert final.turn == 2 and final.last is not None and final.last.kind == "play"


def test_a_record_turn_with_auto_replays_in_both_stored_forms() -> None:
    """A hand-written ``auto`` asks the solver; the resolved form a draft stores
    (``auto => ...``) replays as written, and both reach the same table."""
    from engine.steps import apply_step

    game = Game.new(2, 11, Rules(opening_threshold=0))
    seat = game.current
    draft = game.draft()
    apply_step(draft, "auto")
    resolved = draft.steps[-1]
    assert resolved.startswith("auto => ")
    head = '[Format "rummikub-record 1"]\n[Rules "opening_threshold=0"]\n[Seed "11"]\n'
    head += '[Seat0 "A"]\n[Seat1 "B"]\n\n'
    tables = []
    for command in ("auto ; done", f"{resolved} ; done"):
        final = replay_game(parse_record(f"{head}1. {seat} {command}\n"))
        assert final.turn == 2 and final.last is not None and final.last.kind == "play"
        tables.append([m.code() for m in final.table])
    assert tables[0] == tables[1] == [m.code() for m in draft.melds()]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "not a Rummikub record"),
        ('[Format "rummikub-record 1"]\n[Seat0 "A"]\n[Seat1 "B"]\n', "no [Seed"),
        ('[Format "rummikub-record 1"]\n[Seed "x"]\n[Seat0 "A"]\n[Seat1 "B"]\n', "whole number"),
        ('[Format "rummikub-record 1"]\n[Seed "1"]\n[Seat0 "A"]\n', "at least two"),
        ('[Format "rummikub-record 1"]\n[Seed "1"]\n[Seat0 "A"]\n[Seat0 "B"]\n', "Line 4: the tag"),
        ('[Format "rummikub-record 1"]\n[Seed "1"]\n[Seat0 "A"]\n[Seat1 "B"]\nfoo\n', "Line 5"),
        (
            '[Format "rummikub-record 1"]\n[Seed "1"]\n[Seat0 "A"]\n[Seat1 "B"]\n1. 7 draw\n',
            "no seat 7",
        ),
        (
            '[Format "rummikub-record 1"]\n[Rules "timer=1"]\n[Seed "1"]\n[Seat0 "A"]\n'
            '[Seat1 "B"]\n',
            "rules are not valid",
        ),
        (
            '[Format "rummikub-record 1"]\n[Seed "1"]\n[Seat0 "A"]\n[Seat1 "B"]\n'
            '[Result "nonsense"]\n',
            "not a game result",
        ),
    ],
)
def test_unreadable_records_get_one_sentence(text: str, says: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_names_with_quotes_survive_and_an_unfinished_game_has_no_result() -> None:
    game = Game.new(2, 3)
    for _ in range(4):
        take_turn(game, "easy")
    record = record_from_game(game, ['Ann "the Shark"', "B\\en"])
    text = record.to_text()
    assert '[Result "*"]' in text
    back = parse_record(text)
    assert back == record and back.names == ['Ann "the Shark"', "B\\en"]
    assert isinstance(back, GameRecord) and back.result is None
    assert replay_game(back).to_text() == game.to_text()
