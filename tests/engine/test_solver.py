"""The solver on positions a player would recognise: what it plays, what it keeps, what it says."""

from __future__ import annotations

import gc
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.errors import IllegalMoveError
from engine.melds import Meld, MeldKind
from engine.notation import parse_tokens
from engine.solver import auto_arrange, check, explain, solve
from engine.tiles import Tile, distinct_copies
from tests.engine.solver_oracle import random_position


def position(table: str, rack: str) -> tuple[list[Meld], list[Tile]]:
    """Table melds (``/`` between them) and a rack; repeated faces become different copies."""
    used: set[Tile] = set()

    def claim(tile: Tile) -> Tile:
        return distinct_copies([tile], used)[0]

    melds = []
    for part in [p for p in table.split("/") if p.strip()]:
        tokens = parse_tokens(part)
        pins = {i: t.pin for i, t in enumerate(tokens) if t.pin is not None}
        melds.append(Meld.build([claim(t.tile) for t in tokens], pins))
    return melds, [claim(t.tile) for t in parse_tokens(rack)] if rack.strip() else []


def texts(melds: list[Meld]) -> list[str]:
    return [m.text() for m in melds]


def test_extends_a_run_and_a_group_and_says_so() -> None:
    table, rack = position("R4 R5 R6 / K9 B9 O9", "R7 K9 J")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert sorted(str(t) for t in sol.placed) == ["J", "R7"]
    assert texts(sol.melds) in (
        ["R4 R5 R6 R7", "K9 B9 O9 J=R9"],
        ["R4 R5 R6 R7 J=R8", "K9 B9 O9"],
        ["J=R3 R4 R5 R6 R7", "K9 B9 O9"],
    )
    assert explain(table, sol) in (
        "Added R7 to meld 1; added J to meld 2.",
        "Added R7 J to meld 1.",
    )
    assert sol.moved == 0


def test_splits_a_run_to_fit_a_duplicate() -> None:
    table, rack = position("R4 R5 R6 R7 R8 R9", "R6 B1")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert [str(t) for t in sol.placed] == ["R6"]
    assert sorted(texts(sol.melds)) == ["R4 R5 R6", "R6 R7 R8 R9"]
    assert explain(table, sol).startswith("Split meld 1")
    assert (sol.kept, sol.moved) == (0, 2)


def test_keeps_untouched_sets_whole() -> None:
    table, rack = position("K1 K2 K3 / B5 B6 B7 / O9 O10 O11 / R11 R12 R13", "B8")
    sol = solve(table, rack)
    assert sol is not None
    assert texts(sol.melds) == ["K1 K2 K3", "B5 B6 B7 B8", "O9 O10 O11", "R11 R12 R13"]
    assert (sol.kept, sol.moved) == (3, 0)
    assert explain(table, sol) == "Added B8 to meld 2."


def test_rearranges_the_table_to_place_more() -> None:
    # K7 leaves the group of 7s (it still has three colours) to finish a black run.
    table, rack = position("K7 B7 O7 R7 / K8 K9 K10", "K5 K6")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert sorted(str(t) for t in sol.placed) == ["K5", "K6"]
    assert sol.moved == 1
    assert "meld 1" in explain(table, sol)


def test_table_joker_keeps_its_place() -> None:
    table, rack = position("R4 R5 J=R6", "R3 R7 K6 B6")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    run = next(m for m in sol.melds if any(t.is_joker for t in m.tiles))
    assert run.text() == "R3 R4 R5 J=R6 R7"


def test_group_joker_is_never_taken_without_a_swap() -> None:
    # rummikub-solver 1.0.0 has no 4-group with a joker and finds nothing here.
    table, rack = position("K5 B5 O5 J", "R5 R6 R7")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert "K5 B5 O5 J=R5" in texts(sol.melds)
    assert "R5 R6 R7" in texts(sol.melds)


def test_nothing_to_play_is_none() -> None:
    table, rack = position("R4 R5 R6", "K1 B9")
    assert solve(table, rack) is None


