"""Custom ids: a button's or select's whole state in Discord's 100 characters, and the
``DynamicItem`` classes that read them back on a click, after a restart and in any process.

``rk:<slot>:<channel>:<index>[t<turn>]:<command>`` for buttons, ``rs:...`` for selects. The
channel id (base 36, to leave room for the command) makes a button sent by DM act on the game
channel; the index keeps ids unique within a message; the slot (one letter for the usual ones)
tells which message a click came from; the turn, when the button was made for one, comes back
as ``Command.turn``. Ids without a turn (panels posted by older versions) still decode.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import discord

PLATFORM = "discord"
COG_NAME = "Rummikub"
log = logging.getLogger(__name__)

_FIELDS = r"(?P<slot>[a-z_]*):(?P<chan>[0-9a-z]+):(?P<n>[0-9]+)(?:t(?P<turn>[0-9]+))?:(?P<cmd>.+)"
BUTTON_TEMPLATE = "rk:" + _FIELDS
SELECT_TEMPLATE = "rs:" + _FIELDS
SLOT_CODES = {"lobby": "l", "table": "t", "panel": "p", "rack": "r"}
SLOT_NAMES = {code: name for name, code in SLOT_CODES.items()}
MAX_CUSTOM_ID = 100
DUPLICATE_SUFFIX = re.compile(r"~[0-9]+$")


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


def id_prefix(kind: str, slot: str | None, chan: str) -> str:
    """The start of every custom id of one kind and slot in one channel."""
    return f"{kind}:{SLOT_CODES.get(slot or '', slot or '')}:{_base36(int(chan))}:"


def make_custom_id(
    kind: str, slot: str | None, chan: str, index: int, command: str, turn: int | None = None
) -> str:
    """The id of one button or select; ValueError when it would pass Discord's limit."""
    marker = "" if turn is None else f"t{turn}"
    custom_id = f"{id_prefix(kind, slot, chan)}{index}{marker}:{command}"
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"button command too long for a Discord custom_id: {command!r}")
    return custom_id


@dataclass(frozen=True, slots=True)
class Clicked:
    """Where a button or select press came from, decoded from its custom id."""

    slot: str
    chan: str


@dataclass(frozen=True, slots=True)
class Decoded:
    """A custom id read back: where it was pressed, its command and the turn it was made for."""

    clicked: Clicked
    command: str
    turn: int | None


def decode(match: re.Match[str]) -> Decoded:
    """A custom id's parts from its template match."""
    slot = SLOT_NAMES.get(match["slot"], match["slot"])
    turn = None if match["turn"] is None else int(match["turn"])
    return Decoded(Clicked(slot, str(int(match["chan"], 36))), match["cmd"], turn)


def decode_values(values: Iterable[str]) -> list[str]:
    """Select values made unique with a ``~n`` suffix go back to their plain text."""
    return [DUPLICATE_SUFFIX.sub("", value) for value in values]


def is_ours(custom_id: str) -> bool:
    """Whether a component id is one this bot makes (any version of it)."""
    return bool(
        re.fullmatch(BUTTON_TEMPLATE, custom_id) or re.fullmatch(SELECT_TEMPLATE, custom_id)
    )


@runtime_checkable
class ClickRunner(Protocol):
    """What a click is handed to: the cog registered as ``COG_NAME`` (kept abstract here so
    the ids need not import the cog that imports them)."""

    async def run(
        self,
        interaction: discord.Interaction[Any],
        text: str,
        clicked: Clicked | None = None,
        *,
        turn: int | None = None,
    ) -> None: ...


async def _hand_over(interaction: discord.Interaction[Any], text: str, decoded: Decoded) -> None:
    runner = interaction.client.get_cog(COG_NAME)
    if isinstance(runner, ClickRunner):
        await runner.run(interaction, text, decoded.clicked, turn=decoded.turn)


class CommandButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_TEMPLATE
):
    """A button whose press sends its command to the game service, even after a restart."""

    def __init__(self, item: discord.ui.Button[discord.ui.View], match: re.Match[str]) -> None:
        super().__init__(item)
        self.decoded = decode(match)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CommandButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _hand_over(interaction, self.decoded.command, self.decoded)


class CommandSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=SELECT_TEMPLATE
):
    """A select whose choice sends ``f"{command} {values}"`` to the game service."""

    def __init__(self, item: discord.ui.Select[discord.ui.View], match: re.Match[str]) -> None:
        super().__init__(item)
        self.decoded = decode(match)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CommandSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        chosen = list(data.get("values", []))
        if self.item.max_values > 1:
            # Discord reports what is selected now; the command language toggles ("pick R5"
            # again unselects), so a multi-select with pre-selected options sends the changes.
            before = [o.value for o in self.item.options if o.default]
            chosen = [v for v in chosen if v not in before] + [v for v in before if v not in chosen]
        text = " ".join([self.decoded.command, *decode_values(chosen)])
        await _hand_over(interaction, text, self.decoded)
