"""Issue 13, properties (a) and (c) on seeded positions (tables up to 80 tiles, jokers on the
table and the rack, melded and not):

(a) the solver's answer, stated by faces through ``arrange``, is accepted by ``done``;
(c) ``hint``'s commands, typed one by one through ``engine.steps.apply_step`` (the path every typed
    command takes), are each accepted and end in the table the hint promised, a legal turn,
    from the start of the turn and from a random draft.

``RUMMIKUB_PROPERTY_POSITIONS`` raises the number of positions (default 42, under a minute).
"""

from __future__ import annotations

import os
import random

import pytest

from engine import Game, PlayerState, Rules
from engine.draft import Draft
from engine.errors import RummikubError
from engine.hints import hint
from engine.solver import solve
from engine.steps import apply_step
from tests.engine.solver_oracle import Position, position_suite
from tests.engine.test_properties import random_step

COUNT = int(os.environ.get("RUMMIKUB_PROPERTY_POSITIONS", "42"))
SUITE = position_suite(COUNT, seed=1313)


def game_of(position: Position, melded: bool) -> Game:
    used = {t for m in position.table for t in m.tiles} | set(position.rack)
    rules = Rules(edition=position.edition)
    pool = [t for t in rules.edition.all_tiles() if t not in used]
    other = PlayerState([pool.pop() for _ in range(min(14, len(pool)))], True)
    players = [PlayerState(list(position.rack), melded), other]
    return Game(rules, 0, players, list(position.table), pool, 0, 0)


def follow(draft: Draft) -> None:
    """Type the hint's commands in order: each is accepted and the promised table is reached."""
    found = hint(draft)
    if found is None:
        return
    for command in found.commands:
        apply_step(draft, command)
    assert tuple(s.text() for s in draft.slots) == found.table
    assert draft.problems() == []
    draft.game.commit(draft)


@pytest.mark.parametrize("position", SUITE, ids=lambda p: p.ident)
def test_the_solvers_answer_stated_by_faces_is_accepted_by_done(position: Position) -> None:
    for melded in (True, False):
        game = game_of(position, melded)
        best = solve(game.table, game.players[0].rack, opening=not melded)
        if best is None:
            continue
        draft = game.draft(0)
        apply_step(draft, "arrange " + " / ".join(m.text() for m in best.melds))
        outcome = game.commit(draft)
        assert len(outcome.placed) == len(best.placed)


@pytest.mark.parametrize("position", SUITE[::2], ids=lambda p: p.ident)
def test_hint_commands_are_accepted_from_the_start_of_the_turn(position: Position) -> None:
    melded = int(position.ident.rsplit("-", 1)[1]) % 4 != 3
    follow(game_of(position, melded).draft(0))


@pytest.mark.parametrize("position", SUITE[1::2], ids=lambda p: p.ident)
def test_hint_commands_are_accepted_from_a_random_draft(position: Position) -> None:
    rng = random.Random(position.ident)
    melded = rng.random() < 0.8
    draft = game_of(position, melded).draft(0)
    accepted = 0
    for _ in range(30):
        try:
            apply_step(draft, random_step(rng, draft))
        except RummikubError:
            continue
        accepted += 1
        if accepted >= 3:
            break
    follow(draft)


@pytest.mark.parametrize("position", SUITE[::2], ids=lambda p: p.ident)
def test_a_table_built_by_steps_and_stated_by_faces_gets_the_same_verdict(
    position: Position,
) -> None:
    """Steps and ``arrange`` share one rule: a legal table built step by step, restated by
    faces in a fresh draft, is legal too (and both reach ``done``'s verdict)."""
    rng = random.Random(position.ident + "steps")
    game = game_of(position, rng.random() < 0.8)
    draft = game.draft(0)
    legal = 0
    for _ in range(40):
        step = "auto" if rng.random() < 0.15 else random_step(rng, draft)
        try:
            apply_step(draft, step)
        except RummikubError:
            continue
        if step == "auto":
            assert draft.is_legal, draft.problems()  # auto always ends in a legal turn
        if draft.held or any(slot.error_message() for slot in draft.slots):
            continue
        if not any(slot.tiles for slot in draft.slots):
            continue
        fresh = game.draft(0)
        apply_step(fresh, "arrange " + " / ".join(s.text() for s in draft.slots if s.tiles))
        if draft.is_legal:
            legal += 1
            assert fresh.is_legal, (draft.steps, fresh.problems())
    print(position.ident, "legal tables compared:", legal)
