"""What a box of tiles holds: a position typed on the command line (``solve``, ``render``)
may not name more copies of a tile than its edition has."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.tiles import Tile

EDITIONS = ("classic", "xp")


def check_box(tiles: Iterable[Tile], edition_name: str) -> None:
    """Refuse tiles that name more copies of a face (or more jokers) than the box holds."""
    from engine.errors import NotationError
    from engine.tiles import Edition

    edition = Edition(edition_name)
    counts = Counter(str(t) for t in tiles)
    for face, count in counts.items():
        most = edition.jokers if face == "J" else edition.copies
        if count > most:
            kind = "jokers" if face == "J" else f"{face} tiles"
            hint = "" if edition is Edition.XP else " (the xp box: --edition xp)"
            raise NotationError(
                f"The table and rack name {count} {kind}, but the {edition.value} box has "
                f"only {most}{hint}."
            )
