"""The reply sender: ``Reply`` objects out through Discord, and what Discord said to each.

- acknowledging each interaction at once is the cog's; answering it is here: privately for
  slash commands so a private answer can never leak (the first followup after a "thinking"
  defer takes the defer's visibility);
- private replies: ephemeral to the person who acted, by DM to anyone else; racks go by DM and,
  when the user refuses DMs (50007), the channel is told once and gets a "Show my rack" button;
- ``slot`` replies edit the message they name ("lobby", "table", "panel", "rack") in place,
  found by the id stored in the database (``storage.messages``), never by reading the channel's
  history; a new lobby is always a new message at the bottom of the channel, and so is the
  table of the game it deals;
- each send's outcome is reported to the service (``report_sent``): accepted, refused for good
  (the outbox gives up on it) or failed for now (the outbox sends it again later).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.api import (
    Button,
    ChannelRef,
    GameService,
    PlayerRef,
    Reply,
    Sent,
    private_language,
    report_sent,
)
from bot.commands import Command
from bot.i18n import t
from bot.platforms.discord.components import Rendered, render
from bot.platforms.discord.ids import PLATFORM, Clicked
from bot.web.links import BoardLinks, is_turn_panel, with_button
from storage.messages import MessageSlots

log = logging.getLogger(__name__)

DM_RETRY_SECONDS = 600.0

# The adapter's own sentences live in bot.i18n (keys below); these are their English forms.
TEXT_INTERNAL_ERROR = t("en", "internal_error")
TEXT_STALE_BUTTON = t("en", "stale_button")
TEXT_GUILD_ONLY = t("en", "guild_only")
TEXT_NO_POST = t("en", "no_post")


def dm_closed_notice(user_id: int, lang: str = "en") -> str:
    return t(lang, "dm_closed", mention=f"<@{user_id}>")


def outcome_of(error: BaseException) -> Sent:
    """What an exception from a send says about it. Refused for good: 403 (50007 cannot DM,
    50001 the bot was removed, 50013 no permission), 404 (10003 unknown channel, 10008 unknown
    message) and any other 4xx, which the same message would get again. Failed for now: 5xx,
    a 429 left after discord.py's retries, timeouts, dropped connections, and a reply that could
    not be built (a bug, logged; fresh views may build)."""
    if isinstance(error, discord.HTTPException) and error.status != 429 and error.status < 500:
        return Sent.REFUSED
    return Sent.FAILED


@dataclass
class Invocation:
    """One interaction being answered: who acted, what they sent, how it was acknowledged."""

    interaction: discord.Interaction[Any]
    player: PlayerRef
    command: Command  # read once, as the service was handed it
    clicked: Clicked | None
    thinking: bool  # the ephemeral "thinking" original still waits for content
    posted_public: bool = False
    lang: str = "en"  # the invoker's language, for the adapter's own sentences to them
    opens_lobby: bool = False  # the command opens a new lobby (its message and table are new)

    @property
    def clicked_private(self) -> bool:
        message = self.interaction.message
        if message is None:
            return False
        return message.flags.ephemeral or self.interaction.guild_id is None

    @property
    def asked_for_rack(self) -> bool:
        """The person asked to see their rack (so it answers here, not by DM)."""
        return self.command.verb in ("rack", "sort")

    def clicked_same_private(self, reply: Reply) -> bool:
        """The press came from this person's private copy of the message the reply updates."""
        return (
            self.clicked is not None
            and reply.slot is not None
            and self.clicked.slot == reply.slot
            and self.clicked_private
        )


