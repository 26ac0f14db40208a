"""``rummikub solve``: the best play for a table and a rack, one position or a batch.

One position: ``rummikub solve --table "R4 R5 R6 / K9 B9 O9" --rack "R7 K9 J"``. Batch: JSON
lines from a file or ``-`` (stdin), each ``{"id": "a", "table": "R4 R5 R6 / K9 B9 O9", "rack":
"R7 K9 J"}``: ``table`` and ``rack`` as the command language writes them (as ``--table`` and
``--rack``), or as lists (``"table": [["R4", "R5", "R6"], "K9 B9 O9"]``, ``"rack": ["R7",
"K9", "J"]``); optional ``objective``, ``opening``, ``threshold``, ``edition`` as the options.
One JSON line out per position: ``{"id", "tiles", "value", "table", "placed", "ms"}``
(``table`` is the whole new table, ``placed`` the rack tiles played; a line that cannot be
read gets ``{"id", "error"}``, the error one sentence).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from bot.cli import options
from bot.cli.box import EDITIONS, check_box


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", default="", help='table melds, e.g. "R4 R5 R6 / K9 B9 O9"')
    parser.add_argument("--rack", default=None, help='rack tiles, e.g. "R7 K9 J"')
    parser.add_argument(
        "--objective",
        choices=("tiles", "value"),
        default="tiles",
        help="place the most tiles (default) or the most points (a joker counts 30)",
    )
    parser.add_argument(
        "--opening", action="store_true", help="initial meld: new sets from the rack only"
    )
    parser.add_argument(
        "--threshold",
        type=options.setting("threshold"),
        default=30,
        help=f"initial meld total with --opening, {options.span('threshold')} (30)",
    )
    parser.add_argument(
        "--place", default=None, help="place exactly these rack tiles (like the auto verb)"
    )
    parser.add_argument(
        "--edition",
        choices=EDITIONS,
        default="classic",
        help="the box: classic (2 of each tile, 2 jokers; default) or xp (3 of each, 4 jokers)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--batch",
        metavar="FILE",
        default=None,
        help='solve JSON lines from FILE (- for stdin), each like {"id": "a", "table": "R4 R5 '
        'R6 / K9 B9 O9", "rack": "R7 K9 J"} (table and rack also as lists: [["R4", "R5", '
        '"R6"], ...], ["R7", ...]; optional objective, opening, threshold, edition); one JSON '
        'line out per position: {"id", "tiles", "value", "table", "placed", "ms"}',
    )


def _claim(tiles: Iterable[Any], used: set[Any]) -> list[Any]:
    """Give repeated faces distinct copies across the table and rack."""
    from engine.tiles import distinct_copies

    return distinct_copies(tiles, used)


def _position(
    table_parts: Sequence[str], rack_text: str, edition: str = "classic"
) -> tuple[list[Any], list[Any]]:
    from engine.errors import InvalidMeldError
    from engine.melds import Meld
    from engine.notation import parse_tokens

    used: set[Any] = set()
    melds = []
    for number, part in enumerate(table_parts, start=1):
        tokens = parse_tokens(part)
        tiles = _claim((t.tile for t in tokens), used)
        pins = {i: t.pin for i, t in enumerate(tokens) if t.pin is not None}
        try:
            melds.append(Meld.build(tiles, pins))
        except InvalidMeldError as err:
            raise InvalidMeldError(f"Table meld {number}: {err}") from None
    rack = _claim((t.tile for t in parse_tokens(rack_text)), used) if rack_text.strip() else []
    check_box([*(t for m in melds for t in m.tiles), *rack], edition)
    return melds, rack


def _result(
    solution: Any, table: Sequence[Any], elapsed_ms: float, ident: object = None
) -> dict[str, Any]:
    from engine.solver import explain

    out: dict[str, Any] = {} if ident is None else {"id": ident}
    if solution is None:
        out.update(
            tiles=0,
            value=0,
            table=[m.text().split() for m in table],
            placed=[],
            ms=round(elapsed_ms, 3),
        )
        return out
    out.update(
        tiles=len(solution.placed),
        value=solution.value,
        table=[m.text().split() for m in solution.melds],
        placed=[str(t) for t in solution.placed],
        ms=round(elapsed_ms, 3),
    )
    if ident is None:
        out.update(kept=solution.kept, moved=solution.moved, explain=explain(table, solution))
    return out


def _solve_one(args: argparse.Namespace) -> int:
    from engine.errors import RummikubError
    from engine.notation import parse_tiles, split_melds
    from engine.solver import solve

    if args.rack is None:
        print('Give a rack, e.g. --rack "R7 K9 J" (or --batch FILE).', file=sys.stderr)
        return 2
    try:
        table, rack = _position(split_melds(args.table), args.rack, args.edition)
        place = None
        if args.place is not None:
            place = parse_tiles(args.place)
        start = time.perf_counter()
        solution = solve(
            table,
            rack,
            objective=args.objective,
            opening=args.opening,
            threshold=args.threshold,
            must_place=place,
        )
        elapsed = 1000 * (time.perf_counter() - start)
    except RummikubError as err:
        print(str(err), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(_result(solution, table, elapsed)))
        return 0
    if solution is None:
        if place is not None:
            best = solve(table, place, opening=args.opening, threshold=args.threshold)
            can = " ".join(str(t) for t in best.placed) if best is not None else "none of them"
            print(f"Those tiles cannot all be placed; {can} can.")
        elif args.opening:
            print(f"No initial meld worth {args.threshold} can be made from this rack.")
        else:
            print("No rack tile can be placed; draw.")
        return 1
    from engine.solver import explain

    count = len(solution.placed)
    print(
        f"Places {count} {'tile' if count == 1 else 'tiles'} worth {solution.value}: "
        + " ".join(str(t) for t in solution.placed)
    )
    print(explain(table, solution))
    for number, meld in enumerate(solution.melds, start=1):
        print(f"  {number:>2}: {meld.text()}")
    print(f"({elapsed:.1f} ms)")
    return 0


TABLE_FORMAT = (
    '"table" is melds in one string ("R4 R5 R6 / K9 B9 O9") or a list of melds, each a '
    'string ("R4 R5 R6") or a list of tiles (["R4", "R5", "R6"])'
)
RACK_FORMAT = '"rack" is tiles in one string ("R7 K9 J") or a list of tiles (["R7", "K9", "J"])'


def _tiles_text(value: object, problem: str) -> str:
    """A tile list given as ``"R7 K9 J"`` or ``["R7", "K9", "J"]``, as text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return " ".join(value)
    raise ValueError(problem)


