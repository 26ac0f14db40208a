"""The client: the bot itself (no privileged intents, slash commands only), its command tree
and menu translations, and ``run_discord``, which ``rummikub run`` starts and stops.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.api import ChannelRef, GameService, channel_language
from bot.i18n import locale_language, pl_menus, t
from bot.operations.platforms import watch_discord
from bot.platforms.discord.cog import RummikubCog
from bot.platforms.discord.ids import PLATFORM, CommandButton, CommandSelect
from bot.web.links import BoardLinks
from storage.messages import MessageSlots

log = logging.getLogger(__name__)

# The permissions the bot needs in a game channel (shown in the README invite URL).
REQUIRED_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    use_application_commands=True,
)


class MenuTranslator(app_commands.Translator):
    """Polish descriptions for slash commands and their options, and Polish names for the
    choices in their menus (Discord shows each user their client's language); command and
    option names stay as typed, and a choice's value is the same in every language."""

    DESCRIPTIONS = frozenset(
        {
            app_commands.TranslationContextLocation.command_description,
            app_commands.TranslationContextLocation.group_description,
            app_commands.TranslationContextLocation.parameter_description,
            app_commands.TranslationContextLocation.choice_name,
        }
    )

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.polish or context.location not in self.DESCRIPTIONS:
            return None
        return pl_menus.PL.get(string.message)


class RummikubTree(app_commands.CommandTree[Any]):
    """The command tree, answering commands it does not know instead of leaving them hanging.

    Discord keeps offering subcommands of an older registration until clients refresh (and a
    sync can take a while to reach everyone): those get a private "update in progress" note.
    """

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        stale = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
        if not isinstance(error, stale):
            await super().on_error(interaction, error)
            return
        log.info("a stale command reached the bot: %s", error)
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
                return
            lang = locale_language(interaction.locale)
            service = self.client.service if isinstance(self.client, RummikubBot) else None
            if service is not None and interaction.guild_id is not None:
                channel = ChannelRef(PLATFORM, str(interaction.channel_id))
                lang = await channel_language(service, channel)
            await interaction.response.send_message(t(lang, "stale_command"), ephemeral=True)
        except discord.HTTPException as send_error:
            log.warning("could not answer a stale command: %s", send_error)


class RummikubBot(commands.AutoShardedBot):
    """The bot: no privileged intents, slash commands only, restart-proof components."""

    def __init__(
        self,
        service: GameService,
        *,
        sync_commands: bool = False,
        guild_ids: Sequence[int] = (),
        shard_count: int | None = None,
        shard_ids: list[int] | None = None,
        messages: MessageSlots | None = None,
        board: BoardLinks | None = None,
    ) -> None:
        """``messages`` keeps the ids of the messages edited in place; by default the game
        service's database (``service.db``), else nothing is kept across restarts. ``board``
        puts a link to the web board on every turn panel."""
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=shard_count,
            shard_ids=shard_ids,  # type: ignore[arg-type]  # None means "all shards"
            tree_cls=RummikubTree,
        )
        self.service = service
        watch_discord(self, service)  # API calls counted, readiness (bot.operations)
        self.sync_commands = sync_commands
        self.guild_ids = list(guild_ids)
        self.messages = messages if messages is not None else service.messages
        self.board = board

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CommandButton, CommandSelect)
        await self.tree.set_translator(MenuTranslator())
        await self.add_cog(RummikubCog(self, self.service, self.messages, self.board))
        if self.sync_commands:
            await self.sync_now()

    async def sync_now(self) -> None:
        """Register the slash commands: per guild (instant) when given, else globally."""
        if self.guild_ids:
            for guild_id in self.guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(
        application_id,
        permissions=REQUIRED_PERMISSIONS,
        scopes=("bot", "applications.commands"),
    )


async def run_discord(
    service: GameService,
    token: str,
    *,
    sync_commands: bool = True,
    guild_ids: Sequence[int] = (),
    shard_count: int | None = None,
    shard_ids: list[int] | None = None,
    stop: asyncio.Event | None = None,
    board: BoardLinks | None = None,
) -> None:
    """Run the Discord bot until ``stop`` is set (used by ``rummikub run``).

    Several processes may share one PostgreSQL-backed service: give each the same
    ``shard_count`` and its own ``shard_ids``. On ``stop`` the commands and button presses
    being handled finish first; then the gateway and the HTTP session close.
    """
    bot = RummikubBot(
        service,
        sync_commands=sync_commands,
        guild_ids=guild_ids,
        shard_count=shard_count,
        shard_ids=shard_ids,
        board=board,
    )
    async with bot:
        running = asyncio.create_task(bot.start(token), name="discord-client")
        stopping = asyncio.create_task((stop or asyncio.Event()).wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if not running.done():
            await finish_handlers()
            await bot.close()
        await running


HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item")
"""Names discord.py gives the tasks that run a slash command or a component's callback."""


async def finish_handlers(timeout: float = 30.0) -> None:
    """Wait (up to ``timeout``) until no slash command or button callback is running."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        busy = [
            task
            for task in asyncio.all_tasks()
            if not task.done() and task.get_name().startswith(HANDLER_TASKS)
        ]
        if not busy:
            return
        await asyncio.wait(busy, timeout=deadline - loop.time())
