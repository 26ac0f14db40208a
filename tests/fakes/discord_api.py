"""A fake Discord REST API on 127.0.0.1 and a harness that drives the real discord.py client.

The fake runs an aiohttp server in its own thread (its own event loop), so the bot's loop only
holds the bot's tasks and the harness can tell when the bot has finished reacting. It records
every request and keeps a model of what each user can see: channel messages, DMs and ephemeral
interaction messages, with every edit. It models the Discord behaviours our adapter must respect:

- an interaction must be acknowledged within 3 s (later: 404, code 10062) and only once (40060);
- after a "thinking" defer, the first followup replaces the loading message and takes the
  defer's visibility (the rack privacy trap);
- a user with closed DMs makes a DM send fail with 403, code 50007;
- a route can be made to answer 429 once (with ``Via``, as Discord's real answers carry it), or
  403 Missing Permissions.

The harness logs a real ``commands.Bot``/``AutoShardedBot`` in against the fake (``Route.BASE``),
then feeds interactions as the gateway would (``ConnectionState.parse_interaction_create``):
slash commands with options, autocomplete, button clicks and select choices.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

JSON = "application/json"
EPHEMERAL = 64
LOADING = 128
ACK_DEADLINE_S = 3.0
UPLOAD_LIMIT = 8 * 1024 * 1024  # bytes per attached file, as the harness's interactions announce
PAYLOAD = web.RequestKey("payload", object)
FILES = web.RequestKey("files", list[tuple[str, bytes]])

_snowflakes = itertools.count(1_200_000_000_000_000_000)


def snowflake() -> int:
    return next(_snowflakes)


def _now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


def _respond(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # content-type exactly application/json: discord.py treats "...; charset=utf-8" as text.
    body = json.dumps(data).encode()
    response = web.Response(status=status, body=body, headers=headers or {})
    response.headers["Content-Type"] = JSON
    return response


def _error(status: int, code: int, message: str) -> web.Response:
    return _respond({"code": code, "message": message}, status=status)


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
        }


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    description: str = ""

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": f"https://cdn.invalid/{self.id}/{self.filename}",
            "proxy_url": f"https://media.invalid/{self.id}/{self.filename}",
            "content_type": "image/png",
            "description": self.description,
        }


@dataclass
class FakeMessage:
    """A message as Discord stores it, plus who may see it.

    ``audience`` is ``("channel", channel_id)``, ``("dm", user_id)`` or ``("ephemeral", user_id)``.
    ``versions`` keeps every state the message was ever in (creation and each edit), because a
    user has seen all of them.
    """

    id: int
    channel_id: int
    audience: tuple[str, int]
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    deleted: bool = False
    edited: bool = False
    allowed_mentions: dict[str, Any] | None = None
    versions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def snapshot(self) -> None:
        self.versions.append(
            {
                "content": self.content,
                "embeds": json.loads(json.dumps(self.embeds)),
                "attachments": [(a.filename, a.data) for a in self.attachments],
                "components": json.loads(json.dumps(self.components)),
            }
        )

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0,
            "content": self.content,
            "author": self.author.payload(),
            "embeds": self.embeds,
            "attachments": [a.payload() for a in self.attachments],
            "components": self.components,
            "flags": self.flags,
            "timestamp": _now_iso(),
            "edited_timestamp": _now_iso() if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
        }

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions and fields: all the words a user reads."""
        return _message_words(self.content, self.embeds)

    def all_texts(self) -> list[str]:
        return [_message_words(v["content"], v["embeds"]) for v in self.versions]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in _walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in _walk_components(self.components) if c.get("type") == 3]

    def button(self, label: str) -> dict[str, Any]:
        for button in self.buttons():
            if button.get("label") == label:
                return button
        labels = [b.get("label") for b in self.buttons()]
        raise LookupError(f"no button {label!r} on message {self.id}; buttons: {labels}")

    def row_count(self) -> int:
        return len(self.components)


