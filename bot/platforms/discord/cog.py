"""The cog: ``/rummikub`` slash commands, one per method, and the one path every command,
button and select goes through (``RummikubCog.run``): acknowledge at once (Discord allows
3 s), read the text into a ``Command`` once, hand it to ``GameService.handle`` and send what
comes back. Autocomplete choices and guild lookups are in ``lookups``, so the cog stays a list
of commands.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.api import ChannelRef, GameService, Reply, channel_language, private_language
from bot.commands import read_command
from bot.i18n import locale_language, t
from bot.platforms.discord.ids import COG_NAME, PLATFORM, Clicked, is_ours
from bot.platforms.discord.lookups import (
    Choices,
    Guilds,
    channel_of,
    completions_for,
    is_admin,
    meld_choices,
    player_of,
    tile_choices,
)
from bot.platforms.discord.sender import Invocation, ReplySender
from bot.web.links import BoardLinks
from engine.ai import AI_LEVELS
from storage.messages import MessageSlots

log = logging.getLogger(__name__)

Tiles = app_commands.Range[str, 1, 200]
PlayerName = app_commands.Range[str, 1, 100]
LEVELS = AI_LEVELS
SETTINGS = ("threshold", "timer", "games", "hints", "edition", "timeout_penalty", "rack_size")
MELD_HELP = "meld number on the table (see /rummikub table)"
CONFIRM_HELP = "True answers yes when this would end the game (the bot asks first)"


def answered(command: str, confirm: bool | None) -> str:
    """A destructive command with the ``confirm`` option as its typed answer (``cancel yes``)."""
    return command if confirm is None else f"{command} {'yes' if confirm else 'no'}"


# --- the cog -------------------------------------------------------------------------------------


@app_commands.guild_only()
class RummikubCog(
    commands.GroupCog,
    name=COG_NAME,
    group_name="rummikub",
    group_description="Play Rummikub in this channel",
):
    """``/rummikub <verb>``: every verb of the command language and the lobby."""

    manage = app_commands.Group(
        name="manage",
        description="Host or Manage Channels: settings, kick, cancel; languages, notices",
    )
    records = app_commands.Group(
        name="records", description="Records of this server: leaderboard, history, stats, replay"
    )

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        service: GameService,
        messages: MessageSlots | None = None,
        board: BoardLinks | None = None,
    ) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.language_of = functools.partial(channel_language, service)
        self.sender = ReplySender(
            bot, language=self.language_of, store=messages, service=service, board=board
        )
        service.set_outbox(self.sender.outbox, platform=PLATFORM)
        self.guilds = Guilds(bot)
        service.set_server_channels(PLATFORM, self.guilds.server_channels)
        service.set_server_of(PLATFORM, self.guilds.server_of)  # one rating ladder per guild

    # the single path every command, button and select goes through ---------------------------

    async def run(
        self,
        interaction: discord.Interaction[Any],
        text: str,
        clicked: Clicked | None = None,
        *,
        turn: int | None = None,
    ) -> None:
        """Acknowledge, read ``text`` once (with the turn a clicked button was made for),
        hand the command to the service and send its replies."""
        try:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as error:
            # Too late (10062) or already answered (40060): the user saw "interaction failed"
            # and will retry; running the command now would surprise them.
            log.warning("could not acknowledge %r (%s); not running it", text, error)
            return
        player = player_of(interaction.user, interaction.locale)
        chan = clicked.chan if clicked is not None else str(interaction.channel_id)
        channel = ChannelRef(PLATFORM, chan)
        self.guilds.saw(interaction, chan)
        command = read_command(text)
        if turn is not None:
            command = dataclasses.replace(command, turn=turn)
        ctx = Invocation(
            interaction,
            player,
            command,
            clicked,
            thinking=interaction.type is not discord.InteractionType.component,
            opens_lobby=self.service.opens_new_lobby(channel, command),
        )
        try:
            replies = await self.service.handle(
                player, channel, command, admin=is_admin(interaction)
            )
        except Exception:
            log.exception("the game service failed on %r", text)
            replies = None
        ctx.lang = await private_language(self.service, player, channel)  # for the invoker
        if replies is None:
            replies = [Reply(channel, t(ctx.lang, "internal_error"), private_to=player)]
        await self.sender.deliver(replies, ctx)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """The one error hook: a bad option or a failure becomes one private sentence."""
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t(locale_language(interaction.locale), "guild_only")
        else:
            lang = await self.language_of(channel_of(interaction))
            if isinstance(error, app_commands.TransformerError):
                text = t(lang, "bad_option", value=repr(error.value), reason=str(error))
            else:
                log.error("slash command failed", exc_info=error)
                text = t(lang, "internal_error")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as send_error:
            log.error("could not report a command error: %s", send_error)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer clicks on components that no current handler knows (old message formats)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        if is_ours(str(data.get("custom_id", ""))):
            return
        await asyncio.sleep(0)
        if not interaction.response.is_done():
            lang = await self.language_of(channel_of(interaction))
            try:
                await interaction.response.send_message(t(lang, "stale_button"), ephemeral=True)
            except discord.HTTPException as error:
                log.warning("could not answer a stale component: %s", error)

    # lobby ------------------------------------------------------------------------------------

    @app_commands.command(name="start", description="Open a game lobby in this channel")
    @app_commands.describe(
        threshold="points needed for the initial meld (official: 30)",
        timer="seconds per turn (official: 60; hours for slow games, e.g. 3600)",
        games="games in the match (default: as many as players)",
        hints="allow /rummikub hint in this game",
        edition="classic (106 tiles, 2-4 players) or xp (160 tiles, up to 6)",
    )
    @app_commands.choices(
        edition=[
            app_commands.Choice(name="classic", value="classic"),
            app_commands.Choice(name="xp", value="xp"),
        ]
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        threshold: app_commands.Range[int, 0, 100] | None = None,
        timer: app_commands.Range[int, 10, 604800] | None = None,
        games: app_commands.Range[int, 1, 20] | None = None,
        hints: bool | None = None,
        edition: str | None = None,
    ) -> None:
        given = {
            "threshold": threshold,
            "timer": timer,
            "games": games,
            "hints": None if hints is None else ("on" if hints else "off"),
            "edition": edition,
        }
        words = ["start", *(f"{k}={v}" for k, v in given.items() if v is not None)]
        await self.run(interaction, " ".join(words))

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "join")

    @app_commands.command(name="leave", description="Leave the lobby (or give up your seat)")
    @app_commands.describe(confirm=CONFIRM_HELP)
    async def leave(
        self, interaction: discord.Interaction[Any], confirm: bool | None = None
    ) -> None:
        await self.run(interaction, answered("leave", confirm))

    @app_commands.command(name="addbot", description="Seat an AI player in the lobby")
    @app_commands.describe(level="how strong the AI plays")
    @app_commands.choices(level=[app_commands.Choice(name=n, value=n) for n in LEVELS])
    async def addbot(self, interaction: discord.Interaction[Any], level: str | None = None) -> None:
        await self.run(interaction, f"addbot {level}" if level else "addbot")

    @app_commands.command(name="deal", description="Deal the tiles and start playing")
    async def deal(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "deal")

    @manage.command(name="settings", description="Show or change this channel's game settings")
    @app_commands.describe(
        setting="which setting to change (leave empty to see them all)",
        value="the new value: a number, on/off for hints, classic/xp for edition",
    )
    @app_commands.choices(setting=[app_commands.Choice(name=n, value=n) for n in SETTINGS])
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        setting: str | None = None,
        value: str | None = None,
    ) -> None:
        words = ["settings", *(w for w in (setting, value) if w)]
        await self.run(interaction, " ".join(words))

    @manage.command(name="kick", description="Remove a seat from the lobby")
    @app_commands.describe(seat="the seat number or the player's name", confirm=CONFIRM_HELP)
    async def kick(
        self, interaction: discord.Interaction[Any], seat: str, confirm: bool | None = None
    ) -> None:
        await self.run(interaction, answered(f"kick {seat}", confirm))

    @manage.command(
        name="language", description="The bot's language in this channel, or just for you"
    )
    @app_commands.describe(
        language="en for English, pl for Polish",
        scope="this channel (everyone), or just you: your rack, panel and private answers",
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Polski", value="pl"),
            app_commands.Choice(name="auto (my Discord language; just me)", value="auto"),
        ],
        scope=[
            app_commands.Choice(name="this channel", value="channel"),
            app_commands.Choice(name="just me", value="me"),
        ],
    )
    async def language(
        self, interaction: discord.Interaction[Any], language: str, scope: str = "channel"
    ) -> None:
        mine = "me " if scope == "me" else ""
        await self.run(interaction, f"language {mine}{language}")

    @manage.command(name="notify", description="Be mentioned when a game opens in this channel")
    @app_commands.describe(state="on: mention me in the lobby message of each new game; off: stop")
    @app_commands.choices(
        state=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
        ]
    )
    async def notify(self, interaction: discord.Interaction[Any], state: str) -> None:
        await self.run(interaction, f"notify {state}")

    @manage.command(name="cancel", description="Cancel this channel's game")
    @app_commands.describe(confirm=CONFIRM_HELP)
    async def cancel(
        self, interaction: discord.Interaction[Any], confirm: bool | None = None
    ) -> None:
        await self.run(interaction, answered("cancel", confirm))

    # turn verbs -------------------------------------------------------------------------------

    @app_commands.command(name="play", description="Play rack tiles as a new meld or onto meld N")
    @app_commands.describe(
        tiles="tiles from your rack, for example R5 R6 R7 or J K9 O9",
        to="add them to this meld number instead of starting a new meld",
    )
    async def play(
        self, interaction: discord.Interaction[Any], tiles: Tiles, to: str | None = None
    ) -> None:
        text = f"play {tiles}" + (f" to {to}" if to and to != "new" else "")
        await self.run(interaction, text)

    @app_commands.command(name="move", description="Move table tiles from one meld to another")
    @app_commands.describe(
        tiles="the table tiles to move, for example R7",
        source="the meld number they are in now",
        to="the meld number to move them to, or new",
    )
    @app_commands.rename(source="from")
    async def move(
        self, interaction: discord.Interaction[Any], tiles: Tiles, source: str, to: str
    ) -> None:
        await self.run(interaction, f"move {tiles} from {source} to {to}")

    @app_commands.command(name="split", description="Split a run before the given tile")
    @app_commands.describe(meld=MELD_HELP, at="the tile that starts the second part")
    async def split(self, interaction: discord.Interaction[Any], meld: str, at: str) -> None:
        await self.run(interaction, f"split {meld} at {at}")

    @app_commands.command(
        name="swap", description="Take a joker by putting the tile it stands for in its place"
    )
    @app_commands.describe(
        meld="the meld number holding the joker",
        tile="the tile the joker stands for (from your rack unless you give from)",
        source="take that tile from this meld number instead of your rack",
    )
    @app_commands.rename(source="from")
    async def swap(
        self,
        interaction: discord.Interaction[Any],
        meld: str,
        tile: str,
        source: str | None = None,
    ) -> None:
        text = f"swap J in {meld} with {tile}" + (f" from {source}" if source else "")
        await self.run(interaction, text)

    @app_commands.command(name="arrange", description="State the whole new table at once")
    @app_commands.describe(melds="every meld, separated by /, for example R4 R5 R6 / K9 B9 O9")
    async def arrange(
        self, interaction: discord.Interaction[Any], melds: app_commands.Range[str, 1, 1500]
    ) -> None:
        await self.run(interaction, f"arrange {melds}")

    @app_commands.command(
        name="auto", description="Let the bot find a legal table using these tiles"
    )
    @app_commands.describe(tiles="rack tiles to include (leave empty to use as many as possible)")
    async def auto(self, interaction: discord.Interaction[Any], tiles: Tiles | None = None) -> None:
        await self.run(interaction, f"auto {tiles}" if tiles else "auto")

    @app_commands.command(name="undo", description="Take back the last step of your turn")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "undo")

    @app_commands.command(name="reset", description="Discard your whole draft for this turn")
    async def reset(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "reset")

    @app_commands.command(name="done", description="End your turn (with nothing played, you draw)")
    async def done(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "done")

    @app_commands.command(name="draw", description="Draw one tile and end your turn")
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "draw")

    @app_commands.command(name="hint", description="Show the best play for your rack (if allowed)")
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "hint")

    # information ------------------------------------------------------------------------------

    @app_commands.command(name="rack", description="Show your rack privately")
    @app_commands.describe(order="sort your rack by colour or by number")
    @app_commands.choices(
        order=[
            app_commands.Choice(name="by colour", value="colour"),
            app_commands.Choice(name="by number", value="number"),
        ]
    )
    async def rack(self, interaction: discord.Interaction[Any], order: str | None = None) -> None:
        await self.run(interaction, f"rack {order}" if order else "rack")

    @app_commands.command(name="table", description="Show the table with numbered melds")
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "table")

    @app_commands.command(name="status", description="Whose turn, time left, pool and tile counts")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "status")

    @app_commands.command(name="score", description="This game's result and the match standings")
    async def score(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "score")

    # records: under /rummikub records, since a group holds at most 25 subcommands -------------

    @records.command(name="leaderboard", description="This channel's best players")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "leaderboard")

    @records.command(name="history", description="This channel's finished games")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "history")

    @records.command(name="stats", description="A player's record across this server's channels")
    @app_commands.describe(player="a player's name or mention (leave empty for yourself)")
    async def stats(
        self, interaction: discord.Interaction[Any], player: PlayerName | None = None
    ) -> None:
        await self.run(interaction, f"stats {player}" if player else "stats")

    @records.command(name="replay", description="A finished game as an animation, with its record")
    @app_commands.describe(n="which game of history (1 = the last)")
    async def replay(
        self, interaction: discord.Interaction[Any], n: app_commands.Range[int, 1, 9999] = 1
    ) -> None:
        await self.run(interaction, f"replay {n}")

    @app_commands.command(name="rematch", description="Play again: the same seats and settings")
    async def rematch(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "rematch")

    @app_commands.command(name="rules", description="The official rules, briefly")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(interaction, "rules")

    @app_commands.command(name="help", description="How to play with this bot")
    @app_commands.describe(topic="a verb or subject, for example play or jokers")
    async def help_(self, interaction: discord.Interaction[Any], topic: str | None = None) -> None:
        await self.run(interaction, f"help {topic}" if topic else "help")

    # autocomplete wiring ------------------------------------------------------------------------

    @play.autocomplete("tiles")
    @auto.autocomplete("tiles")
    @swap.autocomplete("tile")
    async def _ac_rack(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        completions = await completions_for(self.service, interaction)
        return tile_choices(list(completions.rack), current)

    @play.autocomplete("to")
    @move.autocomplete("to")
    async def _ac_target(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        completions = await completions_for(self.service, interaction)
        label = t(await self.language_of(channel_of(interaction)), "autocomplete_new_meld")
        return meld_choices(completions.melds, current, label)

    @move.autocomplete("source")
    @split.autocomplete("meld")
    @swap.autocomplete("meld")
    @swap.autocomplete("source")
    async def _ac_meld(self, interaction: discord.Interaction[Any], current: str) -> Choices:
        completions = await completions_for(self.service, interaction)
        return meld_choices(completions.melds, current, "")
