"""Discord adapter: ``/rummikub`` slash commands and buttons in, ``Reply`` objects out.

Thin by design: every command, button press and select choice becomes one
``GameService.handle(player, channel, text, admin=...)`` call, and the replies it returns are sent
as Discord messages. No game rule lives here. What does live here is transport:

- acknowledging each interaction at once (Discord allows 3 s), privately for slash commands so a
  private answer can never leak (the first followup after a "thinking" defer takes the defer's
  visibility);
- private replies: ephemeral to the person who acted, by DM to anyone else; racks go by DM and,
  when the user refuses DMs (50007), the channel is told once and gets a "Show my rack" button;
- ``slot`` replies edit the message they name ("lobby", "table", "panel", "rack") in place,
  found by the id stored in the database (``storage.messages``), never by reading the channel's
  history; a new lobby is always a new message at the bottom of the channel, and so is the
  table of the game it deals;
- buttons and selects carry their whole state in the ``custom_id`` (``DynamicItem``), so they work
  after a restart and in any process of a sharded deployment.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.api import (
    Button,
    ChannelRef,
    Completions,
    GameService,
    PlayerRef,
    Reply,
    Select,
    channel_language,
    confirm_delivery,
    private_language,
    split_text,
)
from bot.commands import read_command
from bot.i18n import locale_language, pl_menus, t
from bot.operations.platforms import watch_discord
from bot.web.links import BoardLinks, is_turn_panel, with_button
from engine.ai import AI_LEVELS
from storage.messages import MessageSlots

PLATFORM = "discord"
COG_NAME = "Rummikub"
log = logging.getLogger(__name__)

# custom_id = "rk:<slot>:<channel id>:<index>:<command>" for buttons, "rs:..." for selects.
# The channel id (base 36, to leave room for the command in Discord's 100 characters) makes a
# button sent by DM act on the game channel; the index keeps custom ids unique within a message;
# the slot (one letter for the usual ones) tells which message a click came from.
BUTTON_TEMPLATE = r"rk:(?P<slot>[a-z_]*):(?P<chan>[0-9a-z]+):(?P<n>[0-9]+):(?P<cmd>.+)"
SELECT_TEMPLATE = r"rs:(?P<slot>[a-z_]*):(?P<chan>[0-9a-z]+):(?P<n>[0-9]+):(?P<cmd>.+)"
SLOT_CODES = {"lobby": "l", "table": "t", "panel": "p", "rack": "r"}
SLOT_NAMES = {code: name for name, code in SLOT_CODES.items()}
MAX_CUSTOM_ID = 100
MAX_CONTENT = 2000
MAX_EMBED = 4096
MAX_FILES = 10
MAX_ROWS = 5
MAX_OPTIONS = 25
DM_RETRY_SECONDS = 600.0
DUPLICATE_SUFFIX = re.compile(r"~[0-9]+$")

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

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

# The adapter's own sentences live in bot.i18n (keys below); these are their English forms.
TEXT_INTERNAL_ERROR = t("en", "internal_error")
TEXT_STALE_BUTTON = t("en", "stale_button")
TEXT_GUILD_ONLY = t("en", "guild_only")
TEXT_NO_POST = t("en", "no_post")


def dm_closed_notice(user_id: int, lang: str = "en") -> str:
    return t(lang, "dm_closed", mention=f"<@{user_id}>")


# --- custom ids and components ---------------------------------------------------------------


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


def make_custom_id(kind: str, slot: str | None, chan: str, index: int, command: str) -> str:
    custom_id = f"{id_prefix(kind, slot, chan)}{index}:{command}"
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"button command too long for a Discord custom_id: {command!r}")
    return custom_id


def _decoded(match: re.Match[str]) -> tuple[str, str, str]:
    """(slot name, channel id, command) from a custom id match."""
    return SLOT_NAMES.get(match["slot"], match["slot"]), str(int(match["chan"], 36)), match["cmd"]


def decode_values(values: Iterable[str]) -> list[str]:
    """Select values made unique with a ``~n`` suffix go back to their plain text."""
    return [DUPLICATE_SUFFIX.sub("", value) for value in values]


class CommandButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=BUTTON_TEMPLATE
):
    """A button whose press sends its command to the game service, even after a restart."""

    def __init__(self, item: discord.ui.Button[discord.ui.View], match: re.Match[str]) -> None:
        super().__init__(item)
        self.slot, self.chan, self.command = _decoded(match)

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
        cog = interaction.client.get_cog(COG_NAME)
        if isinstance(cog, RummikubCog):
            await cog.run(interaction, self.command, Clicked(self.slot, self.chan))


class CommandSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=SELECT_TEMPLATE
):
    """A select whose choice sends ``f"{command} {values}"`` to the game service."""

    def __init__(self, item: discord.ui.Select[discord.ui.View], match: re.Match[str]) -> None:
        super().__init__(item)
        self.slot, self.chan, self.command = _decoded(match)

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
        text = " ".join([self.command, *decode_values(chosen)])
        cog = interaction.client.get_cog(COG_NAME)
        if isinstance(cog, RummikubCog):
            await cog.run(interaction, text, Clicked(self.slot, self.chan))


def _button(button: Button, slot: str | None, chan: str, index: int) -> CommandButton | None:
    try:
        custom_id = make_custom_id("rk", slot, chan, index, button.command)
    except ValueError as error:
        log.error("leaving out a button: %s", error)  # the command can still be typed
        return None
    item: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label=button.label[:80],
        style=STYLES.get(button.style, discord.ButtonStyle.secondary),
        custom_id=custom_id,
    )
    match = re.fullmatch(BUTTON_TEMPLATE, custom_id)
    assert match is not None
    return CommandButton(item, match)


def _link_button(button: Button) -> discord.ui.Button[discord.ui.View]:
    """A button that opens its address (a board link); Discord sends no interaction."""
    return discord.ui.Button(
        label=button.label[:80], style=discord.ButtonStyle.link, url=button.url
    )


def _select_pages(select: Select) -> list[list[discord.SelectOption]]:
    seen: dict[str, int] = {}
    options: list[discord.SelectOption] = []
    for option in select.options:
        count = seen.get(option.value, 0)
        seen[option.value] = count + 1
        value = option.value if count == 0 else f"{option.value}~{count}"
        options.append(
            discord.SelectOption(
                label=option.label[:100], value=value[:100], default=option.selected
            )
        )
    return [options[i : i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)]


def _selects(select: Select, slot: str | None, chan: str, first_index: int) -> list[CommandSelect]:
    pages = _select_pages(select)
    out = []
    for page_number, page in enumerate(pages, start=1):
        custom_id = make_custom_id("rs", slot, chan, first_index + page_number - 1, select.command)
        placeholder = select.placeholder
        if len(pages) > 1:
            first, last = page[0].label, page[-1].label
            placeholder = f"{placeholder} ({page_number}/{len(pages)}: {first}-{last})"
        max_values = max(1, min(select.max_values, len(page)))
        item: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=custom_id,
            placeholder=placeholder[:150],
            min_values=min(select.min_values, max_values),
            max_values=max_values,
            options=page,
        )
        match = re.fullmatch(SELECT_TEMPLATE, custom_id)
        assert match is not None
        out.append(CommandSelect(item, match))
    return out


def build_view(reply: Reply) -> discord.ui.View | None:
    """The reply's selects and button rows as a restart-proof view (at most 5 rows)."""
    if not reply.selects and not reply.buttons:
        return None
    chan = reply.channel.chat_id
    index = 0
    pages: list[list[CommandSelect]] = []
    for select in reply.selects:
        if not select.options:
            continue
        made = _selects(select, reply.slot, chan, index)
        index += len(made)
        pages.append(made)
    button_rows: list[list[CommandButton | discord.ui.Button[discord.ui.View]]] = []
    for row in reply.buttons:
        for start in range(0, len(row), 5):
            chunk: list[CommandButton | discord.ui.Button[discord.ui.View]] = []
            for button in row[start : start + 5]:
                made_button = (
                    _link_button(button)
                    if button.is_link
                    else _button(button, reply.slot, chan, index)
                )
                index += 1
                if made_button is not None:
                    chunk.append(made_button)
            if chunk:
                button_rows.append(chunk)
    # Discord shows at most 5 rows: drop the last pages of the longest select (those tiles
    # can still be typed), never a whole select or a button.
    while pages and sum(len(p) for p in pages) + len(button_rows) > MAX_ROWS:
        longest = max(pages, key=len)
        if len(longest) <= 1:
            break
        dropped = longest.pop()
        log.warning("too many rows for Discord: dropping select page %s", dropped.custom_id)
    select_rows = [item for page in pages for item in page][:MAX_ROWS]
    view = discord.ui.View(timeout=None)
    row_number = 0
    for select_item in select_rows:
        select_item.item.row = row_number
        view.add_item(select_item)
        row_number += 1
    for button_row in button_rows[: MAX_ROWS - row_number]:
        for button_item in button_row:
            placed = button_item.item if isinstance(button_item, CommandButton) else button_item
            placed.row = row_number
            view.add_item(button_item)
        row_number += 1
    return view


