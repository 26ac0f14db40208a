"""What a solution does to the table, in words (``explain``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.melds import Meld, MeldKind
from engine.messages import Clauses, Msg, both
from engine.solver.model import Solution
from engine.tiles import (
    tiles_text,
)


def explain(table: Sequence[Meld], solution: Solution) -> str:
    """One or two short lines: what the play does to the table ("Added R8 to meld 3; ...")."""
    return str(explain_message(table, solution))


def explain_message(table: Sequence[Meld], solution: Solution) -> Msg | Clauses:
    """:func:`explain` as a translatable message."""
    origin = {t: i for i, m in enumerate(table) for t in m.tiles}
    placed = set(solution.placed)
    final = solution.melds
    main: dict[int, int] = {}
    for i, meld in enumerate(table):
        tiles = set(meld.tiles)
        main[i] = max(range(len(final)), key=lambda f: len(tiles & set(final[f].tiles)))
    parts: dict[int, list[int]] = {}
    for f, meld in enumerate(final):
        for i in {origin[t] for t in meld.tiles if t in origin}:
            parts.setdefault(i, []).append(f)
    done: set[int] = set()
    sentences: list[Msg] = []
    for f, meld in enumerate(final):
        if f in done:
            continue
        mine = [t for t in meld.tiles if t in placed]
        sources = {origin[t] for t in meld.tiles if t in origin}
        if not sources:
            sentences.append(Msg("new set {tiles}", tiles=meld.text()))
            continue
        mains = [i for i in sorted(sources) if main[i] == f]
        borrowed = [t for t in meld.tiles if t in origin and main[origin[t]] != f]
        if len(mains) == 1:
            i = mains[0]
            pieces = parts[i]
            if (
                len(pieces) > 1
                and table[i].kind is MeldKind.RUN
                and all({origin[t] for t in final[p].tiles if t in origin} == {i} for p in pieces)
            ):
                done.update(pieces)
                ordered = sorted(pieces, key=lambda p: final[p].faces[0].number)
                extra = [t for p in ordered for t in final[p].tiles if t in placed]
                cut = next(t for t in final[ordered[1]].tiles if t in origin or t in placed)
                if extra:
                    sentences.append(
                        Msg(
                            "split meld {number} at {tile} and added {tiles}",
                            number=i + 1,
                            tile=str(cut),
                            tiles=tiles_text(extra),
                        )
                    )
                else:
                    sentences.append(
                        Msg("split meld {number} at {tile}", number=i + 1, tile=str(cut))
                    )
                continue
            if borrowed:
                froms = sorted({origin[t] + 1 for t in borrowed})
                sentences.append(
                    Msg(
                        "moved {tiles} from meld {sources} to meld {number}",
                        tiles=tiles_text(borrowed),
                        sources=", ".join(map(str, froms)),
                        number=i + 1,
                    )
                )
            if mine:
                sentences.append(
                    Msg("added {tiles} to meld {number}", tiles=tiles_text(mine), number=i + 1)
                )
        elif not mains:
            froms = sorted({origin[t] + 1 for t in borrowed})
            sentences.append(
                Msg(
                    "new set {tiles} with {borrowed} from meld {sources}",
                    tiles=meld.text(),
                    borrowed=tiles_text(borrowed),
                    sources=", ".join(map(str, froms)),
                )
            )
        else:
            if mine:
                sentences.append(
                    Msg(
                        "joined melds {numbers} with {tiles}",
                        numbers=both([i + 1 for i in mains]),
                        tiles=tiles_text(mine),
                    )
                )
            else:
                numbers = both([i + 1 for i in mains])
                sentences.append(Msg("joined melds {numbers}", numbers=numbers))
    if not sentences:
        return Msg("No change.")
    return Clauses(sentences)
