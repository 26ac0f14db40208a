"""A fake Telegram Bot API server on 127.0.0.1 for driving the real python-telegram-bot stack.

The real ``Application`` talks to it through its own HTTP request code (``base_url``): the fake
answers the methods our bot uses, keeps a small model of chats, users and messages (so edits in
place, deleted messages and callback answers can be checked), and records every call. Tests steer
the world through it: users who never started the bot or blocked it get 403 Forbidden, a method
can be made to fail once with 429 RetryAfter, and group messages, private messages (``/start``
deep links) and button presses are injected as updates that a real long-poll ``getUpdates``
delivers.

It checks what Telegram checks and our code could get wrong: callback data of at most 64 bytes,
at most 100 buttons, text and caption lengths, well-formed HTML, "message is not modified",
editing a message that does not exist, answering a callback query twice, files (animations and
documents: non-empty, at most 50 MB; a GIF becomes an ``animation``, anything else sent with
sendAnimation a plain ``document``; a GIF sent with sendPhoto keeps only its first frame, as
Telegram's photos do), and InputMedia read as
the Bot API server reads it (no ``media``, or an ``attach://`` name no file part carries: 400
"can't parse InputMedia: media not found"). It enforces Telegram's limits: 20 new messages and
20 edits a minute per group and 30 calls a second (429 with ``retry_after`` beyond), and
callback answers refused after 15 s. Faults on demand: a 429 once, 5xx answers, a call held
unanswered, a chat that is gone ("chat not found").
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import struct
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlparse

from aiohttp import web

MAX_CALLBACK_DATA = 64
MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_BUTTONS = 100
MAX_ROW = 8
ALLOWED_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre"}


_SERVER_ERRORS = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


class ApiError(Exception):
    """An error answer of the Bot API: HTTP status, description, optional parameters."""

    def __init__(self, status: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


@dataclass
class ApiCall:
    """One request the bot made, with its decoded parameters, uploaded files and the answer."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes]
    filenames: dict[str, str] = field(default_factory=dict)
    status: int = 200
    result: Any = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return int(value) if value is not None else None

    @property
    def shown_text(self) -> str:
        """Every piece of text this call shows: text, caption, media caption, button labels."""
        pieces = [str(self.params.get(key, "")) for key in ("text", "caption")]
        media = self.params.get("media")
        if isinstance(media, dict):
            pieces.append(str(media.get("caption", "")))
        markup = self.params.get("reply_markup")
        if isinstance(markup, dict):
            for row in markup.get("inline_keyboard", []):
                pieces += [str(button.get("text", "")) for button in row]
        return "\n".join(piece for piece in pieces if piece)


@dataclass
class StoredMessage:
    """A message as the fake currently holds it (edits change it in place)."""

    chat_id: int
    message_id: int
    from_id: int
    text: str | None = None  # visible text or caption (HTML already parsed)
    raw: str | None = None  # text or caption as sent
    photo: bytes | None = None
    animation: bytes | None = None  # a GIF sent with sendAnimation (kept as uploaded)
    document: bytes | None = None  # a file sent with sendDocument (or sendAnimation)
    file_name: str | None = None  # the document's or animation's name as uploaded
    reply_markup: dict[str, Any] | None = None
    edits: int = 0
    deleted: bool = False
    date: int = field(default_factory=lambda: int(time.time()))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]

    def button(self, label: str) -> dict[str, Any]:
        """The button labelled ``label``, else the first whose label contains it (or KeyError)."""
        for button in self.buttons:
            if label == button["text"]:
                return button
        for button in self.buttons:
            if label in button["text"]:
                return button
        labels = [button["text"] for button in self.buttons]
        raise KeyError(f"no button {label!r} on message {self.message_id}: {labels}")