def _walk(components: Sequence[Any]) -> Iterable[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components", []))


# --- rendering replies -------------------------------------------------------------------------


MAX_MENTIONS = 100  # Discord: allowed_mentions lists at most 100 users


def _mention_ids(reply: Reply) -> list[int]:
    ids = [int(p.user_id) for p in reply.mentions if p.platform == PLATFORM and p.user_id.isdigit()]
    return list(dict.fromkeys(ids))[:MAX_MENTIONS]


def _chunks(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split long text at line breaks into Discord-sized messages."""
    return split_text(text, limit)


@dataclass
class Rendered:
    """One reply as the keyword arguments of Discord message calls (long text split)."""

    contents: list[str]
    images: list[tuple[str, bytes, str]]
    view: discord.ui.View | None
    allowed_mentions: discord.AllowedMentions

    def files(self) -> list[discord.File]:
        return [
            discord.File(io.BytesIO(png), filename=name, description=alt or None)
            for name, png, alt in self.images[:MAX_FILES]
        ]

    def messages(self, *, single: bool) -> list[dict[str, Any]]:
        """Keyword arguments for each message to send; files and view ride on the last."""
        parts: list[dict[str, Any]] = (
            [self.single()] if single else [{"content": c} for c in self.contents]
        )
        for part in parts:
            if not part.get("embeds"):
                part.pop("embeds", None)
        parts[-1]["files"] = self.files()
        if self.view is not None:
            parts[-1]["view"] = self.view
        return parts

    def single(self) -> dict[str, Any]:
        """Content for one message that may be edited later: text over 2000 characters goes
        into an embed (4096), so the whole reply stays one editable message."""
        text = "".join(self.contents)
        if len(text) <= MAX_CONTENT:
            return {"content": text, "embeds": []}
        if len(text) > MAX_EMBED:
            text = text[: MAX_EMBED - 1] + "…"
        return {"content": None, "embeds": [discord.Embed(description=text)]}


def render(reply: Reply) -> Rendered:
    mention_ids = _mention_ids(reply)
    text = reply.text
    prefix = " ".join(f"<@{uid}>" for uid in mention_ids if f"<@{uid}>" not in text)
    if prefix:
        text = f"{prefix} {text}"
    return Rendered(
        contents=_chunks(text or "\u200b"),
        # Pictures and files alike are attachments (``files[n]``); a record is a download.
        images=[(image.filename, image.png, image.alt) for image in reply.images]
        + [(file.filename, file.data, "") for file in reply.files],
        view=build_view(reply),
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(uid) for uid in mention_ids]
        ),
    )


# --- delivery ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clicked:
    """Where a button or select press came from, decoded from its custom id."""

    slot: str
    chan: str


@dataclass
class Invocation:
    """One interaction being answered: who acted, what they sent, how it was acknowledged."""

    interaction: discord.Interaction[Any]
    player: PlayerRef
    text: str
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
        words = self.text.split()
        return bool(words) and words[0] in ("rack", "sort")

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
        """Send each reply; one that Discord accepted confirms its outbox entries."""
        for reply in replies:
            try:
                if reply.private_to is None:
                    sent = await self._public(reply, ctx)
                else:
                    sent = await self._private(reply, ctx)
                if sent and reply.delivers and self.service is not None:
                    await confirm_delivery(self.service, [reply])
            except Exception as error:  # one bad reply must not stop the others or the game
                if isinstance(error, discord.HTTPException):
                    log.error("could not deliver a reply to %s: %s", reply.channel.key, error)
                else:
                    log.exception("could not build a reply for %s", reply.channel.key)
                if ctx is not None and (
                    reply.private_to is None or reply.private_to.same_person(ctx.player)
                ):
                    await self._tell_invoker(ctx, t(ctx.lang, "internal_error"))
        if ctx is not None and ctx.thinking:
            await self._close_thinking(ctx)

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
            edited = await ctx.interaction.edit_original_response(
                **rendered.single(),
                attachments=rendered.files(),
                view=rendered.view,
                allowed_mentions=rendered.allowed_mentions,
            )
            await self._remember(chan, reply.slot, edited.id)
            ctx.posted_public = True
            return True
        if known is not None:
            partial = self.bot.get_partial_messageable(int(chan)).get_partial_message(known)
            try:
                await partial.edit(
                    **rendered.single(),
                    attachments=rendered.files(),
                    view=rendered.view,
                    allowed_mentions=rendered.allowed_mentions,
                )
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
            await interaction.edit_original_response(
                **rendered.single(),
                attachments=rendered.files(),
                view=rendered.view,
                allowed_mentions=rendered.allowed_mentions,
            )
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


# --- the cog -------------------------------------------------------------------------------------


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


Tiles = app_commands.Range[str, 1, 200]
PlayerName = app_commands.Range[str, 1, 100]
LEVELS = AI_LEVELS
SETTINGS = ("threshold", "timer", "games", "hints", "edition", "timeout_penalty", "rack_size")
MELD_HELP = "meld number on the table (see /rummikub table)"
CONFIRM_HELP = "True answers yes when this would end the game (the bot asks first)"


def answered(command: str, confirm: bool | None) -> str:
    """A destructive command with the ``confirm`` option as its typed answer (``cancel yes``)."""
    return command if confirm is None else f"{command} {'yes' if confirm else 'no'}"


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
        self.sender = ReplySender(
            bot, language=self._language, store=messages, service=service, board=board
        )
        service.set_outbox(self.sender.outbox, platform=PLATFORM)
        self._guild_of: dict[str, int] = {}  # channel id -> its guild, as interactions tell
        service.set_server_channels(PLATFORM, self.server_channels)
        service.set_server_of(PLATFORM, self.server_of)  # one rating ladder per guild

    async def server_of(self, channel: ChannelRef) -> str | None:
        """The guild ``channel`` belongs to, as its interactions or the gateway's cache tell
        (for ratings: one ladder per server); None when not known."""
        guild_id = self._guild_of.get(channel.chat_id)
        if guild_id is None and channel.chat_id.isdigit():
            guild = getattr(self.bot.get_channel(int(channel.chat_id)), "guild", None)
            guild_id = getattr(guild, "id", None)
        return None if guild_id is None else str(guild_id)

    async def server_channels(self, channel: ChannelRef) -> list[str]:
        """The text channels (and threads) of the guild ``channel`` belongs to, for ``stats``:
        from the gateway's cache, else asked of the API; empty when the guild is not known."""
        guild_id = self._guild_of.get(channel.chat_id)
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

    # the single path every command, button and select goes through ---------------------------

    async def run(
        self, interaction: discord.Interaction[Any], text: str, clicked: Clicked | None = None
    ) -> None:
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
        if interaction.guild_id is not None:
            self._guild_of[chan] = interaction.guild_id
        command = read_command(text)
        ctx = Invocation(
            interaction,
            player,
            text,
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

    async def _language(self, channel: ChannelRef) -> str:
        """The channel's language, asked of the game service (English if it cannot say)."""
        return await channel_language(self.service, channel)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t(locale_language(interaction.locale), "guild_only")
        else:
            lang = await self._language(ChannelRef(PLATFORM, str(interaction.channel_id)))
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
        custom_id = str(data.get("custom_id", ""))
        if re.fullmatch(BUTTON_TEMPLATE, custom_id) or re.fullmatch(SELECT_TEMPLATE, custom_id):
            return
        await asyncio.sleep(0)
        if not interaction.response.is_done():
            lang = await self._language(ChannelRef(PLATFORM, str(interaction.channel_id)))
            try:
                await interaction.response.send_message(t(lang, "stale_button"), ephemeral=True)
            except discord.HTTPException as error:
                log.warning("could not answer a stale component: %s", error)

    # autocomplete -----------------------------------------------------------------------------

    async def _completions(self, interaction: discord.Interaction[Any]) -> Completions:
        player = player_of(interaction.user)
        channel = ChannelRef(PLATFORM, str(interaction.channel_id))
        try:
            return await asyncio.wait_for(self.service.completions(player, channel), timeout=2.0)
        except Exception:
            log.exception("autocomplete failed")
            return Completions()

    async def complete_tiles(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Complete the last tile of a tile list from the invoker's rack."""
        rack = list((await self._completions(interaction)).rack)
        words = current.split()
        done_words = words if current.endswith(" ") or not words else words[:-1]
        partial = "" if current.endswith(" ") or not words else words[-1]
        remaining = list(rack)
        for word in done_words:
            if word.upper() in remaining:
                remaining.remove(word.upper())
        head = " ".join(done_words)
        choices: list[app_commands.Choice[str]] = []
        seen: set[str] = set()
        for tile in remaining:
            if tile in seen or not tile.upper().startswith(partial.upper()):
                continue
            seen.add(tile)
            value = f"{head} {tile}".strip()
            choices.append(app_commands.Choice(name=value[:100], value=value[:100]))
        return choices[:25]

    async def complete_meld(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer "new meld" and the table's melds, shown with their tiles."""
        melds = (await self._completions(interaction)).melds
        typed = current.strip().lower()
        choices: list[app_commands.Choice[str]] = []
        if "new".startswith(typed):
            channel = ChannelRef(PLATFORM, str(interaction.channel_id))
            label = t(await self._language(channel), "autocomplete_new_meld")
            choices.append(app_commands.Choice(name=label, value="new"))
        for number, text in melds:
            label = f"{number}: {text}"
            if typed and not label.lower().startswith(typed):
                continue
            choices.append(app_commands.Choice(name=label[:100], value=str(number)))
        return choices[:25]

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
    async def _ac_rack(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete_tiles(interaction, current)

    @play.autocomplete("to")
    @move.autocomplete("to")
    async def _ac_target(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.complete_meld(interaction, current)

    @move.autocomplete("source")
    @split.autocomplete("meld")
    @swap.autocomplete("meld")
    @swap.autocomplete("source")
    async def _ac_meld(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        choices = await self.complete_meld(interaction, current)
        return [c for c in choices if c.value != "new"]


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
