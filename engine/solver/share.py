"""One memo for the searches of one retrieval (the roaming bound aside, its trials differ only
at a few numbers): a search's entries for the stages of number n on are valid in another
search whose model agrees from n on, so they are keyed by an id of that suffix of the model."""

from __future__ import annotations

import threading
from typing import Final

from engine.melds import MeldKind
from engine.solver.model import _STAGES, Model
from engine.solver.tables import Tables

# Stage keys: stage s of a suffix with id k is s + _SPAN * k (an int, as the stage was).
_SPAN: Final = _STAGES + 1


class Share:
    """The shared memo and the ids of the model suffixes seen (per thread, for one call), for
    the searches using ``tables`` (the memo's keys hold its ids of open runs and groups)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, int, int, int, int], tuple[int, object]] = {}
        self.ids: dict[object, int] = {}
        self.tables: Tables | None = None

    def restart(self, tables: Tables) -> None:
        """Start afresh for the searches using ``tables`` (the searches before keep theirs)."""
        self.memo = {}
        self.ids = {}
        self.tables = tables


_LOCAL = threading.local()


def current() -> Share | None:
    """The memo shared by this thread's searches now, if any (``Sharing``)."""
    share: Share | None = getattr(_LOCAL, "share", None)
    return share


class Sharing:
    """Let the searches started inside share one memo (nested uses keep the outer one)."""

    def __init__(self) -> None:
        self.outer: Share | None = None

    def __enter__(self) -> None:
        self.outer = current()
        if self.outer is None:
            _LOCAL.share = Share()

    def __exit__(self, *exc: object) -> None:
        if self.outer is None:
            _LOCAL.share = None


def stage_keys(model: Model, share: Share, group_ok: list[bool]) -> list[int]:
    """Per stage, the key the memo files its entries under: the stage and the id of what the
    search from there on depends on (the kind of search, every run joker, the jokers to place
    unless they may be left for the end, and per number from there to 13 the tiles of each
    colour, table tiles apart, the group jokers standing there and whether groups can be
    made). The jokers left are in the memo's key."""
    m = model
    runs = tuple(
        (lk.ident, lk.color, lk.number, lk.reals, lk.witnessing, lk.mark)
        for lk in m.locked
        if lk.kind is MeldKind.RUN
    )
    tail: tuple[object, ...] = (
        m.kind,
        m.defer,
        m.threshold,
        0 if m.defer else m.free_jokers,
        0 if m.defer else m.must_jokers,
        runs,
        tuple(sorted(m.marks.items())),
    )
    ids = share.ids
    keys = [0] * _SPAN
    k = ids.setdefault(tail, len(ids))
    keys[_STAGES] = _STAGES + _SPAN * k
    for n in range(13, 0, -1):
        groups = tuple(
            (j, m.locked[j].reals, m.locked[j].banned, m.locked[j].mates)
            for j in m.locked_group.get(n, ())
        )
        here = tuple((m.must[c][n], m.opt[c][n], m.table_count[c][n]) for c in range(4))
        # (k: the id of the numbers after n)
        k = ids.setdefault((here, groups, group_ok[n], k), len(ids))
        for s in range(5 * n - 5, 5 * n):
            keys[s] = s + _SPAN * k
    return keys
