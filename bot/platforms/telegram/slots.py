"""Messages shown in place: which Telegram messages show a reply's slot (the lobby, the table,
a player's rack and panel), and sending or editing them so a slot changes without new messages.

The message ids live in the game's database (``MessageSlots``), or in the state file when there
is none (and where an older version kept them), so edits go on after a restart.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from typing import Any

from telegram import Bot, InputFile, InputMediaAnimation, InputMediaPhoto, LinkPreviewOptions
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from bot.api import Image, Reply
from bot.platforms.telegram.chats import PLATFORM
from bot.platforms.telegram.render import Part
from bot.platforms.telegram.state import TelegramState
from storage.messages import MessageSlots

log = logging.getLogger(__name__)

Record = list[dict[str, Any]]
SlotKey = tuple[str, str, str]  # (game chat, slot, owner): owner "" for the group's own


def is_animation(image: Image) -> bool:
    """A GIF goes out as an animation (a photo would show only its first frame)."""
    return image.filename.lower().endswith(".gif") or image.png[:6] in (b"GIF87a", b"GIF89a")


def fingerprint(part: Part) -> dict[str, Any]:
    """What a sent message shows, in short, to tell whether an edit is needed."""

    def digest(data: bytes) -> str:
        return hashlib.sha1(data, usedforsecurity=False).hexdigest()[:16]

    markup = json.dumps(part.markup.to_dict(), sort_keys=True) if part.markup else ""
    return {
        "kind": part.kind,
        "image": digest(part.image.png) if part.image is not None else None,
        "html": digest((part.html or "").encode()),
        "markup": digest(markup.encode()),
    }


class SlotMessages:
    """Sends a reply's parts, editing the messages that show its slot when the shapes match."""

    def __init__(self, bot: Bot, state: TelegramState, messages: MessageSlots | None) -> None:
        self.bot = bot
        self.state = state
        self.messages = messages
        self._records: dict[SlotKey, Record] = {}

    async def load(self) -> None:
        """Read every stored slot at start-up (without them the next replies are new
        messages, no worse)."""
        if self.messages is None:
            return
        try:
            for chat, slot, owner, parts in await self.messages.all_parts(PLATFORM):
                self._records[(chat, slot, owner)] = parts
        except Exception:
            log.exception("Telegram: could not read the stored message ids")

    def shown(self, reply: Reply) -> bool:
        """Whether the group already has messages showing this reply's slot."""
        return bool(self._records.get((reply.channel.chat_id, reply.slot or "", "")))

    async def forget(self, group: str, post_chat: str, slot: str) -> None:
        """The slot's next reply is a new message (a new lobby at the bottom of the chat)."""
        await self._save((group, slot, ""), f"{post_chat}|{group}|{slot}", [])

    async def show(self, chat: int, reply: Reply, parts: list[Part]) -> None:
        """Send the parts, or edit the slot's earlier messages in place when the shapes match."""
        if reply.slot is None:
            await self.send(chat, parts)
            return
        owner = str(chat) if reply.private_to is not None else ""
        key = (reply.channel.chat_id, reply.slot, owner)
        legacy = f"{chat}|{reply.channel.chat_id}|{reply.slot}"
        record = await self._load(key, legacy)
        # Edit the messages whose kind still fits (the table photo stays where it is when its
        # text outgrows the caption), delete what is left over, send what is new.
        kept: Record = []
        for old, part in zip(record, parts, strict=False):
            if old["kind"] != part.kind:
                break
            try:
                kept.append(await self._edit(chat, old, part))
            except BadRequest as error:
                if "chat not found" in error.message.lower():
                    raise
                log.info("Telegram: could not edit slot %s, sending anew: %s", key, error)
                break
        for old in record[len(kept) :]:
            with contextlib.suppress(TelegramError):
                await self.bot.delete_message(chat, old["id"])
        kept += await self.send(chat, parts[len(kept) :])
        await self._save(key, legacy, kept)

    async def send(self, chat: int, parts: list[Part]) -> Record:
        """Post the parts as new messages; what each shows, with its id."""
        sent = []
        for part in parts:
            if part.kind == "photo" and part.image is not None and is_animation(part.image):
                # sendPhoto would flatten a GIF to its first frame; sendAnimation keeps it moving
                message = await self.bot.send_animation(
                    chat,
                    InputFile(part.image.png, filename=part.image.filename),
                    caption=part.html,
                    parse_mode=ParseMode.HTML if part.html else None,
                    reply_markup=part.markup,
                )
            elif part.kind == "photo" and part.image is not None:
                message = await self.bot.send_photo(
                    chat,
                    InputFile(part.image.png, filename=part.image.filename),
                    caption=part.html,
                    parse_mode=ParseMode.HTML if part.html else None,
                    reply_markup=part.markup,
                )
            elif part.kind == "document" and part.file is not None:
                message = await self.bot.send_document(
                    chat,
                    InputFile(part.file.data, filename=part.file.filename),
                    disable_content_type_detection=True,
                )
            else:
                message = await self.bot.send_message(
                    chat,
                    part.html or ".",
                    parse_mode=ParseMode.HTML,
                    reply_markup=part.markup,
                    link_preview_options=LinkPreviewOptions(is_disabled=True),
                )
            sent.append({"id": message.message_id, **fingerprint(part)})
        return sent

    async def _load(self, key: SlotKey, legacy: str) -> Record:
        if key in self._records:
            return self._records[key]
        record: Record | None = None
        if self.messages is not None:
            try:
                record = await self.messages.get_parts(PLATFORM, *key)
            except Exception:
                log.exception("Telegram: could not read the stored message of %s", key)
        if record is None:  # kept by an older version in the state file, or no database
            record = self.state.get("slot", legacy) or []
        self._records[key] = record
        return record

    async def _save(self, key: SlotKey, legacy: str, record: Record) -> None:
        self._records[key] = record
        if self.messages is not None:
            try:
                await self.messages.put_parts(PLATFORM, key[0], key[1], record, key[2])
                if self.state.get("slot", legacy) is not None:
                    self.state.delete("slot", legacy)  # one place for it from now on
                return
            except Exception:
                log.exception("Telegram: could not store the message of %s", key)
        self.state.put("slot", legacy, record)

    async def _edit(self, chat: int, old: dict[str, Any], part: Part) -> dict[str, Any]:
        """Edit one message to show ``part``, touching only what changed."""
        new = {"id": old["id"], **fingerprint(part)}
        if new == old:
            return old
        bot = self.bot
        try:
            if part.kind == "text":
                await bot.edit_message_text(
                    part.html or ".",
                    chat_id=chat,
                    message_id=old["id"],
                    parse_mode=ParseMode.HTML,
                    reply_markup=part.markup,
                    link_preview_options=LinkPreviewOptions(is_disabled=True),
                )
            elif part.image is not None and new["image"] != old["image"]:
                # Raw bytes: PTB uploads them as a file part and points the InputMedia's
                # ``media`` at it with attach://; an InputFile without attach=True would leave
                # ``media`` out, which the Bot API refuses ("media not found").
                kind = InputMediaAnimation if is_animation(part.image) else InputMediaPhoto
                media = kind(
                    part.image.png,
                    filename=part.image.filename,
                    caption=part.html,
                    parse_mode=ParseMode.HTML if part.html else None,
                )
                await bot.edit_message_media(
                    media, chat_id=chat, message_id=old["id"], reply_markup=part.markup
                )
            elif new["html"] != old["html"]:
                await bot.edit_message_caption(
                    chat_id=chat,
                    message_id=old["id"],
                    caption=part.html,
                    parse_mode=ParseMode.HTML if part.html else None,
                    reply_markup=part.markup,
                )
            else:
                await bot.edit_message_reply_markup(
                    chat_id=chat, message_id=old["id"], reply_markup=part.markup
                )
        except BadRequest as error:
            if "not modified" not in error.message.lower():
                raise
        return new