class _HtmlText(HTMLParser):
    """Parses Telegram's HTML subset, keeping the visible text and noting malformed markup."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[str] = []
        self.problem: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.problem = f"unsupported start tag {tag!r}"
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problem = f"unexpected end tag {tag!r}"
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible_text(raw: str, parse_mode: str | None) -> str:
    """What a user sees for ``raw`` in ``parse_mode``; raises ApiError on bad HTML."""
    if (parse_mode or "").upper() != "HTML":
        return raw
    parser = _HtmlText()
    parser.feed(raw)
    parser.close()
    if parser.problem is None and parser.stack:
        parser.problem = f"unclosed tag {parser.stack[-1]!r}"
    if parser.problem is not None:
        raise ApiError(400, f"Bad Request: can't parse entities: {parser.problem}")
    return "".join(parser.parts)


MAX_UPLOAD = 50 * 1024 * 1024  # bots may upload files up to 50 MB


def gif_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a GIF, or None when the upload is not one."""
    if data[:6] not in (b"GIF87a", b"GIF89a") or len(data) < 10:
        return None
    width, height = struct.unpack("<HH", data[6:10])
    return int(width), int(height)


def still_frame(gif: bytes) -> bytes:
    """The first frame of a GIF as a PNG (what a photo of an animation keeps)."""
    from PIL import Image

    out = io.BytesIO()
    with Image.open(io.BytesIO(gif)) as image:
        image.convert("RGB").save(out, "PNG")
    return out.getvalue()


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG (ApiError if the upload is not a PNG)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


