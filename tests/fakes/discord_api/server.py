"""The fake Discord REST API server: an aiohttp app on 127.0.0.1 in its own thread (its own
event loop), so the bot's loop holds only the bot's tasks. It records every request, answers
the few application routes discord.py asks at login, checks a command sync as Discord does,
and hands channels, messages and interactions to their routes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from aiohttp import web

from tests.fakes.discord_api.interactions import callback, webhook
from tests.fakes.discord_api.messages import channel_messages, list_guild_channels, open_dm
from tests.fakes.discord_api.models import (
    FILES,
    PAYLOAD,
    RecordedRequest,
    error,
    respond,
    snowflake,
)
from tests.fakes.discord_api.state import FakeState


class FakeDiscord(FakeState):
    """The fake API server. Start with ``start()``, stop with ``stop()``; thread-safe reads."""

    def __init__(self, *, app_name: str = "Rummikub") -> None:
        super().__init__(app_name=app_name)
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()

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
        fault = self.take_fault(method, path)
        if fault is not None and fault.status == 0:
            assert request.transport is not None
            request.transport.close()  # the client reads no answer
            return web.Response(status=499)
        if fault is not None:
            reason = fault.message or ("Service Unavailable" if fault.status >= 500 else "Error")
            return error(fault.status, fault.code, reason)
        with self.lock:
            for index, (m, prefix) in enumerate(self.rate_limit_once):
                if m == method and path.startswith(prefix):
                    del self.rate_limit_once[index]
                    self.sent_429 += 1
                    return respond(
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
            return error(413, 40005, "Request entity too large")
        if parts[0] == "guilds" and parts[2:] == ["channels"] and method == "GET":
            return list_guild_channels(self, int(parts[1]))
        if method == "GET" and path == "/users/@me":
            return respond(
                self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
            )
        if method == "GET" and path == "/oauth2/applications/@me":
            return respond(self._application())
        if method == "GET" and path == "/gateway/bot":
            return respond(
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
            return open_dm(self, int(payload["recipient_id"]))
        if parts[0] == "users" and len(parts) == 2 and method == "GET":
            user = self.users.get(int(parts[1]))
            if user is None:
                return error(404, 10013, "Unknown User")
            return respond(user.payload())
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            return channel_messages(
                self, method, int(parts[1]), parts[3:], payload, files, dict(request.query)
            )
        if parts[0] == "interactions" and len(parts) == 4 and parts[3] == "callback":
            return callback(self, parts[2], payload, files)
        if parts[0] == "webhooks" and len(parts) >= 3:
            return webhook(self, method, parts[2], parts[3:], payload, files)
        return error(404, 0, f"the fake has no route for {method} {path}")

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
        problems = validate_commands(payload)
        if problems:
            return respond(
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
        return respond(out)


def validate_commands(payload: list[dict[str, Any]]) -> dict[str, str]:
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