def test_value_objective_prefers_points_and_tiles_prefers_count() -> None:
    table, rack = position("", "K1 K2 K4 B13 O13 J")
    by_count = solve(table, rack, objective="tiles")
    by_value = solve(table, rack, objective="value")
    assert by_count is not None and by_value is not None
    assert sorted(str(t) for t in by_count.placed) == ["J", "K1", "K2", "K4"]
    assert sorted(str(t) for t in by_value.placed) == ["B13", "J", "O13"]
    assert by_value.value == 13 + 13 + 30
    with pytest.raises(ValueError, match="objective"):
        solve(table, rack, objective="fun")


def test_opening_uses_the_rack_only_and_counts_jokers_as_faces() -> None:
    table, rack = position("K7 K8 K9", "R10 R11 R12 K10 K1")
    sol = solve(table, rack, opening=True)
    assert sol is not None and check(table, rack, sol) is None
    assert texts(sol.melds) == ["K7 K8 K9", "R10 R11 R12"]
    assert sol.value == 33
    assert solve(table, rack, opening=True, threshold=34) is None
    _, jokers = position("", "J K10 B10")
    opening = solve([], jokers, opening=True)
    assert opening is not None and opening.value == 30


def test_must_place_places_exactly_those_tiles() -> None:
    table, rack = position("R4 R5 R6 / K9 B9 O9", "R7 R3 K9 O1")
    sol = solve(table, rack, must_place=[Tile.parse("R3")])
    assert sol is not None and [str(t) for t in sol.placed] == ["R3"]
    assert solve(table, rack, must_place=[Tile.parse("O1")]) is None


def test_auto_explains_what_can_be_placed() -> None:
    table, rack = position("R4 R5 R6 / K9 B9 O9", "R7 O1 K2")
    melds = auto_arrange(table, rack, [Tile.parse("R7")], melded=True)
    assert "R4 R5 R6 R7" in texts(melds)
    with pytest.raises(IllegalMoveError, match=r"R7 and O1|R7 O1 cannot all be placed; R7 can"):
        auto_arrange(table, rack, [Tile.parse("R7"), Tile.parse("O1")], melded=True)
    with pytest.raises(IllegalMoveError, match="initial meld"):
        auto_arrange(table, rack, [Tile.parse("R7")], melded=False)
    with pytest.raises(IllegalMoveError, match="not on your rack"):
        auto_arrange(table, rack, [Tile.parse("B13")], melded=True)


def test_duplicates_and_xp_copies() -> None:
    table, rack = position("K5 K6 K7 / K5 K6 K7 / K5 K6 K7", "K8 K8 K8 K4")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert len(sol.placed) == 4


def test_two_table_jokers_never_share_one_witness() -> None:
    # Seen in self-play: both jokers ended in K11 K12 K13 with only the K12 of one of their
    # sets, which the commit check refuses for the other. The solver must avoid that.
    table = [
        Meld.parse("K11 K12 J#1=K13"),
        Meld.parse("K10#1 J=K11 K12#1 K13"),
        Meld.parse("K9 B9#1 R9#1"),
        Meld.parse("B12#1 O12 R12"),
    ]
    rack = [Tile.parse(t) for t in ("K11#1", "R12#1", "O11", "O11#1", "O12#1")]
    for minimal in (False, True):
        sol = solve(table, rack, minimal_change=minimal)
        assert sol is None or check(table, rack, sol) is None


def test_threads_solving_at_once_get_the_same_answers_and_leave_gc_as_it_was() -> None:
    """The solver keeps ids and options between calls per thread and pauses the garbage
    collector while it runs; the bot solves in worker threads, several at a time."""
    rng = random.Random(3)
    positions = [
        random_position(rng, 30, 12, table_jokers=i % 2, rack_jokers=i % 3, ident=str(i))
        for i in range(24)
    ]

    def answer(i: int) -> tuple[int, list[str]] | None:
        p = positions[i]
        sol = solve(p.table, p.rack)
        if sol is None:
            return None
        assert check(p.table, p.rack, sol) is None
        return sol.value, sorted(str(t) for t in sol.placed)

    alone = [answer(i) for i in range(len(positions))]
    assert gc.isenabled()
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(answer, [*range(len(positions))] * 3))
    assert together == alone * 3
    assert gc.isenabled()
    gc.disable()
    try:
        solve(positions[0].table, positions[0].rack)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_jokers_left_for_the_end_lengthen_a_set_with_room() -> None:
    table, rack = position(
        "R13 K13 B13 O13 / O1 O2 O3 O4 O5 O6 O7 O8 O9 O10 O11 O12 O13", "J K5 B5 O5"
    )
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert sol.tiles == 4 and sol.kept == 2
    table, rack = position("R13 K13 B13 O13", "J J R5 R6")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert sol.tiles == 4 and sol.kept == 1


