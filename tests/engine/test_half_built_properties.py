"""Issue 21, the property behind defect 4: from random positions of seeded games (AI turns
played first, so seats are melded or not, tables of every size), every draft built by ``play``
steps from the rack gets, whenever some legal turn exists, a non-empty ``hint`` whose commands,
typed in order, end in a draft ``done`` accepts; ``auto`` with no tiles ends in one too. Both
keep the tiles already laid whenever a legal turn does that the solver can name directly (the
laid tiles alone, or the best play holding them).

``RUMMIKUB_PROPERTY_EXAMPLES`` raises the number of examples (default 40, about a minute).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from engine import Draft, Game, RummikubError, Tile
from engine.ai import take_turn
from engine.hints import hint
from engine.rules import turn_problems
from engine.solver import solve
from engine.steps import apply_step

EXAMPLES = int(os.environ.get("RUMMIKUB_PROPERTY_EXAMPLES", "40"))


def near(tile: Tile, rack: Sequence[Tile]) -> list[Tile]:
    """Rack tiles that could share a set with ``tile``: the way a person builds a set."""
    if tile.is_joker:
        return [t for t in rack if t != tile]
    return [
        t
        for t in rack
        if t != tile
        and (
            t.is_joker
            or (t.number == tile.number and t.color != tile.color)
            or (t.color == tile.color and 0 < abs(t.number - tile.number) <= 2)
        )
    ]


@st.composite
def half_built(draw: st.DrawFn) -> tuple[Game, list[str]]:
    """A seeded game some turns in, and ``play`` steps the player to move has typed."""
    seed = draw(st.integers(0, 10_000))
    game = Game.new(draw(st.integers(2, 4)), seed)
    for _ in range(draw(st.integers(0, 36))):
        if game.finished:
            break
        take_turn(game, draw(st.sampled_from(["easy", "medium"])))
    if game.finished:
        return game, []
    draft = game.draft()
    for _ in range(draw(st.integers(1, 4))):
        rack = list(draft.rack)
        if not rack:
            break
        first = draw(st.sampled_from(rack))
        partners = near(first, rack)
        more = []
        if partners:
            more = draw(st.lists(st.sampled_from(partners), max_size=2, unique=True))
        slots = [i + 1 for i, slot in enumerate(draft.slots) if slot.tiles]
        target = draw(st.sampled_from([None, *slots])) if not more else None
        step = "play " + " ".join(t.code for t in [first, *more])
        if target is not None:
            step += f" to {target}"
        try:
            apply_step(draft, step)
        except RummikubError:
            continue
    return game, list(draft.steps)


def replayed(game: Game, steps: Sequence[str]) -> tuple[Game, Draft]:
    copy = game.copy()
    draft = copy.draft()
    for step in steps:
        apply_step(draft, step)
    return copy, draft


def some_legal_turn(draft: Draft) -> bool:
    """The oracle: the solver's best play from the start of the turn is a legal turn."""
    opening = not draft.melded_before
    threshold = draft.game.rules.opening_threshold
    best = solve(draft.base_table, draft.base_rack, opening=opening, threshold=threshold)
    return best is not None and not turn_problems(
        draft.base_table,
        draft.base_rack,
        best.melds,
        melded_before=draft.melded_before,
        threshold=threshold,
    )


def can_keep(draft: Draft) -> bool:
    """Whether a legal turn keeps every tile laid this turn that the solver names directly."""
    played = list(draft.played)
    opening, threshold = not draft.melded_before, draft.game.rules.opening_threshold
    tries = [
        solve(draft.base_table, draft.base_rack, opening=opening, threshold=threshold),
        solve(
            draft.base_table,
            draft.base_rack,
            opening=opening,
            threshold=threshold,
            must_place=played,
        ),
    ]
    need = Counter(str(t) for t in played)
    for found in tries:
        if found is None:
            continue
        have = Counter(str(t) for m in found.melds for t in m.tiles if t in draft.base_rack)
        legal = not turn_problems(
            draft.base_table,
            draft.base_rack,
            found.melds,
            melded_before=draft.melded_before,
            threshold=threshold,
        )
        if legal and not need - have:
            return True
    return False


def laid(draft: Draft) -> Counter[str]:
    return Counter(str(t) for t in draft.played)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
@given(case=half_built())
def test_every_half_built_draft_gets_a_hint_and_an_auto_that_end_in_a_legal_turn(
    case: tuple[Game, list[str]],
) -> None:
    game, steps = case
    assume(not game.finished)
    hinted_game, draft = replayed(game, steps)
    assume(some_legal_turn(draft))
    keep = can_keep(draft)
    before = laid(draft)
    half = any(slot.error_message() for slot in draft.slots)
    event(f"melded={draft.melded_before} half-built={half} keep={keep} laid={len(draft.played)}")
    found = hint(draft)
    assert found is not None, steps
    assert found.commands or draft.is_legal, steps
    for command in found.commands:
        apply_step(draft, command)
    assert tuple(s.text() for s in draft.slots) == found.table
    assert draft.problems() == [], (steps, found.commands)
    if keep:
        assert not before - laid(draft), (steps, found.commands)
    hinted_game.commit(draft)

    auto_game, auto = replayed(game, steps)
    apply_step(auto, "auto")
    assert auto.problems() == [], steps
    if keep:
        assert not before - laid(auto), steps
    auto_game.commit(auto)
