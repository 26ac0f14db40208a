"""Exact solver: the best legal table for a rack, with the fewest changes to the table.

The search is a dynamic programme over the numbers 1 to 13 (after Van Rijn, Takes and Vis, "The
complexity of Rummikub problems", 2015): for each colour it tracks the runs still open (their
length so far, capped at 3) and, at each number, decides which tiles extend runs, start runs or
go into groups. Groups of one number are settled once all four colours of that number are known.
Faces with the same colour and number are interchangeable, so the state space stays small; the
physical tiles are chosen afterwards so that as many table sets as possible stay as they were.

Rules the model enforces (see docs/solver.md):

* every table tile stays on the table; rack tiles are optional (or required: ``must_place``);
* a joker on the table stays in its place, as ``engine.rules.joker_problem`` defines it: it keeps
  the face it stands for (a run joker the same face, a group joker the same number and a colour
  its group was missing) and its final set holds a real tile of its original set; for a run joker
  that is one of the nearest real tiles on either side of it in the final run;
* or, after the initial meld, it is retrieved: a real tile of a face it stands for (from the rack
  or another set) takes its place, and the joker goes into a new set. Each way of freeing some
  table jokers is searched as the same table with those jokers locked in place, one real tile of
  each one's face taken out of the supply and a stand-in joker that must be placed (see "joker
  retrieval" below and docs/solver.md);
* a set needs a real tile; runs never wrap; groups have distinct colours.

Objectives: ``tiles`` places the most rack tiles (ties: the most points, a joker 30); ``value``
places the most points (a joker 30, the penalty it would cost on the rack; ties: more tiles). In
the opening a joker counts as the tile it stands for, both for the threshold and for ``value``.
"""

from __future__ import annotations

from engine.solver.api import auto_arrange, check, solve
from engine.solver.explain import explain, explain_message
from engine.solver.model import OBJECTIVES, Solution
from engine.solver.native import compiled

# The same source compiled with mypyc, when the install built it from exactly these files.
_native = compiled()
if _native is not None:
    auto_arrange, check, solve = _native.api.auto_arrange, _native.api.check, _native.api.solve
    explain, explain_message = _native.explain.explain, _native.explain.explain_message
    Solution = _native.model.Solution  # type: ignore[misc]
COMPILED = _native is not None

__all__ = [
    "COMPILED",
    "OBJECTIVES",
    "Solution",
    "auto_arrange",
    "check",
    "explain",
    "explain_message",
    "solve",
]
