"""Pure Rummikub rules: tiles, melds, the turn draft, games, scoring and matches.

Standard library only; no asyncio, no I/O. ``from engine import Game, Tile, Meld, parse_tiles``.
"""

from __future__ import annotations

from engine.actions import Action, parse_action
from engine.draft import Draft
from engine.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMeldError,
    NotationError,
    NotYourTurnError,
    RummikubError,
)
from engine.game import Game, PlayerState, TurnOutcome
from engine.match import Match, Standing
from engine.melds import Meld, MeldKind, is_valid_meld
from engine.notation import TileToken, parse_meld_tokens, parse_tile, parse_tiles, parse_tokens
from engine.scoring import EndReason, GameResult, rack_value
from engine.settings import Rules
from engine.slots import Slot
from engine.tiles import COLORS, Color, Edition, Face, Tile, sort_tiles, tiles_text

__all__ = [
    "COLORS",
    "Action",
    "Color",
    "Draft",
    "Edition",
    "EndReason",
    "Face",
    "Game",
    "GameOverError",
    "GameResult",
    "IllegalMoveError",
    "InvalidMeldError",
    "Match",
    "Meld",
    "MeldKind",
    "NotYourTurnError",
    "NotationError",
    "PlayerState",
    "Rules",
    "RummikubError",
    "Slot",
    "Standing",
    "Tile",
    "TileToken",
    "TurnOutcome",
    "is_valid_meld",
    "parse_action",
    "parse_meld_tokens",
    "parse_tile",
    "parse_tiles",
    "parse_tokens",
    "rack_value",
    "sort_tiles",
    "tiles_text",
]
