"""Turns game state into text and PNG images for replies.

Text always; images when ``images=True``. Drawing runs in a worker thread
(``asyncio.to_thread``) from views built under the table lock, so the event loop never waits
for Pillow.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.api import Image
from engine import Draft, Game, Match
from renderers import (
    draft_text,
    rack_text,
    render_draft,
    render_rack,
    render_standings,
    render_table,
    table_text,
)
from renderers.views import (
    draft_view_from_draft,
    match_view,
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
        self, game: Game, names: Sequence[str], seconds_left: float | None = None
    ) -> str:
        left = int(seconds_left) if seconds_left is not None else None
        view = table_view_from_game(game, names, seconds_left=left)
        return table_text(view, ansi=self.ansi)

    def draft_text(self, draft: Draft) -> str:
        return draft_text(draft_view_from_draft(draft), ansi=self.ansi)

    def rack_text(self, game: Game, seat: int, sort_by: str) -> str:
        view = rack_view_from_game(game, seat, sort_by="number" if sort_by == "number" else "color")
        return rack_text(view, ansi=self.ansi)

    async def table_images(
        self, game: Game, names: Sequence[str], seconds_left: float | None
    ) -> tuple[Image, ...]:
        if not self.images:
            return ()
        left = int(seconds_left) if seconds_left is not None else None
        view = table_view_from_game(game, names, seconds_left=left)
        png = await asyncio.to_thread(render_table, view, theme=self.theme)
        return (Image("table.png", png, _alt(table_text(view))),)

    async def rack_images(self, game: Game, seat: int, sort_by: str) -> tuple[Image, ...]:
        if not self.images:
            return ()
        view = rack_view_from_game(game, seat, sort_by="number" if sort_by == "number" else "color")
        png = await asyncio.to_thread(render_rack, view, theme=self.theme)
        return (Image("rack.png", png, "your rack"),)

    async def draft_images(self, draft: Draft, sort_by: str) -> tuple[Image, ...]:
        if not self.images:
            return ()
        view = draft_view_from_draft(draft, sort_by="number" if sort_by == "number" else "color")
        png = await asyncio.to_thread(render_draft, view, theme=self.theme)
        return (Image("draft.png", png, "your draft"),)

    async def standings_images(self, match: Match, names: Sequence[str]) -> tuple[Image, ...]:
        if not self.images:
            return ()
        view = match_view(match, names)
        png = await asyncio.to_thread(render_standings, view, theme=self.theme)
        return (Image("standings.png", png, "standings"),)
