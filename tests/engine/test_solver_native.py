"""The compiled build of the solver (mypyc, built by setup.py) answers exactly as the pure
modules do, and is used only when it was built from the sources beside it."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import engine.solver
from engine.solver import api as pure
from engine.solver.native import compiled, source_hash
from tests.engine.solver_oracle import random_position

SOURCES = Path(engine.solver.__file__).parent


def test_compiled_build_answers_as_the_pure_modules() -> None:
    native = compiled()
    if native is None:
        pytest.skip("no compiled solver in use (not built, stale, or turned off)")
    assert engine.solver.solve is native.api.solve
    rng = random.Random(7)
    for i in range(60):
        p = random_position(
            rng,
            [0, 15, 30, 60][i % 4],
            rng.randint(6, 20),
            table_jokers=i % 3,
            rack_jokers=rng.choice([0, 1]),
            ident=str(i),
        )
        objective = "value" if i % 2 else "tiles"
        for minimal_change in (False, True):
            ours = native.api.solve(
                p.table, p.rack, objective=objective, minimal_change=minimal_change
            )
            theirs = pure.solve(p.table, p.rack, objective=objective, minimal_change=minimal_change)
            assert (ours is None) == (theirs is None), p.ident
            if ours is not None and theirs is not None:
                assert [str(m) for m in ours.melds] == [str(m) for m in theirs.melds], p.ident
                assert (ours.value, ours.kept, ours.moved) == (
                    theirs.value,
                    theirs.kept,
                    theirs.moved,
                )


def test_compiled_build_is_off_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMIKUB_SOLVER", "pure")
    assert compiled() is None


def test_an_edited_source_no_longer_matches_the_build(tmp_path: Path) -> None:
    # The build records this hash; an edit anywhere in a compiled module changes it, so a stale
    # compiled copy is never used.
    for path in SOURCES.glob("*.py"):
        shutil.copy(path, tmp_path / path.name)
    before = source_hash(tmp_path)
    assert before == source_hash(SOURCES)
    search = tmp_path / "search.py"
    search.write_text(search.read_text() + "\n# edited\n")
    edited = source_hash(tmp_path)
    assert edited != before
    # The chooser itself and the package entry point are not compiled: editing them does not.
    (tmp_path / "native.py").write_text("# edited\n")
    assert source_hash(tmp_path) == edited
