"""Ids and options that outlive one call (per thread): open runs and group counts as small
ints, and the colour-stage options and steps shared between calls, as named records."""

from __future__ import annotations

import threading
from typing import Final, NamedTuple

from engine.solver.model import _CODE, _P_SHIFT, Item

_T_SHIFT: Final = 7  # the flag bits of a slot (T, X and the waiting table jokers) start here


class Act(NamedTuple):
    """What happens to one open run at a colour stage (``item`` None: it ends here), or what
    starts a new run; ``slot`` is the run's slot code afterwards."""

    item: Item | None
    slot: int


class Option(NamedTuple):
    """One way to use a colour's tiles at one number: the open runs after it (sorted slot
    codes), reals used, free jokers used, reals left for the groups, and per old run and per
    new run what happens."""

    slots: tuple[int, ...]
    used: int
    free: int
    to_groups: int
    acts: tuple[Act, ...]
    starts: tuple[Act, ...]


class Ready(NamedTuple):
    """An option with what the search needs of its new slots: their id, how many runs must go
    on (``_goes_on``) and how many have one tile, and whether all of them may end."""

    sid: int
    used: int
    free: int
    to_groups: int
    acts: tuple[Act, ...]
    starts: tuple[Act, ...]
    short: int
    ones: int
    closed: bool


# An option ready for the search: (best total it can still reach, gain, change of the colour's
# open-run id, free jokers left, reals to groups, opening value added, acts, starts, free jokers
# its short runs will need at the next two numbers at least). Made and
# read only by ``Search`` and kept a plain tuple on purpose: the search's inner loop unpacks one
# per node, and CPython unpacks an exact tuple on a fast path that a NamedTuple misses (the
# search was 8% slower with one).
Step = tuple[int, int, int, int, int, int, tuple[Act, ...], tuple[Act, ...], int]


# Memo key: (stage, packed open runs, jokers left, group counts id, opening value so far).
_Key5 = tuple[int, int, int, int, int]
_ColourChoice = tuple[Step, int, int, int, int]
# The open runs of all four colours are packed into one int: _SB bits per colour hold the id
# of that colour's sorted tuple of slot codes (0 = no open run). Four times 15 bits keep it
# under 62 bits, where the compiled build does its arithmetic on machine words (no big
# ints); a solve makes a few hundred slot tuples at most (708 on the benchmark's suites), and
# the tables start afresh past _SIDS_FRESH, so no id reaches 1 << _SB.
_SB: Final = 15
_SMASK: Final = (1 << _SB) - 1
_SIDS_FRESH: Final = 1 << 13


class Tables:
    """Ids and options that outlive one call, kept per thread (the bot solves in worker threads):
    one colour's open runs (a sorted tuple of slot codes) and the group counts of one number (a
    tuple, one count per colour, or sorted) get small ids, and the options of a colour stage
    without table jokers are shared between calls. Tens of thousands of entries after thousands
    of hard positions (about 0.6 KB each); solve() starts afresh past 50,000, so a thread's
    tables stay near 30 MB at most."""

    def __init__(self) -> None:
        self.sids: dict[tuple[int, ...], int] = {(): 0}
        self.stab: list[tuple[int, ...]] = [()]
        self.gids: dict[tuple[int, ...], int] = {(): 0}
        self.gtab: list[tuple[int, ...]] = [()]
        self.gsum: list[int] = [0]
        self.gnext: dict[int, int] = {}
        self.shared: dict[int, tuple[list[Ready], int, int]] = {}
        # Group feasibility without table jokers: the counts so far (id), what the remaining
        # colours of the number could add (``rests`` id) and the jokers, packed in one int.
        self.rests: dict[tuple[int, ...], int] = {}
        self.feasible: dict[int, bool] = {}
        self.steps: dict[int, list[Step]] = {}
        self.slot_flags: list[bool] = []
        # What open runs need of the next two numbers, by (open runs id, supply, supply after).
        self.lacks: dict[int, int] = {}

    def locked_slots(self, sid: int) -> bool:
        """Whether the open runs ``sid`` hold a table joker still waiting for a real tile."""
        flags = self.slot_flags
        while len(flags) <= sid:
            flags.append(any(x >> _P_SHIFT for x in self.stab[len(flags)]))
        return flags[sid]

    def big(self) -> bool:
        return (
            len(self.stab) > _SIDS_FRESH
            or len(self.stab) + len(self.shared) + len(self.steps) > 50_000
        )


_LOCAL = threading.local()


def _tables() -> Tables:
    tables: Tables | None = getattr(_LOCAL, "tables", None)
    if tables is None or tables.big():
        tables = _LOCAL.tables = Tables()
    return tables


def _goes_on(slot: int) -> bool:
    """Whether an open run must take a tile of the next number: shorter than three, jokers
    only, waiting for a real tile for a table joker, ending in deferred jokers, or led by a
    free joker (those run on to 13)."""
    return (slot & _CODE) != 3 or slot >> _T_SHIFT != 0


def _lack(slots: tuple[int, ...], supply1: int, supply2: int) -> int:
    """The free jokers open runs ``slots`` need at the next two numbers at least, given the
    tiles and table jokers there: one tile each at the next for the runs that must go on, and
    one more at the one after for the runs of one tile."""
    short = sum(1 for x in slots if _goes_on(x))
    if not short:
        return 0
    ones = sum(1 for x in slots if (x & _CODE) in (1, 4))
    return max(0, short - supply1) + max(0, ones - supply2)


def _ready(options: list[Option], tables: Tables) -> list[Ready]:
    out: list[Ready] = []
    sids = tables.sids
    stab = tables.stab
    for state, used, free, gc, acts, starts in options:
        sid = sids.get(state)
        if sid is None:
            sid = sids[state] = len(stab)
            assert sid <= _SMASK  # see _SB: far more open-run shapes than one solve makes
            stab.append(state)
        short = sum(1 for x in state if _goes_on(x))
        ones = sum(1 for x in state if (x & _CODE) in (1, 4))
        closed = all((x & _CODE) == 3 and not x >> (_P_SHIFT - 1) for x in state)
        out.append(Ready(sid, used, free, gc, acts, starts, short, ones, closed))
    return out
