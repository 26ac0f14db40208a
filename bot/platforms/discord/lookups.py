"""What the cog looks up beside its commands: who and where an interaction is, the
autocomplete choices from the service's ``Completions``, and the guild a channel belongs to
(the lookups the service asks the adapter for).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.api import ChannelRef, Completions, GameService, PlayerRef
from bot.platforms.discord.ids import PLATFORM

log = logging.getLogger(__name__)
Choices = list[app_commands.Choice[str]]


def player_of(user: discord.abc.User, locale: object = "") -> PlayerRef:
    """The person, with their client's language when the interaction says it (``pl``,
    ``en-US``)."""
    code = str(getattr(locale, "value", locale) or "")
    return PlayerRef(PLATFORM, str(user.id), user.display_name, locale=code)


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Manage Channels in this channel, as computed by Discord in the interaction payload."""
    if interaction.guild_id is None:
        return False
    permissions = interaction.permissions
    return permissions.manage_channels or permissions.administrator


def channel_of(interaction: discord.Interaction[Any]) -> ChannelRef:
    """The channel an interaction happened in."""
    return ChannelRef(PLATFORM, str(interaction.channel_id))


# --- autocomplete ------------------------------------------------------------------------------


async def completions_for(
    service: GameService, interaction: discord.Interaction[Any]
) -> Completions:
    """What the service offers the invoker to complete (nothing when it cannot say in 2 s)."""
    player = player_of(interaction.user)
    try:
        return await asyncio.wait_for(
            service.completions(player, channel_of(interaction)), timeout=2.0
        )
    except Exception:
        log.exception("autocomplete failed")
        return Completions()


def tile_choices(rack: list[str], current: str) -> Choices:
    """Complete the last tile of a tile list from the invoker's rack."""
    words = current.split()
    done_words = words if current.endswith(" ") or not words else words[:-1]
    partial = "" if current.endswith(" ") or not words else words[-1]
    remaining = list(rack)
    for word in done_words:
        if word.upper() in remaining:
            remaining.remove(word.upper())
    head = " ".join(done_words)
    choices: Choices = []
    seen: set[str] = set()
    for tile in remaining:
        if tile in seen or not tile.upper().startswith(partial.upper()):
            continue
        seen.add(tile)
        value = f"{head} {tile}".strip()
        choices.append(app_commands.Choice(name=value[:100], value=value[:100]))
    return choices[:25]


def meld_choices(melds: tuple[tuple[int, str], ...], current: str, new_label: str) -> Choices:
    """Offer "new meld" (when ``new_label``) and the table's melds, shown with their tiles."""
    typed = current.strip().lower()
    choices: Choices = []
    if new_label and "new".startswith(typed):
        choices.append(app_commands.Choice(name=new_label, value="new"))
    for number, text in melds:
        label = f"{number}: {text}"
        if typed and not label.lower().startswith(typed):
            continue
        choices.append(app_commands.Choice(name=label[:100], value=str(number)))
    return choices[:25]


# --- guilds --------------------------------------------------------------------------------------


@dataclasses.dataclass
class Guilds:
    """Which guild a channel belongs to, as its interactions or the gateway's cache tell, and
    the guild's text channels: the lookups the service asks the adapter for (one rating
    ladder per guild; ``stats`` over a guild's channels)."""

    bot: commands.AutoShardedBot
    of_channel: dict[str, int] = dataclasses.field(default_factory=dict)

    def saw(self, interaction: discord.Interaction[Any], chan: str) -> None:
        """Note the guild an interaction says ``chan`` is in."""
        if interaction.guild_id is not None:
            self.of_channel[chan] = interaction.guild_id

    async def server_of(self, channel: ChannelRef) -> str | None:
        """The guild ``channel`` belongs to; None when not known."""
        guild_id = self.of_channel.get(channel.chat_id)
        if guild_id is None and channel.chat_id.isdigit():
            guild = getattr(self.bot.get_channel(int(channel.chat_id)), "guild", None)
            guild_id = getattr(guild, "id", None)
        return None if guild_id is None else str(guild_id)

    async def server_channels(self, channel: ChannelRef) -> list[str]:
        """The text channels (and threads) of the guild ``channel`` belongs to: from the
        gateway's cache, else asked of the API; empty when the guild is not known."""
        guild_id = self.of_channel.get(channel.chat_id)
        if guild_id is None:
            return []
        guild = self.bot.get_guild(guild_id)
        if guild is not None and guild.text_channels:
            return [str(c.id) for c in (*guild.text_channels, *guild.threads)]
        try:
            listed = await self.bot.http.get_all_guild_channels(guild_id)
        except discord.HTTPException as error:
            log.warning("could not list the channels of guild %s: %s", guild_id, error)
            return []
        text_kinds = {0, 5, 10, 11, 12}  # text, announcement and thread channels
        return [str(c["id"]) for c in listed if c.get("type") in text_kinds]
