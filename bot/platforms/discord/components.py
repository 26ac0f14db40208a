"""Components and message bodies: a ``Reply`` as Discord message keyword arguments.

``build_view`` turns the reply's buttons and selects into a restart-proof view within Discord's
limits (5 rows, 25 options a select, 100 characters an id: a long select is paged, a button whose
id cannot fit is left out, since its command can still be typed); ``render`` adds the text (split
or put in an embed), the attachments and the allowed mentions.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.api import Button, Reply, Select, split_text
from bot.platforms.discord.ids import (
    BUTTON_TEMPLATE,
    PLATFORM,
    SELECT_TEMPLATE,
    CommandButton,
    CommandSelect,
    make_custom_id,
)

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
MAX_EMBED = 4096
MAX_FILES = 10
MAX_ROWS = 5
MAX_OPTIONS = 25
MAX_MENTIONS = 100  # Discord: allowed_mentions lists at most 100 users

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def button_id(button: Button, slot: str | None, chan: str, index: int) -> str | None:
    """The custom id of a command button: with its turn when that fits, else without (it then
    acts as the typed command would); None when even the command alone is too long."""
    try:
        return make_custom_id("rk", slot, chan, index, button.command, button.turn)
    except ValueError as error:
        if button.turn is None:
            log.error("leaving out a button: %s", error)  # the command can still be typed
            return None
    log.warning("a button without its turn %s: %r is too long with it", button.turn, button.command)
    return button_id(Button(button.label, button.command, button.style), slot, chan, index)


def _button(button: Button, slot: str | None, chan: str, index: int) -> CommandButton | None:
    custom_id = button_id(button, slot, chan, index)
    if custom_id is None:
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


# --- message bodies ----------------------------------------------------------------------------


def _mention_ids(reply: Reply) -> list[int]:
    ids = [int(p.user_id) for p in reply.mentions if p.platform == PLATFORM and p.user_id.isdigit()]
    return list(dict.fromkeys(ids))[:MAX_MENTIONS]


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

    def edit(self) -> dict[str, Any]:
        """Keyword arguments that make an existing message show this reply in full."""
        return {
            **self.single(),
            "attachments": self.files(),
            "view": self.view,
            "allowed_mentions": self.allowed_mentions,
        }


def render(reply: Reply) -> Rendered:
    """The reply's text (mentions first, split at Discord's limit), attachments and view."""
    mention_ids = _mention_ids(reply)
    text = reply.text
    prefix = " ".join(f"<@{uid}>" for uid in mention_ids if f"<@{uid}>" not in text)
    if prefix:
        text = f"{prefix} {text}"
    return Rendered(
        contents=split_text(text or "\u200b", MAX_CONTENT),
        # Pictures and files alike are attachments (``files[n]``); a record is a download.
        images=[(image.filename, image.png, image.alt) for image in reply.images]
        + [(file.filename, file.data, "") for file in reply.files],
        view=build_view(reply),
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(uid) for uid in mention_ids]
        ),
    )
