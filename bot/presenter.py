"""Turns game state into text and PNG images for replies.

Text always; images when ``images=True``. Drawing runs in a worker thread
(``asyncio.to_thread``) from views built under the table lock, so the event loop never waits
for Pillow. Every method takes the channel's language (``lang``): the words in the images, their
alt text and the text renderings follow it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.api import Image
from bot.i18n import t, translator
from engine import Draft, Game, Match
from renderers import (
    draft_text,
    rack_text,
    render_draft,
    render_rack,
    render_standings,
    render_table,
    standings_text,
    table_text,
)
from renderers.scoreline import ScoreLineView, render_scoreline, scoreline_text
from renderers.views import (
    SortBy,
    draft_view_from_draft,
    match_view,
    rack_view_from_draft,
    rack_view_from_game,
    table_view_from_game,
)

ALT_TEXT_LIMIT = 1000  # Discord allows 1024 characters of alt text


def _alt(text: str) -> str:
    return text if len(text) <= ALT_TEXT_LIMIT else text[: ALT_TEXT_LIMIT - 1] + "…"


class Presenter:
    """Text and images for the manager's replies."""

    def __init__(self, *, images: bool = True, theme: str = "light", ansi: bool = False) -> None:
        self.images = images
        self.theme = theme
        self.ansi = ansi

    async def warm_up(self) -> None:
        """Build the palettes and sprite caches once, off the event loop."""
        if self.images:
            from renderers import warm_up

            await asyncio.to_thread(warm_up)

    def table_text(
        self,
        game: Game,
        names: Sequence[str],
        seconds_left: float | None = None,
        *,
        lang: str = "en",
    ) -> str:
        left = int(seconds_left) if seconds_left is not None else None
        view = table_view_from_game(game, names, seconds_left=left)
        return table_text(view, ansi=self.ansi, translate=translator(lang))

    def draft_text(self, draft: Draft, *, lang: str = "en", sort_by: str = "color") -> str:
        view = draft_view_from_draft(draft, sort_by="number" if sort_by == "number" else "color")
        return draft_text(view, ansi=self.ansi, translate=translator(lang))

    def rack_line(
        self, game: Game, seat: int, sort_by: str, *, lang: str = "en", draft: Draft | None = None
    ) -> str:
        """The rack reply's sentence. During a draft of this seat, the rack as the draft
        leaves it (what the turn panel shows), with how many tiles are in the draft; else the
        rack with the tiles just drawn named."""
        order: SortBy = "number" if sort_by == "number" else "color"
        if draft is not None and draft.changed:
            view = rack_view_from_draft(draft, sort_by=order)
            tiles = " ".join(str(tile) for tile in view.ordered())
            text = t(
                lang, "rack_draft", count=len(view.tiles), placed=len(draft.played), tiles=tiles
            )
            if view.held:
                held = " ".join(str(tile) for tile in view.ordered() if tile in view.held)
                text += " " + t(lang, "rack_held", tiles=held)
            return text
        view = rack_view_from_game(game, seat, sort_by=order)
        text = t(lang, "rack", count=len(view.tiles), tiles=" ".join(map(str, view.ordered())))
        if view.new_tiles:
            drawn = " ".join(str(tile) for tile in view.ordered() if tile in view.new_tiles)
            text += " " + t(lang, "rack_new", tile=drawn)
        return text

    def rack_text(self, game: Game, seat: int, sort_by: str, *, lang: str = "en") -> str:
        view = rack_view_from_game(game, seat, sort_by="number" if sort_by == "number" else "color")
        return rack_text(view, ansi=self.ansi, translate=translator(lang))

    async def table_images(
        self, game: Game, names: Sequence[str], seconds_left: float | None, *, lang: str = "en"
    ) -> tuple[Image, ...]:
        if not self.images:
            return ()
        tr = translator(lang)
        left = int(seconds_left) if seconds_left is not None else None
        view = table_view_from_game(game, names, seconds_left=left)
        png = await asyncio.to_thread(render_table, view, theme=self.theme, translate=tr)
        return (Image("table.png", png, _alt(table_text(view, translate=tr))),)

    async def rack_images(
        self, game: Game, seat: int, sort_by: str, *, lang: str = "en", draft: Draft | None = None
    ) -> tuple[Image, ...]:
        if not self.images:
            return ()
        tr = translator(lang)
        order: SortBy = "number" if sort_by == "number" else "color"
        if draft is not None and draft.changed:
            view = rack_view_from_draft(draft, sort_by=order)
        else:
            view = rack_view_from_game(game, seat, sort_by=order)
        png = await asyncio.to_thread(render_rack, view, theme=self.theme, translate=tr)
        return (Image("rack.png", png, _alt(rack_text(view, translate=tr))),)

    async def draft_images(
        self, draft: Draft, sort_by: str, *, lang: str = "en"
    ) -> tuple[Image, ...]:
        if not self.images:
            return ()
        tr = translator(lang)
        view = draft_view_from_draft(draft, sort_by="number" if sort_by == "number" else "color")
        png = await asyncio.to_thread(render_draft, view, theme=self.theme, translate=tr)
        return (Image("draft.png", png, _alt(draft_text(view, translate=tr))),)

    async def scoreline_images(self, view: ScoreLineView, *, lang: str = "en") -> tuple[Image, ...]:
        """A player's last match, game by game (``stats``)."""
        if not self.images:
            return ()
        tr = translator(lang)
        png = await asyncio.to_thread(render_scoreline, view, theme=self.theme, translate=tr)
        return (Image("stats.png", png, _alt(scoreline_text(view, translate=tr))),)

    async def standings_images(
        self, match: Match, names: Sequence[str], *, lang: str = "en"
    ) -> tuple[Image, ...]:
        if not self.images:
            return ()
        tr = translator(lang)
        view = match_view(match, names)
        png = await asyncio.to_thread(render_standings, view, theme=self.theme, translate=tr)
        return (Image("standings.png", png, _alt(standings_text(view, translate=tr))),)
