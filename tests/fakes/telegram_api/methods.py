"""The Bot API methods the bot uses, answered as the real server answers them (its limits,
its refusals and their sentences), over the world ``server.FakeTelegram`` keeps."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

from tests.fakes.telegram_api.model import (
    MAX_BUTTONS,
    MAX_CALLBACK_DATA,
    MAX_CAPTION,
    MAX_ROW,
    MAX_TEXT,
    MAX_UPLOAD,
    ApiError,
    StoredMessage,
    gif_size,
    png_size,
    still_frame,
    visible_text,
)


class BotApiMethods:
    """``_api_<method>(params, files)`` for each method, and the checks they share. The world
    they read and change is ``FakeTelegram``'s (declared here)."""

    bot_user: dict[str, Any]
    users: dict[int, dict[str, Any]]
    chats: dict[int, dict[str, Any]]
    admins: dict[int, set[int]]
    started: set[int]
    blocked: set[int]
    commands: dict[str, list[dict[str, Any]]]
    webhook_url: str
    messages: dict[tuple[int, int], StoredMessage]
    callback_answers: dict[str, list[dict[str, Any]]]
    callback_timeout: float
    _pressed_at: dict[str, float]
    _filenames: dict[str, str]
    _message_ids: dict[int, itertools.count[int]]
    _updates: list[dict[str, Any]]
    _last_injected: int
    _confirmed: int
    _fetched: int
    _changed: asyncio.Condition
    _poll_generation: int
    _closing: bool

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # --- helpers for the API methods -------------------------------------------------------

    def _next_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def _message_json(self, message: StoredMessage) -> dict[str, Any]:
        sender = self.bot_user if message.from_id == self.bot_user["id"] else None
        if sender is None:
            sender = self.users[message.from_id]
        body: dict[str, Any] = {
            "message_id": message.message_id,
            "date": message.date,
            "chat": self.chats[message.chat_id],
            "from": sender,
        }
        if message.edits:
            body["edit_date"] = message.date + message.edits
        if message.photo is not None:
            width, height = png_size(message.photo)
            body["photo"] = [
                {
                    "file_id": f"photo-{message.chat_id}-{message.message_id}-{message.edits}",
                    "file_unique_id": f"u{message.chat_id}x{message.message_id}x{message.edits}",
                    "width": width,
                    "height": height,
                    "file_size": len(message.photo),
                }
            ]
            if message.raw is not None:
                body["caption"] = message.text
        elif message.document is not None:
            file_id = f"doc-{message.chat_id}-{message.message_id}"
            document = {
                "file_id": file_id,
                "file_unique_id": f"d{message.chat_id}x{message.message_id}",
                "file_name": message.file_name,
                "file_size": len(message.document),
            }
            size = gif_size(message.animation) if message.animation is not None else None
            if size is not None:
                # Telegram turns a GIF into a silent MP4 and lists it as a document too
                document["mime_type"] = "video/mp4"
                body["animation"] = {**document, "width": size[0], "height": size[1]}
                body["animation"]["duration"] = 0
            body["document"] = document
            if message.raw is not None:
                body["caption"] = message.text
        elif message.text is not None:
            body["text"] = message.text
        if message.reply_markup:
            body["reply_markup"] = message.reply_markup
        return body

    def _chat(self, params: dict[str, Any]) -> int:
        try:
            chat_id = int(params["chat_id"])
        except (KeyError, ValueError):
            raise ApiError(400, "Bad Request: chat_id is empty") from None
        if chat_id not in self.chats:
            raise ApiError(400, "Bad Request: chat not found")
        if "migrated_to" in self.chats[chat_id]:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": self.chats[chat_id]["migrated_to"]},
            )
        if self.chats[chat_id].get("kicked"):  # the Bot API's words for a group and others
            kind = "group" if self.chats[chat_id]["type"] == "group" else "supergroup"
            raise ApiError(403, f"Forbidden: bot was kicked from the {kind} chat")
        if self.chats[chat_id]["type"] == "private":
            if chat_id in self.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if chat_id not in self.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat_id

    def _stored(self, params: dict[str, Any]) -> StoredMessage:
        chat_id = self._chat(params)
        try:
            message = self.messages[(chat_id, int(params["message_id"]))]
        except (KeyError, ValueError):
            raise ApiError(400, "Bad Request: message to edit not found") from None
        if message.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        if message.from_id != self.bot_user["id"]:
            raise ApiError(400, "Bad Request: message can't be edited")
        return message

    def _markup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict) or "inline_keyboard" not in markup:
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        rows = markup["inline_keyboard"]
        if sum(len(row) for row in rows) > MAX_BUTTONS:
            raise ApiError(400, "Bad Request: too many inline keyboard buttons")
        for row in rows:
            if len(row) > MAX_ROW:
                raise ApiError(400, "Bad Request: too many buttons in a row")
            for button in row:
                if not button.get("text"):
                    raise ApiError(400, "Bad Request: text buttons are unallowed in the keyboard")
                kinds = [k for k in ("callback_data", "url", "web_app") if k in button]
                if len(kinds) != 1:
                    raise ApiError(400, "Bad Request: can't parse inline keyboard button")
                if "web_app" in button:
                    self._check_web_app(params, button["web_app"])
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= MAX_CALLBACK_DATA:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
        return markup

    def _check_web_app(self, params: dict[str, Any], web_app: Any) -> None:
        """A Mini App button: only in a private chat, only to an https:// address."""
        chat = self.chats.get(int(params.get("chat_id", 0) or 0), {})
        if chat.get("type") != "private":
            raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
        url = web_app.get("url", "") if isinstance(web_app, dict) else ""
        if not str(url).startswith("https://"):
            raise ApiError(400, "Bad Request: inline keyboard button Web App URL is invalid")

    @staticmethod
    def _text(raw: Any, parse_mode: Any, limit: int, what: str) -> str:
        text = visible_text(str(raw), parse_mode)
        if not text.strip():
            raise ApiError(400, f"Bad Request: {what} must be non-empty")
        if len(text) > limit:
            raise ApiError(400, f"Bad Request: {what} is too long")
        return text

    def _new_bot_message(
        self,
        chat_id: int,
        *,
        raw: str | None,
        text: str | None,
        photo: bytes | None,
        markup: dict[str, Any] | None,
    ) -> dict[str, Any]:
        message = StoredMessage(
            chat_id,
            self._next_message_id(chat_id),
            self.bot_user["id"],
            text=text,
            raw=raw,
            photo=photo,
            reply_markup=markup,
        )
        self.messages[(chat_id, message.message_id)] = message
        return self._message_json(message)

    @staticmethod
    def _upload(value: Any, files: dict[str, bytes], field_name: str) -> bytes:
        if isinstance(value, str) and value.startswith("attach://"):
            name = value.removeprefix("attach://")
            if name in files:
                return files[name]
        if value is None and field_name in files:
            return files[field_name]
        raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")

    def _input_media(self, media: Any, files: dict[str, bytes]) -> bytes:
        """The photo an InputMedia names, read as the Bot API server reads it.

        Its ``media`` field must be there: an ``attach://<name>`` pointing at a file part of
        the request (a file part that no InputMedia points at is ignored), or the file_id of a
        photo already sent. Anything else is refused with the server's own sentences.
        """
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise ApiError(400, "Bad Request: can't parse InputMedia: media type is not photo")
        value = media.get("media")
        if not isinstance(value, str) or not value:
            raise ApiError(400, "Bad Request: can't parse InputMedia: media not found")
        if value.startswith("attach://"):
            name = value.removeprefix("attach://")
            if name not in files:
                raise ApiError(400, "Bad Request: can't parse InputMedia: media not found")
            data = files[name]
            png_size(data)
            return data
        for message in self.messages.values():
            if message.photo is not None and value in self._file_ids(message):
                return message.photo
        raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")

    @staticmethod
    def _file_ids(message: StoredMessage) -> set[str]:
        return {
            f"photo-{message.chat_id}-{message.message_id}-{edit}"
            for edit in range(message.edits + 1)
        }

    # --- the API methods -------------------------------------------------------------------

    async def _api_getMe(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return self.bot_user

    async def _api_deleteWebhook(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        self.webhook_url = ""
        if str(params.get("drop_pending_updates", "")).lower() == "true":
            self._confirmed = self._last_injected + 1
            self._updates.clear()
        return True

    async def _api_setWebhook(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        self.webhook_url = str(params.get("url", ""))
        return True

    async def _api_getWebhookInfo(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return {"url": self.webhook_url, "has_custom_certificate": False, "pending_update_count": 0}

    async def _api_getUpdates(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        """Long poll: answer at once if updates wait, else when one arrives or time runs out."""
        offset = int(params.get("offset", 0) or 0)
        timeout = float(params.get("timeout", 0) or 0)
        limit = int(params.get("limit", 100) or 100)
        if offset:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            self._confirmed = max(self._confirmed, offset)
            await self._notify()
        self._poll_generation += 1
        generation = self._poll_generation
        await self._notify()  # an older long poll still waiting now ends with 409 Conflict
        deadline = time.monotonic() + timeout
        async with self._changed:
            while not self._updates and not self._closing:
                if generation != self._poll_generation:
                    raise ApiError(
                        409,
                        "Conflict: terminated by other getUpdates request; make sure that only "
                        "one bot instance is running",
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    await asyncio.wait_for(self._changed.wait(), remaining)
                except TimeoutError:
                    break
        batch = self._updates[:limit]
        if batch:
            self._fetched = max(self._fetched, batch[-1]["update_id"])
        return batch

    async def _api_sendMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat_id = self._chat(params)
        raw = str(params.get("text", ""))
        text = self._text(raw, params.get("parse_mode"), MAX_TEXT, "message text")
        markup = self._markup(params)
        return self._new_bot_message(chat_id, raw=raw, text=text, photo=None, markup=markup)

    async def _api_sendPhoto(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat_id = self._chat(params)
        photo = self._upload(params.get("photo"), files, "photo")
        if gif_size(photo) is not None:
            photo = still_frame(photo)  # Telegram keeps a GIF sent as a photo as one still
        png_size(photo)
        raw = params.get("caption")
        text = None
        if raw is not None:
            text = self._text(raw, params.get("parse_mode"), MAX_CAPTION, "message caption")
        markup = self._markup(params)
        return self._new_bot_message(
            chat_id, raw=None if raw is None else str(raw), text=text, photo=photo, markup=markup
        )

    def _file_upload(self, params: dict[str, Any], files: dict[str, bytes], name: str) -> bytes:
        data = self._upload(params.get(name), files, name)
        if not data:
            raise ApiError(400, "Bad Request: file must be non-empty")
        if len(data) > MAX_UPLOAD:
            raise ApiError(413, "Request Entity Too Large")
        return data

    def _new_file_message(
        self, params: dict[str, Any], files: dict[str, bytes], name: str
    ) -> dict[str, Any]:
        """sendAnimation and sendDocument: the file, its name, a caption and a keyboard. A file
        sent as an animation that is not one arrives as a plain document, as on Telegram."""
        chat_id = self._chat(params)
        data = self._file_upload(params, files, name)
        raw = params.get("caption")
        text = None
        if raw is not None:
            text = self._text(raw, params.get("parse_mode"), MAX_CAPTION, "message caption")
        markup = self._markup(params)
        value = params.get(name)
        part = value.removeprefix("attach://") if isinstance(value, str) else name
        message = StoredMessage(
            chat_id,
            self._next_message_id(chat_id),
            self.bot_user["id"],
            text=text,
            raw=None if raw is None else str(raw),
            animation=data if name == "animation" and gif_size(data) else None,
            document=data,
            file_name=self._filenames.get(part, "file"),
            reply_markup=markup,
        )
        self.messages[(chat_id, message.message_id)] = message
        return self._message_json(message)

    async def _api_sendAnimation(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return self._new_file_message(params, files, "animation")

    async def _api_sendDocument(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return self._new_file_message(params, files, "document")

    async def _api_editMessageText(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message = self._stored(params)
        if message.photo is not None or message.document is not None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        raw = str(params.get("text", ""))
        text = self._text(raw, params.get("parse_mode"), MAX_TEXT, "message text")
        markup = self._markup(params)
        if text == message.text and markup == message.reply_markup:
            raise ApiError(400, "Bad Request: message is not modified")
        message.raw, message.text, message.reply_markup = raw, text, markup
        message.edits += 1
        return self._message_json(message)

    async def _api_editMessageCaption(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message = self._stored(params)
        if message.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        raw = params.get("caption")
        text = None
        if raw is not None:
            text = self._text(raw, params.get("parse_mode"), MAX_CAPTION, "message caption")
        markup = self._markup(params)
        if text == message.text and markup == message.reply_markup:
            raise ApiError(400, "Bad Request: message is not modified")
        message.raw = None if raw is None else str(raw)
        message.text, message.reply_markup = text, markup
        message.edits += 1
        return self._message_json(message)

    async def _api_editMessageMedia(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message = self._stored(params)
        if message.photo is None:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        media = params.get("media")
        photo = self._input_media(media, files)
        assert isinstance(media, dict)
        raw = media.get("caption")
        text = None
        if raw is not None:
            text = self._text(raw, media.get("parse_mode"), MAX_CAPTION, "message caption")
        message.photo, message.raw, message.text = photo, raw, text
        message.reply_markup = self._markup(params)
        message.edits += 1
        return self._message_json(message)

    async def _api_editMessageReplyMarkup(
        self, params: dict[str, Any], files: dict[str, bytes]
    ) -> Any:
        message = self._stored(params)
        markup = self._markup(params)
        if markup == message.reply_markup:
            raise ApiError(400, "Bad Request: message is not modified")
        message.reply_markup = markup
        message.edits += 1
        return self._message_json(message)

    async def _api_deleteMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat_id = self._chat(params)
        message = self.messages.get((chat_id, int(params.get("message_id", 0))))
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to delete not found")
        message.deleted = True
        return True

    async def _api_answerCallbackQuery(
        self, params: dict[str, Any], files: dict[str, bytes]
    ) -> Any:
        query_id = str(params.get("callback_query_id", ""))
        answers = self.callback_answers.get(query_id)
        late = time.monotonic() - self._pressed_at.get(query_id, 0.0) > self.callback_timeout
        if answers is None or answers or late:
            raise ApiError(
                400,
                "Bad Request: query is too old and response timeout expired or query ID is invalid",
            )
        answers.append(params)
        return True

    async def _api_setMyCommands(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise ApiError(400, "Bad Request: can't parse commands JSON object")
        for command in commands:
            name = str(command.get("command", ""))
            ok = 1 <= len(name) <= 32 and all(c.islower() or c.isdigit() or c == "_" for c in name)
            if not ok or not 1 <= len(str(command.get("description", ""))) <= 256:
                raise ApiError(400, f"Bad Request: BOT_COMMAND_INVALID ({name!r})")
        self.commands[self._menu_key(params)] = commands
        return True

    @staticmethod
    def _menu_key(params: dict[str, Any]) -> str:
        """A menu per scope and language: ``all_group_chats``, ``all_group_chats:pl``."""
        scope = params.get("scope") or {"type": "default"}
        language = params.get("language_code")
        return f"{scope.get('type')}:{language}" if language else str(scope.get("type"))

    async def _api_getMyCommands(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return self.commands.get(self._menu_key(params), [])

    async def _api_getChatMember(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat_id = self._chat(params)
        user_id = int(params.get("user_id", 0))
        if user_id not in self.users:
            raise ApiError(400, "Bad Request: user not found")
        user = self.users[user_id]
        if user_id in self.admins.get(chat_id, set()):
            return {"status": "creator", "user": user, "is_anonymous": False}
        return {"status": "member", "user": user}

    async def _api_getChatAdministrators(
        self, params: dict[str, Any], files: dict[str, bytes]
    ) -> Any:
        chat_id = self._chat(params)
        owners = sorted(self.admins.get(chat_id, set()))
        return [
            {"status": "creator", "user": self.users[user_id], "is_anonymous": False}
            for user_id in owners
        ]

    async def _api_sendChatAction(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        self._chat(params)
        return True