def _message_words(content: str, embeds: list[dict[str, Any]]) -> str:
    parts = [content]
    for embed in embeds:
        parts.append(str(embed.get("title", "")))
        parts.append(str(embed.get("description", "")))
        for fld in embed.get("fields", []):
            parts.append(f"{fld.get('name', '')} {fld.get('value', '')}")
        parts.append(str(embed.get("footer", {}).get("text", "")))
    return "\n".join(p for p in parts if p)


def _walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components", []))


@dataclass
class FakeInteraction:
    """The fake's record of one interaction token: who, where, and how it was answered."""

    id: int
    token: str
    kind: int
    user_id: int
    channel_id: int
    created: float
    message_id: int | None = None  # the message a component sits on
    response_type: int | None = None
    original_id: int | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    late: bool = False
    acked_after: float | None = None  # seconds from creation to the callback
    errors: list[int] = field(default_factory=list)


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, bytes]]
    status: int


class FakeDiscord:
    """The fake API server. Start with ``start()``, stop with ``stop()``; thread-safe reads."""

    def __init__(self, *, app_name: str = "Rummikub") -> None:
        self.bot_user = FakeUser(snowflake(), app_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(snowflake(), "owner")
        self.lock = threading.RLock()
        self.requests: list[RecordedRequest] = []
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[str, FakeInteraction] = {}
        self.dm_channels: dict[int, int] = {}  # dm channel id -> user id
        self.users: dict[int, FakeUser] = {}
        self.refuse_dm: set[int] = set()
        self.rate_limit_once: list[tuple[str, str]] = []  # (method, path prefix)
        self.forbidden_channels: set[int] = set()
        self.synced_commands: list[dict[str, Any]] = []
        self.guild_channels: dict[int, list[int]] = {}  # guild id -> its text channels
        self.upload_limit = UPLOAD_LIMIT
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self.sent_429 = 0
        self.ack_deadline = ACK_DEADLINE_S

    # --- lifecycle -----------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="fake-discord", daemon=True)
        self._thread.start()
        if not self._started.wait(10):
            raise RuntimeError("the fake Discord API did not start")

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        app = web.Application(middlewares=[self._record], client_max_size=50 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, access_log=None)
        loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._started.set()
        loop.run_forever()
        loop.run_until_complete(self._runner.cleanup())
        loop.close()

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)

    # --- test controls -------------------------------------------------------------------

    def add_user(self, name: str, user_id: int | None = None) -> FakeUser:
        user = FakeUser(user_id or snowflake(), name)
        with self.lock:
            self.users[user.id] = user
        return user

    def register_interaction(
        self, kind: int, user_id: int, channel_id: int, message_id: int | None = None
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            id=snowflake(),
            token=f"tok{snowflake()}",
            kind=kind,
            user_id=user_id,
            channel_id=channel_id,
            created=time.monotonic(),
            message_id=message_id,
        )
        with self.lock:
            self.interactions[interaction.token] = interaction
        return interaction

    def post_as(self, user: FakeUser, channel_id: int, content: str) -> FakeMessage:
        """Someone else writes in the channel (so the bot's messages move up its history)."""
        message = FakeMessage(snowflake(), channel_id, ("channel", channel_id), user, content)
        message.snapshot()
        with self.lock:
            self.messages[message.id] = message
        return message

    def rate_limit_next(self, method: str, path_prefix: str) -> None:
        """Answer the next matching request with a 429 (retry after 50 ms)."""
        with self.lock:
            self.rate_limit_once.append((method, path_prefix))

    def visible_to(self, user_id: int, channel_ids: set[int]) -> list[FakeMessage]:
        """Every message this user could have seen (deleted ones too: they were seen)."""
        with self.lock:
            out = []
            for message in self.messages.values():
                where, target = message.audience
                if (where == "channel" and target in channel_ids) or (
                    where in ("dm", "ephemeral") and target == user_id
                ):
                    out.append(message)
            return out

    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        with self.lock:
            return [
                m
                for m in self.messages.values()
                if m.audience == ("channel", channel_id) and not m.deleted
            ]

    def dms_to(self, user_id: int) -> list[FakeMessage]:
        with self.lock:
            return [m for m in self.messages.values() if m.audience == ("dm", user_id)]

    def ephemerals_to(self, user_id: int) -> list[FakeMessage]:
        with self.lock:
            return [
                m
                for m in self.messages.values()
                if m.audience == ("ephemeral", user_id) and not m.deleted
            ]

    def requests_matching(self, method: str, fragment: str) -> list[RecordedRequest]:
        with self.lock:
            return [r for r in self.requests if r.method == method and fragment in r.path]

    # --- server internals ----------------------------------------------------------------

    @web.middleware
    async def _record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        payload, files = await self._read_body(request)
        request[PAYLOAD] = payload
        request[FILES] = files
        response: web.StreamResponse = await handler(request)
        with self.lock:
            self.requests.append(
                RecordedRequest(
                    request.method,
                    request.path.removeprefix("/api/v10"),
                    dict(request.query),
                    payload,
                    files,
                    response.status,
                )
            )
        return response

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        if not request.can_read_body:
            return None, []
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload: Any = None
            files: list[tuple[str, bytes]] = []
            for name, value in form.items():
                if name == "payload_json":
                    payload = json.loads(value if isinstance(value, str) else value.file.read())
                elif isinstance(value, web.FileField):
                    files.append((name, value.file.read()))
                else:
                    files.append((name, str(value).encode()))
            return payload, files
        text = await request.text()
        return (json.loads(text) if text else None), []

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        with self.lock:
            for index, (m, prefix) in enumerate(self.rate_limit_once):
                if m == method and path.startswith(prefix):
                    del self.rate_limit_once[index]
                    self.sent_429 += 1
                    return _respond(
                        {
                            "message": "You are being rate limited.",
                            "retry_after": 0.05,
                            "global": False,
                        },
                        status=429,
                        headers={
                            "Via": "1.1 google",
                            "Retry-After": "1",
                            "X-RateLimit-Scope": "user",
                        },
                    )
            return self._route(method, path, request)

    def _route(self, method: str, path: str, request: web.Request) -> web.StreamResponse:
        parts = path.strip("/").split("/")
        payload = request[PAYLOAD]
        files = request[FILES]
        if any(len(data) > self.upload_limit for name, data in files if name.startswith("files[")):
            return _error(413, 40005, "Request entity too large")
        if parts[0] == "guilds" and parts[2:] == ["channels"] and method == "GET":
            return self._list_guild_channels(int(parts[1]))
        if method == "GET" and path == "/users/@me":
            return _respond(
                self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
            )
        if method == "GET" and path == "/oauth2/applications/@me":
            return _respond(self._application())
        if method == "GET" and path == "/gateway/bot":
            return _respond(
                {
                    "url": "ws://127.0.0.1:1",
                    "shards": 2,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 1000,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        if parts[:1] == ["applications"] and parts[2:3] == ["commands"] and method == "PUT":
            return self._sync_commands(payload)
        if method == "POST" and path == "/users/@me/channels":
            return self._open_dm(int(payload["recipient_id"]))
        if parts[0] == "users" and len(parts) == 2 and method == "GET":
            user = self.users.get(int(parts[1]))
            if user is None:
                return _error(404, 10013, "Unknown User")
            return _respond(user.payload())
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            return self._channel_messages(
                method, int(parts[1]), parts[3:], payload, files, dict(request.query)
            )
        if parts[0] == "interactions" and len(parts) == 4 and parts[3] == "callback":
            return self._callback(parts[2], payload, files)
        if parts[0] == "webhooks" and len(parts) >= 3:
            return self._webhook(method, parts[2], parts[3:], payload, files)
        return _error(404, 0, f"the fake has no route for {method} {path}")

    def _list_guild_channels(self, guild_id: int) -> web.StreamResponse:
        with self.lock:
            if guild_id not in self.guild_channels:
                return _error(404, 10004, "Unknown Guild")
            ids = list(self.guild_channels[guild_id])
        return _respond(
            [
                {
                    "id": str(channel_id),
                    "type": 0,
                    "guild_id": str(guild_id),
                    "name": f"channel-{position}",
                    "position": position,
                    "permission_overwrites": [],
                    "nsfw": False,
                    "parent_id": None,
                }
                for position, channel_id in enumerate(ids)
            ]
        )

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "verify_key": "00",
            "flags": 0,
            "team": None,
        }

    def _sync_commands(self, payload: list[dict[str, Any]]) -> web.Response:
        problems = _validate_commands(payload)
        if problems:
            return _respond(
                {"code": 50035, "message": "Invalid Form Body", "errors": problems}, status=400
            )
        out = []
        for command in payload:
            out.append(
                command
                | {
                    "id": str(snowflake()),
                    "application_id": str(self.application_id),
                    "version": "1",
                }
            )
        self.synced_commands = out
        return _respond(out)

    def _open_dm(self, user_id: int) -> web.Response:
        channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None)
        if channel_id is None:
            channel_id = snowflake()
            self.dm_channels[channel_id] = user_id
        user = self.users.get(user_id) or FakeUser(user_id, f"user{user_id}")
        return _respond(
            {
                "id": str(channel_id),
                "type": 1,
                "recipients": [user.payload()],
                "last_message_id": None,
            }
        )

    def _new_message(
        self,
        channel_id: int,
        audience: tuple[str, int],
        payload: dict[str, Any] | None,
        files: list[tuple[str, bytes]],
        flags: int = 0,
    ) -> FakeMessage:
        message = FakeMessage(
            id=snowflake(),
            channel_id=channel_id,
            audience=audience,
            author=self.bot_user,
            flags=flags,
        )
        self._apply(message, payload or {}, files, creating=True)
        self.messages[message.id] = message
        return message

    def _apply(
        self,
        message: FakeMessage,
        payload: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        creating: bool = False,
    ) -> None:
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = payload["embeds"] or []
        if "components" in payload:
            message.components = payload["components"] or []
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        uploaded = dict(files)
        if "attachments" in payload:
            kept = {a.id: a for a in message.attachments}
            new: list[FakeAttachment] = []
            for entry in payload["attachments"]:
                key = f"files[{entry['id']}]"
                if key in uploaded:
                    new.append(
                        FakeAttachment(
                            snowflake(),
                            entry.get("filename", key),
                            uploaded[key],
                            entry.get("description", ""),
                        )
                    )
                elif int(entry["id"]) in kept:
                    new.append(kept[int(entry["id"])])
            message.attachments = new
        elif files:
            message.attachments = [FakeAttachment(snowflake(), name, data) for name, data in files]
        if "flags" in payload and creating:
            message.flags |= int(payload["flags"] or 0)
        if not creating:
            message.edited = True
        message.snapshot()

    def _channel_messages(
        self,
        method: str,
        channel_id: int,
        rest: list[str],
        payload: Any,
        files: list[tuple[str, bytes]],
        query: dict[str, str] | None = None,
    ) -> web.Response:
        if method == "GET" and not rest:  # history, newest first
            if channel_id in self.forbidden_channels:
                return _error(403, 50001, "Missing Access")
            limit = int((query or {}).get("limit", 50))
            found = [
                m
                for m in self.messages.values()
                if m.channel_id == channel_id and m.audience[0] != "ephemeral" and not m.deleted
            ]
            found.sort(key=lambda m: m.id, reverse=True)
            return _respond([m.payload() for m in found[:limit]])
        if channel_id in self.dm_channels:
            audience: tuple[str, int] = ("dm", self.dm_channels[channel_id])
        else:
            audience = ("channel", channel_id)
        if method == "POST" and not rest:
            if audience[0] == "dm" and audience[1] in self.refuse_dm:
                return _error(403, 50007, "Cannot send messages to this user")
            if channel_id in self.forbidden_channels:
                return _error(403, 50013, "Missing Permissions")
            message = self._new_message(channel_id, audience, payload, files)
            return _respond(message.payload())
        if not rest:
            return _error(405, 0, "405: Method Not Allowed")
        message_or_none = self.messages.get(int(rest[0]))
        if message_or_none is None or message_or_none.deleted:
            return _error(404, 10008, "Unknown Message")
        message = message_or_none
        if method == "GET":
            return _respond(message.payload())
        if method == "PATCH":
            if channel_id in self.forbidden_channels:
                return _error(403, 50013, "Missing Permissions")
            self._apply(message, payload or {}, files)
            return _respond(message.payload())
        if method == "DELETE":
            message.deleted = True
            return web.Response(status=204)
        return _error(405, 0, "405: Method Not Allowed")

    def _callback(
        self, token: str, payload: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> web.Response:
        interaction = self.interactions.get(token)
        if interaction is None:
            return _error(404, 10062, "Unknown interaction")
        if time.monotonic() - interaction.created > self.ack_deadline:
            interaction.late = True
            interaction.errors.append(10062)
            return _error(404, 10062, "Unknown interaction")
        if interaction.response_type is None:
            interaction.acked_after = time.monotonic() - interaction.created
        if interaction.response_type is not None:
            interaction.errors.append(40060)
            return _error(400, 40060, "Interaction has already been acknowledged.")
        kind = int(payload["type"])
        data = payload.get("data") or {}
        interaction.response_type = kind
        info: dict[str, Any] = {"id": str(interaction.id), "type": interaction.kind}
        resource: dict[str, Any] | None = None
        if kind == 4:
            flags = int(data.get("flags") or 0)
            audience = self._audience(interaction, flags)
            message = self._new_message(interaction.channel_id, audience, data, files, flags)
            interaction.original_id = message.id
            info |= {
                "response_message_id": str(message.id),
                "response_message_ephemeral": message.ephemeral,
            }
            resource = {"type": 4, "message": message.payload()}
        elif kind == 5:
            flags = int(data.get("flags") or 0) | LOADING
            audience = self._audience(interaction, flags)
            message = self._new_message(interaction.channel_id, audience, {}, [], flags)
            interaction.original_id = message.id
            info |= {
                "response_message_id": str(message.id),
                "response_message_loading": True,
                "response_message_ephemeral": message.ephemeral,
            }
        elif kind in (6, 7):
            if interaction.message_id is None:
                interaction.errors.append(40004)
                return _error(400, 50035, "Invalid Form Body: not a component interaction")
            interaction.original_id = interaction.message_id
            if kind == 7:
                message = self.messages[interaction.message_id]
                self._apply(message, data, files)
                resource = {"type": 7, "message": message.payload()}
        elif kind == 8:
            interaction.autocomplete_choices = list(data.get("choices", []))
        else:
            return _error(400, 50035, f"the fake does not model callback type {kind}")
        body: dict[str, Any] = {"interaction": info}
        if resource is not None:
            body["resource"] = resource
        return _respond(body)

    def _audience(self, interaction: FakeInteraction, flags: int) -> tuple[str, int]:
        if flags & EPHEMERAL:
            return ("ephemeral", interaction.user_id)
        if interaction.channel_id in self.dm_channels:
            return ("dm", self.dm_channels[interaction.channel_id])
        return ("channel", interaction.channel_id)

    def _webhook(
        self,
        method: str,
        token: str,
        rest: list[str],
        payload: Any,
        files: list[tuple[str, bytes]],
    ) -> web.Response:
        interaction = self.interactions.get(token)
        if interaction is None:
            return _error(404, 10015, "Unknown Webhook")
        if interaction.response_type is None:
            return _error(404, 10015, "Unknown Webhook")
        if method == "POST" and not rest:
            original = self.messages.get(interaction.original_id or 0)
            if (
                interaction.response_type == 5
                and original is not None
                and original.loading
                and not original.deleted
            ):
                # Discord turns the loading message into the first followup; it keeps the
                # defer's visibility whatever flags the followup asked for.
                original.flags &= ~LOADING
                self._apply(original, payload or {}, files)
                return _respond(original.payload())
            flags = int((payload or {}).get("flags") or 0)
            audience = self._audience(interaction, flags)
            message = self._new_message(interaction.channel_id, audience, payload, files, flags)
            return _respond(message.payload())
        if len(rest) == 2 and rest[0] == "messages":
            key = rest[1]
            mid = interaction.original_id if key == "@original" else int(key)
            found = self.messages.get(mid or 0)
            if found is None or found.deleted:
                return _error(404, 10008, "Unknown Message")
            if method == "GET":
                return _respond(found.payload())
            if method == "PATCH":
                found.flags &= ~LOADING
                self._apply(found, payload or {}, files)
                return _respond(found.payload())
            if method == "DELETE":
                found.deleted = True
                return web.Response(status=204)
        return _error(405, 0, "405: Method Not Allowed")


def _validate_commands(payload: list[dict[str, Any]]) -> dict[str, str]:
    """The checks Discord applies on sync that discord.py does not repeat locally."""
    problems: dict[str, str] = {}

    def check(option: dict[str, Any], where: str) -> None:
        name = option.get("name", "")
        description = option.get("description", "")
        if not 1 <= len(name) <= 32 or name != name.lower():
            problems[where] = f"bad name {name!r}"
        if not 1 <= len(description) <= 100:
            problems[where + ".description"] = f"description must be 1-100 chars: {name!r}"
        children = option.get("options") or []
        if len(children) > 25:
            problems[where + ".options"] = f"{name!r} has {len(children)} options (max 25)"
        for index, child in enumerate(children):
            check(child, f"{where}.options.{index}")

    for index, command in enumerate(payload):
        check(command, str(index))
    return problems


async def wait_for(condition: Any, timeout: float = 5.0) -> None:
    """Poll ``condition()`` until true (the fake lives in another thread)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.01)


@contextlib.contextmanager
def running_fake() -> Iterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()


# --- the harness: a real discord.py bot logged in against the fake ------------------------------


@dataclass
class Member:
    """A guild member as the interaction payload describes them."""

    user: FakeUser
    permissions: int
    locale: str = "en-US"  # the member's client language, sent with every interaction

    @property
    def id(self) -> int:
        return self.user.id

    def payload(self) -> dict[str, Any]:
        return {
            "user": self.user.payload(),
            "roles": [],
            "joined_at": _now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(self.permissions),
        }


@dataclass
class Outcome:
    """What one injected interaction led to."""

    interaction: FakeInteraction
    touched: list[FakeMessage]
    others: list[FakeInteraction] = field(default_factory=list)

    @property
    def private(self) -> list[FakeMessage]:
        return [m for m in self.touched if m.audience[0] in ("ephemeral", "dm")]

    @property
    def public(self) -> list[FakeMessage]:
        return [m for m in self.touched if m.audience[0] == "channel"]

    def text_for(self, user_id: int) -> str:
        return "\n".join(
            m.text for m in self.touched if m.audience in (("ephemeral", user_id), ("dm", user_id))
        )

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.interaction.autocomplete_choices or []


class DiscordHarness:
    """Logs a real discord.py bot in against a ``FakeDiscord`` and feeds it interactions.

    Interactions enter exactly where the gateway would hand them over
    (``ConnectionState.parse_interaction_create``); everything after that - command routing,
    option conversion, autocomplete, DynamicItem dispatch, HTTP - is discord.py's own code.
    """

    #: VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS
    MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)
    MANAGE_CHANNELS = 1 << 4

    _logged_in = 0  # bots logged in against a fake, across harnesses (Route.BASE is global)
    _real_base: str | None = None

    def __init__(
        self, fake: FakeDiscord, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> None:
        self.fake = fake
        self.guild_id = guild_id or snowflake()
        self.channel_id = channel_id or snowflake()
        self.bot: Any = None

    async def login(self, bot: Any) -> None:
        """Point discord.py at the fake and log ``bot`` in (runs its ``setup_hook``)."""
        import discord

        if DiscordHarness._logged_in == 0:
            DiscordHarness._real_base = discord.http.Route.BASE
        DiscordHarness._logged_in += 1
        discord.http.Route.BASE = self.fake.base_url
        self.bot = bot
        await bot.login("fake-token")

    async def close(self) -> None:
        """Shut the bot down like a process exit (the fake keeps its messages)."""
        import discord

        if self.bot is None:
            return
        await self.bot.close()
        self.bot = None
        DiscordHarness._logged_in -= 1
        if DiscordHarness._logged_in == 0 and DiscordHarness._real_base is not None:
            discord.http.Route.BASE = DiscordHarness._real_base

    def member(self, name: str, *, manage_channels: bool = False, locale: str = "en-US") -> Member:
        permissions = self.MEMBER_PERMISSIONS | (self.MANAGE_CHANNELS if manage_channels else 0)
        return Member(self.fake.add_user(name), permissions, locale)

    # payloads ---------------------------------------------------------------------------------

    def _base(
        self, kind: int, member: Member, fake_interaction: FakeInteraction, channel_id: int
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(fake_interaction.id),
            "application_id": str(self.fake.application_id),
            "type": kind,
            "token": fake_interaction.token,
            "version": 1,
            "locale": member.locale,
            "attachment_size_limit": self.fake.upload_limit,
            "entitlements": [],
            "app_permissions": str((1 << 53) - 1),
        }
        if channel_id in self.fake.dm_channels:
            payload["channel_id"] = str(channel_id)
            payload["channel"] = {
                "id": str(channel_id),
                "type": 1,
                "recipients": [member.user.payload()],
            }
            payload["user"] = member.user.payload()
            payload["context"] = 1
        else:
            with self.fake.lock:  # the guild has every channel a test talks in
                known = self.fake.guild_channels.setdefault(self.guild_id, [])
                if channel_id not in known:
                    known.append(channel_id)
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = "en-US"
            payload["channel_id"] = str(channel_id)
            payload["channel"] = {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(self.guild_id),
                "name": "rummikub",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "rate_limit_per_user": 0,
                "topic": None,
            }
            payload["member"] = member.payload()
            payload["context"] = 0
        return payload

    def _command_options(
        self, path: str, options: dict[str, Any], focused: str | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Build ``data`` for ``/rummikub <path>`` from the bot's own command tree."""
        from discord import AppCommandOptionType, app_commands

        words = path.split()
        root = self.bot.tree.get_command(words[0])
        if root is None:
            raise LookupError(f"no command /{words[0]}")
        node: Any = root
        chain: list[Any] = [root]
        for word in words[1:]:
            node = node.get_command(word)
            if node is None:
                raise LookupError(f"no command /{path}")
            chain.append(node)
        if not isinstance(node, app_commands.Command):
            raise LookupError(f"/{path} is a group, not a command")
        resolved: dict[str, Any] = {}
        leaf_options: list[dict[str, Any]] = []
        by_name = {p.display_name: p for p in node.parameters}
        for name, value in options.items():
            if name not in by_name:
                raise LookupError(f"/{path} has no option {name!r}; it has {sorted(by_name)}")
            parameter = by_name[name]
            option: dict[str, Any] = {"name": name, "type": parameter.type.value}
            if parameter.type is AppCommandOptionType.user:
                member = value
                option["value"] = str(member.id)
                resolved.setdefault("users", {})[str(member.id)] = member.user.payload()
                resolved.setdefault("members", {})[str(member.id)] = {
                    k: v for k, v in member.payload().items() if k != "user"
                }
            else:
                option["value"] = value
            if name == focused:
                option["focused"] = True
            leaf_options.append(option)
        inner: list[dict[str, Any]] = leaf_options
        for level in reversed(chain[1:]):
            kind = 1 if isinstance(level, app_commands.Command) else 2
            inner = [{"name": level.name, "type": kind, "options": inner}]
        data: dict[str, Any] = {
            "id": str(snowflake()),
            "name": root.name,
            "type": 1,
            "options": inner,
        }
        if resolved:
            data["resolved"] = resolved
        return data, resolved

    # injection ----------------------------------------------------------------------------------

    async def _inject(
        self, payload: dict[str, Any], fake_interaction: FakeInteraction, *more: dict[str, Any]
    ) -> Outcome:
        """Hand the payload(s) to discord.py as the gateway would, all before any runs."""
        before_versions = {mid: len(m.versions) for mid, m in self.fake.messages.items()}
        baseline = asyncio.all_tasks()
        for one in (payload, *more):
            self.bot._connection.parse_interaction_create(one)
        await self.settle(baseline)
        with self.fake.lock:
            touched = [
                m
                for mid, m in self.fake.messages.items()
                if len(m.versions) > before_versions.get(mid, 0)
                or (m.deleted and mid in before_versions and not m.loading)
            ]
        return Outcome(fake_interaction, touched)

    async def settle(
        self,
        baseline: set[asyncio.Task[Any]] | None = None,
        quiet: float = 0.3,
        timeout: float = 20.0,
    ) -> None:
        """Wait until the bot has finished reacting.

        discord.py runs each interaction in a named task ("CommandTree-invoker",
        "discord-ui-...", "discord.py: on_..."): those are awaited to the end, however long
        the game service takes. Other new tasks (AI turns, turn timers) are awaited until they
        finish or until only sleepers are left: no task finished and the fake saw no request
        for ``quiet`` seconds.
        """
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        baseline = baseline or set()
        deadline = loop.time() + timeout
        last_count = len(self.fake.requests)
        idle_since = loop.time()
        while True:
            pending = [
                t for t in asyncio.all_tasks() if t is not me and t not in baseline and not t.done()
            ]
            if not pending:
                return
            handlers = [t for t in pending if t.get_name().startswith(("CommandTree", "discord"))]
            done, _ = await asyncio.wait(pending, timeout=0.02)
            count = len(self.fake.requests)
            now = loop.time()
            if done or count != last_count:
                idle_since = now
                last_count = count
            elif not handlers and now - idle_since > quiet:
                return
            if now > deadline:
                raise TimeoutError(f"the bot is still busy: {pending}")

    async def slash(
        self, member: Member, path: str, *, channel_id: int | None = None, **options: Any
    ) -> Outcome:
        """Run ``/rummikub <path>`` (``path`` like "play" or "manage kick") with options."""
        channel_id = channel_id or self.channel_id
        data, _ = self._command_options(f"rummikub {path}", options, None)
        interaction = self.fake.register_interaction(2, member.id, channel_id)
        payload = self._base(2, member, interaction, channel_id) | {"data": data}
        return await self._inject(payload, interaction)

    async def autocomplete(
        self, member: Member, path: str, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        data, _ = self._command_options(f"rummikub {path}", options, focused)
        interaction = self.fake.register_interaction(4, member.id, self.channel_id)
        payload = self._base(4, member, interaction, self.channel_id) | {"data": data}
        outcome = await self._inject(payload, interaction)
        return outcome.choices

    async def click(self, member: Member, message: FakeMessage, label: str) -> Outcome:
        """Press the button with this label on a message the fake holds."""
        button = message.button(label)
        return await self.press(member, message, button["custom_id"], 2)

    async def choose(
        self, member: Member, message: FakeMessage, values: list[str], select_index: int = 0
    ) -> Outcome:
        select = message.selects()[select_index]
        allowed = {o["value"] for o in select["options"]}
        missing = [v for v in values if v not in allowed]
        if missing:
            raise LookupError(f"values {missing} are not options of select {select_index}")
        return await self.press(member, message, select["custom_id"], 3, values)

    async def double_click(self, member: Member, message: FakeMessage, label: str) -> Outcome:
        """Two presses of one button that arrive together, like an impatient double click."""
        custom_id = message.button(label)["custom_id"]
        payloads = []
        interactions = []
        for _ in range(2):
            interaction = self.fake.register_interaction(
                3, member.id, message.channel_id, message_id=message.id
            )
            payload = self._base(3, member, interaction, message.channel_id)
            payload["data"] = {"custom_id": custom_id, "component_type": 2}
            payload["message"] = message.payload()
            payloads.append(payload)
            interactions.append(interaction)
        outcome = await self._inject(payloads[0], interactions[0], payloads[1])
        outcome.others = interactions[1:]
        return outcome

    async def press(
        self,
        member: Member,
        message: FakeMessage,
        custom_id: str,
        component_type: int,
        values: list[str] | None = None,
    ) -> Outcome:
        interaction = self.fake.register_interaction(
            3, member.id, message.channel_id, message_id=message.id
        )
        payload = self._base(3, member, interaction, message.channel_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        payload["data"] = data
        payload["message"] = message.payload()
        return await self._inject(payload, interaction)
