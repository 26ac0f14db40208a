"""Random legal and illegal actions through seeded games, checking the invariants every step."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Draft, Game, Meld, Rules, RummikubError
from engine.melds import is_valid_meld
from engine.tiles import Tile


def draft_tiles(game: Game, draft: Draft) -> Counter[Tile]:
    tiles: Counter[Tile] = Counter(game.pool)
    for seat, p in enumerate(game.players):
        if seat != draft.seat:
            tiles.update(p.rack)
    tiles.update(draft.rack)
    tiles.update(draft.held)
    for slot in draft.slots:
        tiles.update(slot.tiles)
    return tiles


def small_sets(rack: list[Tile]) -> list[list[Tile]]:
    found = []
    for combo in itertools.combinations(rack, 3):
        if is_valid_meld(combo):
            found.append(list(combo))
    return found


def random_step(rng: random.Random, draft: Draft) -> str:
    rack = list(draft.rack)
    slots = [i + 1 for i, s in enumerate(draft.slots) if s.tiles]
    verb = rng.choice(["play", "play_to", "move", "split", "swap", "undo", "reset", "junk"])
    pick = lambda src, k: " ".join(t.code for t in rng.sample(src, min(k, len(src))))  # noqa: E731
    if verb == "play" and rack:
        return f"play {pick(rack, rng.randint(1, 4))}"
    if verb == "play_to" and rack and slots:
        return f"play {pick(rack, 1)} to {rng.choice([*slots, 99])}"
    if verb in ("move", "split") and slots:
        n = rng.choice(slots)
        tiles = list(draft.slots[n - 1].tiles)
        if verb == "move":
            dest = rng.choice([*slots, "new"])
            return f"move {pick(tiles, rng.randint(1, 2))} from {n} to {dest}"
        return f"split {n} at {pick(tiles, 1)}"
    if verb == "swap" and slots and rack:
        return f"swap J in {rng.choice(slots)} with {pick(rack, 1)}"
    if verb in ("undo", "reset"):
        return verb
    return rng.choice(["play", "move R7 from", "split x", "swap", "arrange R1 R2", "fly"])


def check_step(game: Game, draft: Draft, step: str) -> None:
    before_state = draft.state
    expected = draft_tiles(game, draft)
    try:
        draft.apply_text(step)
    except RummikubError:
        assert draft.state == before_state, f"a refused step changed the draft: {step}"
    assert draft_tiles(game, draft) == expected, f"tiles changed by {step}"


def play_turn(rng: random.Random, game: Game) -> None:
    draft = game.draft()
    for _ in range(rng.randint(0, 6)):
        check_step(game, draft, random_step(rng, draft))
    before = game.to_text()
    try:
        game.commit(draft)
        committed = True
    except RummikubError:
        committed = False
        assert game.to_text() == before, "a refused commit changed the game"
    if committed:
        return
    # A purposeful turn: open or extend with small sets found on the rack.
    draft = game.draft()
    sets = small_sets(list(draft.rack))
    rng.shuffle(sets)
    used: set[Tile] = set()
    for s in sets[:3]:
        if used.isdisjoint(s):
            draft.apply_text("play " + " ".join(t.code for t in s))
            used.update(s)
    try:
        game.commit(draft)
    except RummikubError:
        assert game.to_text() == before
        if rng.random() < 0.2 and draft.changed:
            game.timeout(draft)
        else:
            game.draw()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), turns=st.integers(10, 60))
def test_random_games_keep_every_invariant(seed: int, players: int, turns: int) -> None:
    rng = random.Random(seed)
    game = Game.new(players, seed)
    for _ in range(turns):
        if game.finished:
            break
        play_turn(rng, game)
        game.check_conservation()
        for meld in game.table:
            assert isinstance(meld, Meld) and is_valid_meld(meld.tiles)
        assert Game.from_text(game.to_text()).to_text() == game.to_text()
    replayed = Game.replay(players, seed, Rules(), game.log)
    assert replayed.to_text() == game.to_text()


def test_random_games_do_play_tiles_and_replay_with_plays() -> None:
    plays = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = Game.new(3, seed)
        for _ in range(80):
            if game.finished:
                break
            play_turn(rng, game)
        plays += sum(1 for entry in game.log if " play " in entry)
        assert Game.replay(3, seed, Rules(), game.log).to_text() == game.to_text()
    assert plays >= 10
