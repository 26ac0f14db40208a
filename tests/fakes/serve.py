"""The fake Telegram and Discord servers in a process of their own, for tests of ``rummikub run``.

``python -m tests.fakes.serve --telegram-token T`` starts the fake Bot API (tests/fakes/
telegram_api/), the fake Discord REST API (tests/fakes/discord_api/) and a small Discord
gateway (HELLO, IDENTIFY -> READY, heartbeats, dispatches), then talks JSON lines: commands on
stdin, events on stdout. The first event is ``ready`` with the URLs to give the bot.

Commands (one JSON object a line):

- ``{"cmd": "telegram_group", "text": "/help"}``: a user writes in the test group;
- ``{"cmd": "hold", "method": "sendMessage"}``: the next such call waits, event ``held``,
  until ``{"cmd": "release"}``; ``{"cmd": "discord_hold", "prefix": "/interactions/"}``
  does the same for the next Discord request on that path (event ``discord_held``);
- ``{"cmd": "discord_slash", "path": "help"}``: ``/rummikub help`` arrives over the gateway;
  event ``discord_answered`` once the bot has answered it;
- ``{"cmd": "hold_sends"}``: from now on every Telegram call that sends, edits or deletes a
  message waits (event ``held`` at the first); ``{"cmd": "drop_held"}`` answers them 502
  without doing them (their sender was killed meanwhile) and ends the holding;
- ``{"cmd": "discord_hold_sends"}`` / ``{"cmd": "discord_drop_held"}``: the same for every
  Discord request that is not a read or an interaction's acknowledgement (event
  ``discord_held``);
- ``{"cmd": "discord_messages"}``: event ``discord_messages`` with the bot's messages now in
  the channel and in the member's DMs (id, words, button labels, edits);
- ``{"cmd": "messages"}``: event ``messages`` with the bot's messages now in the group and in
  the user's private chat (id, visible text, button labels, edits);
- ``{"cmd": "discord_hold_ready"}``: the gateway answers the next IDENTIFY with READY only
  after ``{"cmd": "discord_ready"}`` (event ``discord_ready_held`` at once);
- ``{"cmd": "report"}``: event ``report`` with what the fakes saw.

Events without a command: ``telegram_polling`` (the first getUpdates), ``discord_identified``,
``discord_closed`` (with the close code the bot sent). End of stdin stops everything.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import threading
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakes.discord_api import (
    DiscordHarness,
    FakeDiscord,
    FakeMessage,
    Member,
    respond,
    snowflake,
)
from tests.fakes.telegram_api import FakeTelegram

GROUP = -100777
USER = 4242
SENDS = ("send", "edit", "delete")  # the Bot API methods that change what a chat shows


_emitting = threading.Lock()


def emit(event: str, **fields: Any) -> None:
    with _emitting:  # the fake Discord API runs in a thread of its own
        sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
        sys.stdout.flush()


class HeldTelegram(FakeTelegram):
    """The fake Bot API, able to hold one method's next call until released."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hold_method: str | None = None
        self.gate = asyncio.Event()
        self.polling = False
        self.holding_sends = False
        self.dropped = asyncio.Event()

    async def _dispatch(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if method == "getUpdates" and not self.polling:
            self.polling = True
            emit("telegram_polling")
        if method == self.hold_method:
            self.hold_method = None
            emit("held", method=method)
            await self.gate.wait()
        if self.holding_sends and method.startswith(SENDS):
            emit("held", method=method)
            await self.dropped.wait()
            body = {"ok": False, "error_code": 502, "description": "Bad Gateway"}
            return web.json_response(body, status=502)
        return await super()._dispatch(request)

    def shown(self, chat_id: int) -> list[dict[str, Any]]:
        return [
            {
                "id": m.message_id,
                "text": m.text or "",
                "buttons": [b["text"] for b in m.buttons],
                "edits": m.edits,
            }
            for m in self.chat_messages(chat_id)
        ]


class GatewayDiscord(FakeDiscord):
    """The fake REST API, pointing ``/gateway/bot`` at the gateway below (one shard); it can
    hold the next request whose path starts with a prefix until released."""

    gateway_url = ""

    def __init__(self) -> None:
        super().__init__()
        self.hold_prefix: str | None = None
        self.gate = threading.Event()
        self.holding_sends = False
        self.dropped = threading.Event()

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        if self.hold_prefix is not None and path.startswith(self.hold_prefix):
            self.hold_prefix = None
            emit("discord_held", path=path)
            await asyncio.get_running_loop().run_in_executor(None, self.gate.wait)
        if self.holding_sends and request.method != "GET" and not path.startswith("/interactions/"):
            emit("discord_held", path=path)
            await asyncio.get_running_loop().run_in_executor(None, self.dropped.wait)
            return respond({"message": "Bad Gateway", "code": 0}, status=502)
        return await super()._dispatch(request)

    def shown(self, messages: list[FakeMessage]) -> list[dict[str, Any]]:
        return [
            {
                "id": m.id,
                "text": m.text,
                "buttons": [b.get("label") for b in m.buttons()],
                "edits": len(m.versions) - 1,
            }
            for m in sorted(messages, key=lambda m: m.id)
            if m.author.id == self.bot_user.id and not m.deleted
        ]

    def _route(self, method: str, path: str, request: web.Request) -> web.StreamResponse:
        if method == "GET" and path == "/gateway/bot":
            limits = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return respond({"url": self.gateway_url, "shards": 1, "session_start_limit": limits})
        return super()._route(method, path, request)


class Gateway:
    """Just enough of the Discord gateway for discord.py to connect, stay and close."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sockets: list[web.WebSocketResponse] = []
        self.sequence = 0
        self.close_codes: list[int | None] = []
        self.port = 0
        self._runner: web.AppRunner | None = None
        self.ready_gate: asyncio.Event | None = None  # READY waits for it when set

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/", self._connect)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def dispatch(self, kind: str, data: dict[str, Any]) -> None:
        self.sequence += 1
        frame = {"op": 0, "t": kind, "s": self.sequence, "d": data}
        for socket in self.sockets:
            if not socket.closed:
                await socket.send_str(json.dumps(frame))

    async def _connect(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.sockets.append(socket)
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            if frame.get("op") == 1:
                await socket.send_str(json.dumps({"op": 11}))
            elif frame.get("op") == 2:
                emit("discord_identified")
                if self.ready_gate is not None:
                    await self.ready_gate.wait()
                await self.dispatch("READY", self._ready())
        self.close_codes.append(socket.close_code)
        emit("discord_closed", code=socket.close_code)
        return socket

    def _ready(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.fake.bot_user.payload(),
            "guilds": [],
            "session_id": "fake-session",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}",
            "shard": [0, 1],
            "application": {"id": str(self.fake.application_id), "flags": 0},
        }


async def answered(fake: FakeDiscord, token: str, timeout: float = 60.0) -> list[str]:
    """Wait until the bot has answered the interaction; the texts it showed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        with fake.lock:
            interaction = fake.interactions[token]
            message = fake.messages.get(interaction.original_id or -1)
            if message is not None and not message.loading:
                return message.all_texts()
        await asyncio.sleep(0.05)
    return []


async def serve(telegram_token: str) -> None:
    telegram = HeldTelegram(token=telegram_token)
    telegram.add_user(USER, "Ann", username="ann")
    telegram.add_group(GROUP, "Rummikub night", admins=[USER])
    await telegram.start()
    discord = GatewayDiscord()
    discord.ack_deadline = 60.0  # a loaded test machine; the deadline is not what is tested
    discord.start()
    gateway = Gateway(discord)
    await gateway.start()
    discord.gateway_url = f"ws://127.0.0.1:{gateway.port}"
    harness = DiscordHarness(discord)
    member = Member(discord.add_user("Bo"), DiscordHarness.MEMBER_PERMISSIONS)

    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()

    def read_stdin() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        loop.call_soon_threadsafe(lines.put_nowait, "")

    threading.Thread(target=read_stdin, name="stdin", daemon=True).start()
    emit(
        "ready",
        telegram=telegram.base_url.removesuffix("/bot"),
        discord=discord.base_url,
        gateway=discord.gateway_url,
    )
    pending: set[asyncio.Task[None]] = set()
    try:
        while line := await lines.get():
            command = json.loads(line)
            name = command["cmd"]
            if name == "telegram_group":
                telegram.send_group(GROUP, USER, command["text"])
            elif name == "hold":
                telegram.hold_method = command["method"]
            elif name == "discord_hold":
                discord.hold_prefix = command["prefix"]
            elif name == "hold_sends":
                telegram.holding_sends = True
            elif name == "drop_held":
                telegram.holding_sends = False
                telegram.dropped.set()
            elif name == "discord_hold_sends":
                discord.holding_sends = True
            elif name == "discord_drop_held":
                discord.holding_sends = False
                discord.dropped.set()
            elif name == "discord_messages":
                emit(
                    "discord_messages",
                    channel=discord.shown(discord.channel_messages(harness.channel_id)),
                    dms=discord.shown(discord.dms_to(member.id)),
                    member=member.id,
                )
            elif name == "messages":
                emit("messages", group=telegram.shown(GROUP), private=telegram.shown(USER))
            elif name == "discord_hold_ready":
                gateway.ready_gate = asyncio.Event()
                emit("discord_ready_held")
            elif name == "discord_ready":
                if gateway.ready_gate is not None:
                    gateway.ready_gate.set()
            elif name == "release":
                telegram.gate.set()
                discord.gate.set()
            elif name == "discord_slash":
                data = {
                    "id": str(snowflake()),
                    "name": "rummikub",
                    "type": 1,
                    "options": [{"name": command["path"], "type": 1, "options": []}],
                }
                interaction = discord.register_interaction(2, member.id, harness.channel_id)
                payload = harness._base(2, member, interaction, harness.channel_id)
                await gateway.dispatch("INTERACTION_CREATE", payload | {"data": data})

                async def report_answer(token: str = interaction.token) -> None:
                    emit("discord_answered", texts=await answered(discord, token))

                task = asyncio.create_task(report_answer())
                pending.add(task)
                task.add_done_callback(pending.discard)
            elif name == "report":
                emit(
                    "report",
                    telegram_calls=[
                        {"method": c.method, "status": c.status, "text": c.params.get("text")}
                        for c in telegram.calls
                    ],
                    telegram_confirmed=telegram._confirmed,
                    telegram_last_update=telegram._last_injected,
                    discord_close_codes=gateway.close_codes,
                )
    finally:
        telegram.gate.set()
        discord.gate.set()
        for task in pending:
            task.cancel()
        await gateway.stop()
        discord.stop()
        await telegram.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--telegram-token", required=True)
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.telegram_token))


if __name__ == "__main__":
    main()