@dataclass
class ReplySender:
    """Sends ``Reply`` objects through Discord, for one bot (one process)."""

    bot: commands.AutoShardedBot
    slots: dict[tuple[str, str], int] = field(default_factory=dict)
    dm_slots: dict[tuple[str, str, str], int] = field(default_factory=dict)
    store: MessageSlots | None = None  # the ids, kept across restarts and processes
    dm_closed: dict[str, float] = field(default_factory=dict)
    told_dm_closed: set[tuple[str, str]] = field(default_factory=set)
    language: Callable[[ChannelRef], Awaitable[str]] | None = None
    service: GameService | None = None  # told which outbox entries reached Discord
    board: BoardLinks | None = None  # the web board: a signed link on each turn panel

    async def deliver(self, replies: Sequence[Reply], ctx: Invocation | None = None) -> None:
        """Send each reply and tell the service what became of it (``report_sent``)."""
        for reply in replies:
            outcome = await self._send(reply, ctx)
            if self.service is not None:
                await report_sent(self.service, [reply], outcome)
        if ctx is not None and ctx.thinking:
            await self._close_thinking(ctx)

    async def _send(self, reply: Reply, ctx: Invocation | None) -> Sent:
        """Send one reply: delivered, refused for good or failed for now. One bad reply must
        not stop the others or the game, so nothing is raised."""
        try:
            if reply.private_to is None:
                shown = await self._public(reply, ctx)
            else:
                shown = await self._private(reply, ctx)
            return Sent.DELIVERED if shown else Sent.REFUSED
        except Exception as error:
            if isinstance(error, discord.HTTPException | aiohttp.ClientError | TimeoutError):
                log.error("could not deliver a reply to %s: %r", reply.channel.key, error)
            else:
                log.exception("could not build a reply for %s", reply.channel.key)
            if ctx is not None and (
                reply.private_to is None or reply.private_to.same_person(ctx.player)
            ):
                await self._tell_invoker(ctx, t(ctx.lang, "internal_error"))
            return outcome_of(error)

    async def outbox(self, reply: Reply) -> None:
        """Replies caused by timers and AI turns (no interaction to answer)."""
        if reply.channel.platform != PLATFORM:
            return  # another adapter's channel
        await self.deliver([reply])

    # public -----------------------------------------------------------------------------------

    async def _public(self, reply: Reply, ctx: Invocation | None) -> bool:
        """Post or edit a public reply; whether it was shown."""
        rendered = render(reply)
        chan = reply.channel.chat_id
        if reply.slot is None:
            return await self._post(rendered, chan, ctx) is not None
        if ctx is not None and ctx.opens_lobby and reply.slot == "lobby":
            # A new lobby goes at the bottom of the channel, however many messages up the last
            # one is; the table of the game it deals will be a new message too.
            for slot in ("lobby", "table"):
                await self._forget(chan, slot)
        known = await self._slot_id(chan, reply.slot)
        clicked = ctx.clicked if ctx is not None else None
        message = ctx.interaction.message if ctx is not None else None
        if (
            ctx is not None
            and clicked is not None
            and clicked.slot == reply.slot
            and clicked.chan == chan
            and not ctx.clicked_private
            and message is not None
            and known in (None, message.id)
        ):
            # The press came from the slot's own message: answer by editing it.
            edited = await ctx.interaction.edit_original_response(**rendered.edit())
            await self._remember(chan, reply.slot, edited.id)
            ctx.posted_public = True
            return True
        if known is not None:
            partial = self.bot.get_partial_messageable(int(chan)).get_partial_message(known)
            try:
                await partial.edit(**rendered.edit())
                if ctx is not None:
                    ctx.posted_public = True
                return True
            except discord.NotFound:  # deleted by someone: post it again
                await self._forget(chan, reply.slot)
        message_id = await self._post(rendered, chan, ctx, single=True)
        if message_id is not None:
            await self._remember(chan, reply.slot, message_id)
        return message_id is not None

    async def _slot_id(self, chan: str, slot: str, owner: str = "") -> int | None:
        """The id of the message showing a slot: from memory, else from the database."""
        cache_key = (chan, slot) if not owner else None
        if cache_key is not None and cache_key in self.slots:
            return self.slots[cache_key]
        if owner and (owner, chan, slot) in self.dm_slots:
            return self.dm_slots[(owner, chan, slot)]
        if self.store is None:
            return None
        try:
            found = await self.store.get(PLATFORM, chan, slot, owner)
        except Exception:  # the database is down: post anew rather than fail the reply
            log.exception("could not read the stored %s message of %s", slot, chan)
            return None
        if found is not None:
            if owner:
                self.dm_slots[(owner, chan, slot)] = found
            else:
                self.slots[(chan, slot)] = found
        return found

    async def _remember(self, chan: str, slot: str, message_id: int, owner: str = "") -> None:
        if owner:
            if self.dm_slots.get((owner, chan, slot)) == message_id:
                return
            self.dm_slots[(owner, chan, slot)] = message_id
        else:
            if self.slots.get((chan, slot)) == message_id:
                return
            self.slots[(chan, slot)] = message_id
        if self.store is not None:
            try:
                await self.store.put(PLATFORM, chan, slot, message_id, owner)
            except Exception:
                log.exception("could not store the %s message of %s", slot, chan)

    async def _forget(self, chan: str, slot: str, owner: str = "") -> None:
        if owner:
            self.dm_slots.pop((owner, chan, slot), None)
        else:
            self.slots.pop((chan, slot), None)
        if self.store is not None:
            try:
                await self.store.forget(PLATFORM, chan, slot, owner)
            except Exception:
                log.exception("could not forget the %s message of %s", slot, chan)

    async def _post(
        self, rendered: Rendered, chan: str, ctx: Invocation | None, *, single: bool = False
    ) -> int | None:
        channel = self.bot.get_partial_messageable(int(chan))
        last: discord.Message | None = None
        try:
            for kwargs in rendered.messages(single=single):
                last = await channel.send(allowed_mentions=rendered.allowed_mentions, **kwargs)
        except discord.Forbidden as error:
            log.warning("cannot post in channel %s: %s", chan, error)
            if ctx is None or str(ctx.interaction.channel_id) != chan:
                return None
            # Interaction followups need no channel permission: answer there instead.
            await self._tell_invoker(ctx, t(ctx.lang, "no_post"))
            followup = await ctx.interaction.followup.send(
                **rendered.single(),
                files=rendered.files(),
                view=rendered.view or discord.utils.MISSING,
                allowed_mentions=rendered.allowed_mentions,
                wait=True,
            )
            ctx.posted_public = True
            return followup.id
        if ctx is not None:
            ctx.posted_public = True
        return last.id if last is not None else None

    # private ----------------------------------------------------------------------------------

    async def _private(self, reply: Reply, ctx: Invocation | None) -> bool:
        """Show a private reply to its player (DM or ephemeral); whether they got it."""
        target = reply.private_to
        assert target is not None
        if target.platform != PLATFORM:
            log.error("dropping a private reply for %s: not a Discord user", target.key)
            return False
        reply = await self._with_board(reply, target)
        is_invoker = ctx is not None and target.same_person(ctx.player)
        # Racks go by DM (a lasting copy) unless asked for here or updated in place.
        if (
            ctx is not None
            and is_invoker
            and (reply.slot != "rack" or ctx.asked_for_rack or ctx.clicked_same_private(reply))
        ):
            await self._ephemeral(reply, ctx)
            return True
        if await self._dm(reply, target):
            return True
        shown = ctx is not None and is_invoker
        if ctx is not None and is_invoker:
            await self._ephemeral(reply, ctx)
        await self._tell_dm_closed(target, reply.channel)
        return shown

    async def _with_board(self, reply: Reply, target: PlayerRef) -> Reply:
        """A turn panel with a link button to the web board, signed for its owner alone."""
        if self.board is None or self.service is None or not is_turn_panel(reply):
            return reply
        lang = await private_language(self.service, target, reply.channel)
        return with_button(reply, self.board.link_button(target, reply.channel, lang))

    async def _ephemeral(self, reply: Reply, ctx: Invocation) -> None:
        rendered = render(reply)
        interaction = ctx.interaction
        in_place = ctx.clicked_same_private(reply)
        if in_place or ctx.thinking:
            await interaction.edit_original_response(**rendered.edit())
            if ctx.thinking and not in_place:
                ctx.thinking = False
            return
        for kwargs in rendered.messages(single=reply.slot is not None):
            await interaction.followup.send(
                ephemeral=True, allowed_mentions=rendered.allowed_mentions, wait=True, **kwargs
            )

    async def _dm(self, reply: Reply, target: PlayerRef) -> bool:
        """Send by DM; False when the user refuses DMs (then the caller falls back)."""
        closed_at = self.dm_closed.get(target.user_id)
        if closed_at is not None and time.monotonic() - closed_at < DM_RETRY_SECONDS:
            return False
        rendered = render(reply)
        chan, owner = reply.channel.chat_id, target.user_id
        try:
            dm = await self.bot.create_dm(discord.Object(int(target.user_id)))
            # The rack and panel DMs are edited in place by their stored ids, after a restart
            # too; only a deleted one is sent again.
            known = await self._slot_id(chan, reply.slot, owner) if reply.slot else None
            if known is not None and reply.slot:
                try:
                    await dm.get_partial_message(known).edit(
                        **rendered.single(),
                        attachments=rendered.files(),
                        view=rendered.view,
                    )
                    return True
                except discord.NotFound:
                    await self._forget(chan, reply.slot, owner)
            last: discord.Message | None = None
            for kwargs in rendered.messages(single=reply.slot is not None):
                last = await dm.send(**kwargs)
        except discord.Forbidden as error:
            log.info("DM to %s refused (%s): falling back", target.user_id, error.code)
            self.dm_closed[target.user_id] = time.monotonic()
            return False
        self.dm_closed.pop(target.user_id, None)
        if reply.slot and last is not None:
            await self._remember(chan, reply.slot, last.id, owner)
        return True

    async def _tell_dm_closed(self, target: PlayerRef, channel: ChannelRef) -> None:
        key = (target.user_id, channel.chat_id)
        if key in self.told_dm_closed:
            return
        self.told_dm_closed.add(key)
        if await self._slot_id(channel.chat_id, "dm_closed", target.user_id) is not None:
            return  # said before a restart, or by another process
        lang = await self._language(channel)
        notice = Reply(
            channel=channel,
            text=dm_closed_notice(int(target.user_id), lang),
            buttons=((Button(t(lang, "button_show_rack"), "rack", "primary"),),),
            mentions=(target,),
        )
        posted = await self._post(render(notice), channel.chat_id, None)
        if posted is not None:
            await self._remember(channel.chat_id, "dm_closed", posted, target.user_id)

    async def _language(self, channel: ChannelRef) -> str:
        """The channel's language for the adapter's own sentences (English when unknown)."""
        return "en" if self.language is None else await self.language(channel)

    async def _tell_invoker(self, ctx: Invocation, text: str) -> None:
        try:
            if ctx.thinking:
                await ctx.interaction.edit_original_response(content=text)
                ctx.thinking = False
            else:
                await ctx.interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException as error:
            log.error("could not tell %s about a failure: %s", ctx.player.key, error)

    async def _close_thinking(self, ctx: Invocation) -> None:
        """Nothing private came back: remove the "thinking" placeholder (or say done)."""
        try:
            if ctx.posted_public:
                await ctx.interaction.delete_original_response()
            else:
                await ctx.interaction.edit_original_response(content=t(ctx.lang, "done_ack"))
        except discord.HTTPException as error:
            log.warning("could not close the deferred response: %s", error)
        ctx.thinking = False
