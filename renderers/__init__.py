"""Pure renderers: view snapshots to PNG bytes (Pillow) and to text.

Every ``render_*`` function is pure and thread-safe; the bot calls them through
``asyncio.to_thread``. Views are small frozen dataclasses (``renderers.views``).
"""

from __future__ import annotations

from renderers.draft import draw_draft, render_draft
from renderers.palette import warm_up
from renderers.rack import draw_rack, render_rack
from renderers.standings import draw_standings, render_standings
from renderers.table import draw_table, layout_table, render_table
from renderers.text import draft_text, rack_text, standings_text, table_text
from renderers.views import (
    DraftView,
    MeldSlot,
    PlayerInfo,
    RackView,
    StandingRow,
    StandingsView,
    TableView,
)

__all__ = [
    "DraftView",
    "MeldSlot",
    "PlayerInfo",
    "RackView",
    "StandingRow",
    "StandingsView",
    "TableView",
    "draft_text",
    "draw_draft",
    "draw_rack",
    "draw_standings",
    "draw_table",
    "layout_table",
    "rack_text",
    "render_draft",
    "render_rack",
    "render_standings",
    "render_table",
    "standings_text",
    "table_text",
    "warm_up",
]
