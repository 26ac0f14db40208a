"""The web board: a player's turn as a drag-and-drop page, served by the bot process itself.

The page (``static/``, shipped in the package, no build step) shows the table and the viewer's
own rack and sends every action as the command the chat would take, through
``GameService.handle``; it learns of changes from a Server-Sent Events stream. ``auth`` checks
who is looking (a signed link, or a Telegram Mini App's ``initData``), ``app`` holds the routes
and limits, ``links`` the addresses and the "Open board" button, ``server`` starts it all on the
bot's event loop.
"""

from __future__ import annotations

from bot.web.links import BoardLinks, is_turn_panel, with_button
from bot.web.server import BoardConfig, BoardServer, start_board

__all__ = [
    "BoardConfig",
    "BoardLinks",
    "BoardServer",
    "is_turn_panel",
    "start_board",
    "with_button",
]
