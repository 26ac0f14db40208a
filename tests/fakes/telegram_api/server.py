"""``FakeTelegram``: the fake Bot API's HTTP side on 127.0.0.1, the world a test steers (users,
groups, blocks, faults on demand), updates injected for a real long poll, and Telegram's
limits (20 messages and 20 edits a minute per group, 30 calls a second)."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs, urlparse

from aiohttp import web

from tests.fakes.telegram_api.methods import BotApiMethods
from tests.fakes.telegram_api.model import SERVER_ERRORS, ApiCall, ApiError, StoredMessage


class FakeTelegram(BotApiMethods):
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
        self.throttled_by: list[str] = []  # which limit each 429 was for: "second" or "group"
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
        self._retry_after: dict[str, list[int]] = {}
        self._drops: dict[str, int] = {}
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

    def retry_after_once(self, method: str, seconds: int = 1, *, times: int = 1) -> None:
        """The next call of ``method`` (the next ``times`` calls) answers 429 Too Many
        Requests with ``retry_after``."""
        self._retry_after[method] = [seconds] * times

    def drop_next(self, method: str, times: int = 1) -> None:
        """The next calls of ``method`` get no answer: the connection closes (a network
        fault, seen from the bot, before anything was done)."""
        self._drops[method] = times

    def kick_bot(self, chat_id: int) -> None:
        """The bot is removed from the group: every call for it now fails with 403."""
        self.chats[chat_id]["kicked"] = True

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

    # --- the HTTP side ---------------------------------------------------------------------

    async def _dispatch(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params, files, filenames = await self._read_params(request)
        call = ApiCall(method, params, files, filenames)
        if request.match_info["token"] != self.token:
            return self._answer(call, ApiError(401, "Unauthorized"))
        if method != "getUpdates":
            self.calls.append(call)
        if self._drops.get(method):
            self._drops[method] -= 1
            assert request.transport is not None
            request.transport.abort()
            return web.Response(status=500)  # never read: the connection is gone
        gate = self._holds.get(method)
        if gate is not None:
            await gate.wait()
        if self._retry_after.get(method):
            seconds = self._retry_after[method].pop(0)
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
            return await self._finish(call, ApiError(status, SERVER_ERRORS.get(status, "Error")))
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
            self._throttle(self._calls_at[0] + self.second - now, "second")
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
                self._throttle(times[0] + self.minute - now, "group")
            times.append(now)
        self._calls_at.append(now)

    def _throttle(self, wait: float, limit: str) -> None:
        self.throttled += 1
        self.throttled_by.append(limit)
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