def test_jokers_with_no_set_to_lengthen_are_placed_by_a_full_search() -> None:
    run = " ".join(f"R{n}" for n in range(1, 14))
    table, rack = position(run, "J J")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert sol.tiles == 2
    assert texts(sol.melds) == [run[3:], "R1 J=1 J=1"]
    table, rack = position(run, "J")
    sol = solve(table, rack)
    assert sol is not None and check(table, rack, sol) is None
    assert texts(sol.melds) == [" ".join(f"R{n}" for n in range(1, 12)), "J=R11 R12 R13"]
    table, rack = position("R13 K13 B13 O13", "J")
    assert solve(table, rack) is None


def test_new_sets_are_what_meld_build_makes_of_them() -> None:
    """The solver builds new sets itself (faster than ``Meld.build``); every new set, jokers and
    mirrored searches included, must be exactly what ``Meld.build`` makes of its tiles (run jokers
    pinned to their faces, group jokers left open)."""
    rng = random.Random(7)
    seen_joker_groups = 0
    for i in range(60):
        p = random_position(
            rng,
            [6, 15, 30, 45][i % 4],
            rng.randint(8, 24),
            table_jokers=i % 3,
            rack_jokers=(i // 3) % 3,
        )
        table, rack = p.table, p.rack
        solution = solve(table, rack, minimal_change=False)
        if solution is None:
            continue
        for meld in solution.melds:
            if any(meld is m for m in table):
                continue
            pins = None
            if meld.kind is MeldKind.RUN:
                pins = {
                    j: f
                    for j, (t, f) in enumerate(zip(meld.tiles, meld.faces, strict=True))
                    if t.is_joker
                }
            else:
                seen_joker_groups += bool(meld.jokers)
            assert Meld.build(meld.tiles, pins, meld.kind) == meld
    assert seen_joker_groups > 0


def test_a_rack_joker_can_lead_a_run_that_reaches_13_through_a_table_joker() -> None:
    # The look-ahead for a run led by a free joker used to count only real tiles on the way to
    # 13, so J=O9 O10 O11 J=O12 O13 was never tried (found by the retrieval oracle).
    table, rack = position("O10 O11 J=O12 O13", "J O13 O3")
    sol = solve(table, rack, objective="value")
    assert sol is not None and check(table, rack, sol) is None
    assert [str(t) for t in sol.placed] == ["J"]
    assert texts(sol.melds) == ["J=O9 O10 O11 J=O12 O13"]


def test_the_bound_with_jokers_left_counts_what_one_joker_can_bring() -> None:
    # Tiles that need a free joker in their set, far ahead of the search, bound what the jokers
    # left can bring (``model._bounds``): one joker four lonely tiles of a run, two jokers at
    # one face two runs (one copy of each tile in each), one joker never a tile that needs two.
    cases = [
        ("K1 K2 K3", "R4 R5 R7 R8 J", 5),
        ("K1 K2 K3", "R5 R5 R7 R7 J J", 6),
        ("K11 K12 K13", "R6 R6 R8 R8 J J", 6),
        ("K1 K2 K3", "R4 R5 R7 R8 B13 J", 5),
        ("K1 K2 K3 / K11 K12 K13", "O5 O9 J", 0),
    ]
    for table_text, rack_text, tiles in cases:
        table, rack = position(table_text, rack_text)
        for objective in ("tiles", "value"):
            sol = solve(table, rack, objective=objective, minimal_change=False)
            placed = 0 if sol is None else sol.tiles
            assert placed == tiles or (tiles == 0 and placed == 1), (table_text, rack_text)
            if sol is not None:
                assert check(table, rack, sol) is None


def test_tiles_that_need_more_jokers_than_are_left_leave_the_bound() -> None:
    from engine.solver.model import Model, _useless

    table, rack = position("K1 K2 K3", "B13 R4 R5 R6 J J")
    model = Model(table, rack, [], objective="tiles", opening=False, threshold=30)
    _useless(model)
    b13 = model.weight[13]
    jw = model.max_joker_weight
    # B13 has no B11, B12 or group beside it: it needs both jokers (R4 R5 R6 none).
    assert model.bounds[2][0] == model.bound[0] + 2 * jw
    assert model.bounds[1][0] == model.bound[0] + jw - b13
    assert model.bounds[0][0] == model.bound[0] - b13
    # From number 11 on a joker placed before could stand beside it: no cut there.
    assert model.bounds[0][5 * 10] == model.bound[5 * 10]
    # Two runs can each take a joker at R6 and one R5 and one R7: two jokers bring all four.
    table, rack = position("K1 K2 K3", "R5 R5 R7 R7 J J")
    model = Model(table, rack, [], objective="tiles", opening=False, threshold=30)
    _useless(model)
    w5, w7 = model.weight[5], model.weight[7]
    assert model.bounds[2][0] == model.bound[0] + 2 * jw
    assert model.bounds[1][0] == model.bound[0] + jw - w5 - w7
    assert model.bounds[0][0] == model.bound[0] - 2 * w5 - 2 * w7


def test_solving_leaves_no_closures_in_reference_cycles() -> None:
    # Each colour stage's options were built by a nested function calling itself, and the
    # joker rule checked one tile per joker the same way: every call left a reference cycle
    # holding its lists and options, which the cyclic collector found later (on a run of
    # mid-game solves its collections took a quarter of the time).
    rng = random.Random(11)
    positions = [
        random_position(rng, 40, 14, table_jokers=i % 3, rack_jokers=i % 2) for i in range(12)
    ]
    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for p in positions:
            solve(p.table, p.rack, minimal_change=False)
            solve(p.table, p.rack)
        gc.collect()
        closures = [o for o in gc.garbage if type(o).__name__ in ("function", "cell")]
        stages = [o for o in gc.garbage if type(o).__name__.startswith(("StageOptions", "stage_"))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_on:
            gc.enable()
    assert closures == [] and stages == []


def test_a_search_told_which_reading_won_gives_the_other_a_small_share_of_the_race(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The retrieval searches pass ``prefer`` (the reading that won the position's first
    search): the other reading stays in the race, far behind (``model._PREFER_HEAD_START``)."""
    from engine.solver import drive
    from engine.solver.model import _RACE_BUDGET
    from tests.engine.solver_oracle import mid_game_suite

    made: list[drive.Direction] = []
    original = drive._direction

    def direction(*args: object, **kwargs: object) -> drive.Direction:
        made.append(original(*args, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(drive, "_direction", direction)
    position = next(p for p in mid_game_suite(430, 2026) if p.ident == "m2026-428")
    options = {"objective": "tiles", "opening": False, "threshold": 30}
    free = drive._optimum(position.table, position.rack, [], **options)  # type: ignore[arg-type]
    assert free is not None and len(made) == 2  # the race ran both readings
    winner = free.way.search.m.mirrored
    made.clear()
    told = drive._optimum(position.table, position.rack, [], prefer=winner, **options)  # type: ignore[arg-type]
    assert told is not None and told.score == free.score
    assert made[0].search.m.mirrored is winner and told.way is made[0]
    # With a head start of H the other reading gets at most about 2/H of the winner's nodes:
    # a quarter at most (with the first search's head start of 2 it got 3,503 beside 8,651).
    other = sum(d.search.nodes for d in made[1:])
    assert other <= made[0].search.nodes / 4 + _RACE_BUDGET