class FakeTelegram:
    """The fake Bot API: ``await start()``, point PTB at ``base_url``, ``await stop()``."""

    def __init__(
        self,
        *,
        token: str = "123456:TEST-TOKEN",
        bot_id: int = 777000111,
        bot_username: str = "rummikub_test_bot",
        minute: float = 60.0,
        second: float = 1.0,
        group_per_minute: int = 20,
        overall_per_second: int = 30,
        callback_timeout: float = 15.0,
    ) -> None:
        """``minute`` and ``second`` are the lengths of Telegram's limit windows here (a test
        may shorten them, and its bot's pacing with them, to stay fast)."""
        self.token = token
        self.minute, self.second = minute, second
        self.group_per_minute, self.overall_per_second = group_per_minute, overall_per_second
        self.callback_timeout = callback_timeout
        self._sent_at: dict[tuple[int, str], list[float]] = {}  # (group, send|edit) -> times
        self._calls_at: list[float] = []  # every call to a chat, for the overall limit
        self._pressed_at: dict[str, float] = {}
        self._failures: dict[str, list[int]] = {}
        self.throttled = 0  # 429 answers given for going over a limit
        self._holds: dict[str, asyncio.Event] = {}
        self.bot_user: dict[str, Any] = {
            "id": bot_id,
            "is_bot": True,
            "first_name": "Rummikub",
            "username": bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self.calls: list[ApiCall] = []
        self._filenames: dict[str, str] = {}  # the file names of the request being answered
        self.users: dict[int, dict[str, Any]] = {}
        self.chats: dict[int, dict[str, Any]] = {}
        self.admins: dict[int, set[int]] = {}
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.webhook_url = ""
        self.messages: dict[tuple[int, int], StoredMessage] = {}
        self.callback_answers: dict[str, list[dict[str, Any]]] = {}
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._last_injected = 0
        self._confirmed = 0  # every update below this id has been fetched and confirmed
        self._fetched = 0  # the highest update id handed out by getUpdates
        self._callback_ids = itertools.count(1)
        self._retry_after: dict[str, int] = {}
        self._changed = asyncio.Condition()
        self._poll_generation = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_post("/bot{token}/{method}", self._dispatch)
        app.router.add_get("/bot{token}/{method}", self._dispatch)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        self._closing = True
        await self._notify()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    @property
    def bot_username(self) -> str:
        return str(self.bot_user["username"])

    # --- the world -------------------------------------------------------------------------

    def add_user(
        self,
        user_id: int,
        first_name: str,
        *,
        username: str | None = None,
        started: bool = True,
        language_code: str | None = None,
    ) -> dict[str, Any]:
        """A Telegram user; ``started=False`` means they never opened a chat with the bot;
        ``language_code`` is their app's language (an IETF tag, sent with every update)."""
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if username:
            user["username"] = username
        if language_code:
            user["language_code"] = language_code
        self.users[user_id] = user
        self.chats[user_id] = {"id": user_id, "type": "private", "first_name": first_name}
        if started:
            self.started.add(user_id)
        return user

    def add_group(
        self, chat_id: int, title: str, *, admins: Iterable[int] = (), kind: str = "supergroup"
    ) -> dict[str, Any]:
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        chat = {"id": chat_id, "type": kind, "title": title}
        self.chats[chat_id] = chat
        self.admins[chat_id] = set(admins)
        return chat

    def upgrade_group(self, old: int, new: int, *, by: int, announce: bool = True) -> None:
        """A basic group becomes a supergroup with a new id, as Telegram does it: a service
        message in each chat (unless ``announce`` is off, as if the bot missed them) and from
        then on every call for the old id fails with ``migrate_to_chat_id``."""
        group = self.chats[old]
        self.add_group(new, group["title"], admins=self.admins[old])
        group["migrated_to"] = new
        if not announce:
            return
        for chat_id, key, other in (
            (old, "migrate_to_chat_id", new),
            (new, "migrate_from_chat_id", old),
        ):
            message = StoredMessage(chat_id, self._next_message_id(chat_id), by, None, None)
            self.messages[(chat_id, message.message_id)] = message
            payload = self._message_json(message)
            payload[key] = other
            self._push_update({"message": payload})

    def block(self, user_id: int) -> None:
        """The user blocks the bot: every message to them now fails with 403."""
        self.blocked.add(user_id)

    def unblock(self, user_id: int) -> None:
        self.blocked.discard(user_id)

    def retry_after_once(self, method: str, seconds: int = 1) -> None:
        """The next call of ``method`` answers 429 Too Many Requests with ``retry_after``."""
        self._retry_after[method] = seconds

    def hold(self, method: str) -> asyncio.Event:
        """Calls of ``method`` wait, unanswered, until the returned event is set (a slow
        network or a throttled send, seen from the bot)."""
        gate = self._holds[method] = asyncio.Event()
        return gate

    def forget_chat(self, user_id: int) -> None:
        """The user's private chat is gone (deleted account): calls for it answer 400
        "chat not found"."""
        self.chats.pop(user_id, None)

    def fail_next(self, method: str, *statuses: int, chat_id: int | None = None) -> None:
        """The next calls of ``method`` (to ``chat_id``, if given) answer these server errors
        (500, 502...), in order."""
        key = method if chat_id is None else f"{method}:{chat_id}"
        self._failures.setdefault(key, []).extend(statuses or (502,))

    # --- injecting updates -----------------------------------------------------------------

    def send_group(
        self, chat_id: int, user_id: int, text: str, *, reply_to: StoredMessage | None = None
    ) -> StoredMessage:
        """A user writes ``text`` in a group (privacy mode delivers only commands and replies
        to the bot's messages), optionally as a reply to ``reply_to``."""
        if self.chats[chat_id]["type"] == "private":
            raise ValueError(f"{chat_id} is a private chat")
        return self._user_message(chat_id, user_id, text, reply_to)

    def send_private(self, user_id: int, text: str) -> StoredMessage:
        """A user writes ``text`` in their private chat with the bot (``/start`` starts it)."""
        if text.split(maxsplit=1)[0].startswith("/start"):
            self.started.add(user_id)
            self.blocked.discard(user_id)
        if user_id not in self.started:
            raise ValueError(f"user {user_id} has no private chat with the bot yet")
        return self._user_message(user_id, user_id, text)

    def open_deep_link(self, user_id: int, url: str) -> StoredMessage:
        """The user taps a ``t.me/<bot>?start=<payload>`` link and presses Start."""
        parsed = urlparse(url)
        if parsed.scheme != "https" or parsed.netloc != "t.me":
            raise ValueError(f"not a t.me link: {url}")
        if parsed.path.strip("/") != self.bot_username:
            raise ValueError(f"link {url} does not open this bot")
        payload = parse_qs(parsed.query).get("start", [""])[0]
        return self.send_private(user_id, f"/start {payload}".strip())

    def press(
        self, message: StoredMessage, user_id: int, label: str | None = None, *, data: str = ""
    ) -> str:
        """A user presses a callback button (by label, or raw ``data``); returns the query id."""
        if message.deleted:
            raise ValueError("the message was deleted")
        if label is not None:
            button = message.button(label)
            if "callback_data" not in button:
                raise ValueError(f"button {button['text']!r} is not a callback button")
            data = button["callback_data"]
        query_id = str(next(self._callback_ids))
        self.callback_answers[query_id] = []
        self._pressed_at[query_id] = time.monotonic()
        self._push_update(
            {
                "callback_query": {
                    "id": query_id,
                    "from": self.users[user_id],
                    "chat_instance": f"ci{message.chat_id}",
                    "data": data,
                    "message": self._message_json(message),
                }
            }
        )
        return query_id

    def _user_message(
        self, chat_id: int, user_id: int, text: str, reply_to: StoredMessage | None = None
    ) -> StoredMessage:
        message = StoredMessage(chat_id, self._next_message_id(chat_id), user_id, text, text)
        self.messages[(chat_id, message.message_id)] = message
        payload = self._message_json(message)
        if reply_to is not None:
            payload["reply_to_message"] = self._message_json(reply_to)
        first = text.split(maxsplit=1)[0] if text.strip() else ""
        if first.startswith("/"):
            payload["entities"] = [{"type": "bot_command", "offset": 0, "length": len(first)}]
        self._push_update({"message": payload})
        return message

    def _push_update(self, body: dict[str, Any]) -> None:
        update_id = next(self._update_ids)
        self._updates.append({"update_id": update_id, **body})
        self._last_injected = update_id
        asyncio.get_running_loop().create_task(self._notify())

    # --- observing -------------------------------------------------------------------------

    def chat_messages(self, chat_id: int, *, from_bot: bool = True) -> list[StoredMessage]:
        """Messages currently in a chat, oldest first (deleted ones left out)."""
        bot_id = self.bot_user["id"]
        return [
            m
            for (chat, _), m in sorted(self.messages.items())
            if chat == chat_id and not m.deleted and (m.from_id == bot_id) == from_bot
        ]

    def calls_to(self, chat_id: int, *, since: int = 0) -> list[ApiCall]:
        return [call for call in self.calls[since:] if call.chat_id == chat_id]

    def mark(self) -> int:
        """A position in the call log for ``wait_for(..., since=...)``."""
        return len(self.calls)

    async def wait_for(
        self, predicate: Callable[[ApiCall], bool], *, since: int = 0, timeout: float = 10.0
    ) -> ApiCall:
        """The first call from ``since`` on matching ``predicate``, waiting for it if needed."""

        def find() -> ApiCall | None:
            return next((c for c in self.calls[since:] if predicate(c)), None)

        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(lambda: find() is not None), timeout)
            except TimeoutError:
                methods = [f"{c.method}->{c.chat_id}" for c in self.calls[since:]]
                raise AssertionError(
                    f"no matching Bot API call within {timeout}s; calls since: {methods}"
                ) from None
        found = find()
        assert found is not None
        return found

    async def wait_message(
        self,
        chat_id: int,
        predicate: Callable[[StoredMessage], bool],
        *,
        timeout: float = 10.0,
    ) -> StoredMessage:
        """The newest bot message in ``chat_id`` matching ``predicate``, waiting for it."""

        def find() -> StoredMessage | None:
            return next((m for m in reversed(self.chat_messages(chat_id)) if predicate(m)), None)

        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(lambda: find() is not None), timeout)
            except TimeoutError:
                texts = [m.text for m in self.chat_messages(chat_id)]
                raise AssertionError(
                    f"no matching message in chat {chat_id} within {timeout}s; it has: {texts}"
                ) from None
        found = find()
        assert found is not None
        return found

    async def delivered(self, *, timeout: float = 10.0) -> None:
        """Wait until the bot has fetched and confirmed every injected update."""
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: self._confirmed > self._last_injected), timeout
            )

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # --- the HTTP side ---------------------------------------------------------------------

    async def _dispatch(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params, files, filenames = await self._read_params(request)
        call = ApiCall(method, params, files, filenames)
        if request.match_info["token"] != self.token:
            return self._answer(call, ApiError(401, "Unauthorized"))
        if method != "getUpdates":
            self.calls.append(call)
        gate = self._holds.get(method)
        if gate is not None:
            await gate.wait()
        if self._retry_after.get(method):
            seconds = self._retry_after.pop(method)
            error = ApiError(
                429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds}
            )
            return await self._finish(call, error)
        failing = next(
            (k for k in (f"{method}:{params.get('chat_id')}", method) if self._failures.get(k)),
            None,
        )
        if failing is not None:
            status = self._failures[failing].pop(0)
            return await self._finish(call, ApiError(status, _SERVER_ERRORS.get(status, "Error")))
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            return await self._finish(call, ApiError(404, "Not Found"))
        try:
            self._flood_control(method, params)
            self._filenames = filenames
            result = await handler(params, files)
        except ApiError as error:
            return await self._finish(call, error)
        except web.HTTPException:
            raise
        return await self._finish(call, result)

    def _flood_control(self, method: str, params: dict[str, Any]) -> None:
        """Telegram's limits: 20 new messages (and 20 edits) a minute per group, 30 calls a
        second to chats in all; beyond them 429 with the seconds until there is room again."""
        if "chat_id" not in params:
            return
        now = time.monotonic()
        self._calls_at = [t for t in self._calls_at if now - t < self.second]
        if len(self._calls_at) >= self.overall_per_second:
            self._throttle(self._calls_at[0] + self.second - now)
        try:
            chat_id = int(params["chat_id"])
        except ValueError:
            chat_id = 0
        kind = "send" if method.startswith("send") and method != "sendChatAction" else ""
        kind = "edit" if method.startswith("edit") else kind
        if chat_id < 0 and kind:
            times = [t for t in self._sent_at.get((chat_id, kind), []) if now - t < self.minute]
            self._sent_at[(chat_id, kind)] = times
            if len(times) >= self.group_per_minute:
                self._throttle(times[0] + self.minute - now)
            times.append(now)
        self._calls_at.append(now)

    def _throttle(self, wait: float) -> None:
        self.throttled += 1
        seconds = max(1, int(wait + 0.999))
        raise ApiError(429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds})

    def group_sends(self, chat_id: int) -> list[ApiCall]:
        """The accepted calls that posted a new message in the group."""
        return [
            c
            for c in self.calls
            if c.ok
            and c.chat_id == chat_id
            and c.method.startswith("send")
            and c.method != "sendChatAction"
        ]

    async def _finish(self, call: ApiCall, outcome: Any) -> web.Response:
        response = self._answer(call, outcome)
        if call.method != "getUpdates":
            await self._notify()
        return response

    @staticmethod
    def _answer(call: ApiCall, outcome: Any) -> web.Response:
        if isinstance(outcome, ApiError):
            call.status, call.error = outcome.status, outcome.description
            body: dict[str, Any] = {
                "ok": False,
                "error_code": outcome.status,
                "description": outcome.description,
            }
            if outcome.parameters:
                body["parameters"] = outcome.parameters
            status = outcome.status
        else:
            call.result = outcome
            body, status = {"ok": True, "result": outcome}, 200
        return web.Response(
            status=status, body=json.dumps(body).encode(), content_type="application/json"
        )

    @staticmethod
    async def _read_params(
        request: web.Request,
    ) -> tuple[dict[str, Any], dict[str, bytes], dict[str, str]]:
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        filenames: dict[str, str] = {}
        if request.method == "GET":
            form: Any = request.query
        elif request.content_type == "application/json":
            return dict(await request.json()), files, filenames
        else:
            form = await request.post()
        for key, value in form.items():
            if isinstance(value, web.FileField):
                files[key] = value.file.read()
                filenames[key] = value.filename
                continue
            text = str(value)
            if text[:1] in "[{":
                try:
                    params[key] = json.loads(text)
                    continue
                except ValueError:
                    pass
            params[key] = text
        return params, files, filenames

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