def _table_parts(value: object) -> list[str]:
    """A batch line's table as one text per meld."""
    from engine.notation import split_melds

    if isinstance(value, str):
        return split_melds(value)
    if not isinstance(value, list):
        raise ValueError(TABLE_FORMAT)
    return [_tiles_text(meld, TABLE_FORMAT) for meld in value]


def _batch_options(item: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """A line's own objective, opening and threshold (else the command's), checked."""
    objective = item.get("objective", args.objective)
    if objective not in ("tiles", "value"):
        raise ValueError(f'"objective" is "tiles" or "value", not {objective!r}')
    threshold = item.get("threshold", args.threshold)
    lo, hi = options.limits("threshold")
    if isinstance(threshold, bool) or not isinstance(threshold, int) or not lo <= threshold <= hi:
        raise ValueError(f'"threshold" is a whole number from {lo} to {hi}, not {threshold!r}')
    return {
        "objective": objective,
        "opening": bool(item.get("opening", args.opening)),
        "threshold": threshold,
    }


def solve_batch(lines: Iterable[str], out: TextIO, args: argparse.Namespace) -> int:
    """Solve each JSON line; returns how many lines could not be read."""
    from engine.solver import solve

    errors = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        ident: object = number
        try:
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                raise ValueError("not a JSON object") from None
            if not isinstance(item, dict):
                raise ValueError("not a JSON object")
            ident = item.get("id", number)
            table_parts = _table_parts(item.get("table", []))
            rack_text = _tiles_text(item.get("rack", []), RACK_FORMAT)
            edition = str(item.get("edition", args.edition))
            if edition not in EDITIONS:
                raise ValueError(f"edition is classic or xp, not {edition!r}")
            options = _batch_options(item, args)
            table, rack = _position(table_parts, rack_text, edition)
            start = time.perf_counter()
            solution = solve(table, rack, **options)
            elapsed = 1000 * (time.perf_counter() - start)
            result = _result(solution, table, elapsed, ident)
        except (ValueError, TypeError, AttributeError) as err:
            errors += 1
            result = {"id": ident, "error": f"Line {number}: {str(err).rstrip('.')}."}
        out.write(json.dumps(result) + "\n")
        out.flush()
    return errors


def main(args: argparse.Namespace) -> int:
    if args.batch is None:
        return _solve_one(args)
    if args.batch == "-":
        errors = solve_batch(sys.stdin, sys.stdout, args)
    else:
        try:
            handle = open(args.batch, encoding="utf-8")  # noqa: SIM115
        except OSError as err:
            print(f"Cannot read {args.batch}: {err.strerror}.", file=sys.stderr)
            return 2
        with handle:
            errors = solve_batch(handle, sys.stdout, args)
    return 1 if errors else 0
