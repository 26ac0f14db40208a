"""The board's HTTP side: the page, its state, its actions and its change stream (aiohttp).

Routes, all under ``/board`` (so a reverse proxy can send just that path to the bot):

- ``GET /board`` the page; ``GET /board/static/<file>``, ``/board/theme.css`` (the bot's
  palette), ``/board/i18n.json`` (the page's sentences, English and Polish); ``GET /board/ping``
  answers ``ok`` (a health check, and the bare request the benchmark compares against);
- ``POST /board/api/session`` with ``{"init_data": ..., "chat": ...}``: a Telegram Mini App
  signs in and gets a board token;
- ``GET /board/api/state``: the viewer's board (``bot.api.BoardState``) and a renewed token;
- ``POST /board/api/command`` with ``{"command": "move R7 from 2 to new"}``: one board
  action, run as the same command typed in the chat (``GameService.handle``); the answer has
  the sentences meant for the board (a refusal says why, as the chat would) and the new state;
- ``GET /board/api/events``: Server-Sent Events, one ``change`` per change of the channel.

Every ``/api`` request but the sign-in carries ``Authorization: Bearer <token>``; anything
else gets 401 and changes nothing. Bodies are capped (``MAX_BODY``), callers are rate-limited
(``bot.web.limits``) and every error is one JSON object: a code (``STATUS``) and its sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.api import ChannelRef, GameService, PlayerRef, Reply
from bot.i18n import t
from bot.logs import log_internal
from bot.web.assets import Assets
from bot.web.auth import Refused, Signer, Viewer, telegram_user
from bot.web.delivery import Deliveries
from bot.web.limits import RateLimit, Streams

log = logging.getLogger(__name__)

MAX_BODY = 8 * 1024  # bytes: a command, or a Telegram sign-in (initData is about 1 KB)
MAX_COMMAND = 300  # characters: the longest board action is a move of a few tiles
HEARTBEAT = 15.0  # seconds between keep-alive comments on a quiet change stream
BOARD_VERBS = frozenset(
    {"play", "move", "split", "swap", "undo", "reset", "auto", "hint", "draw", "done", "sort"}
)
"""What a board may ask (the first word of its command, as the page writes it): the steps and
ends of a turn, and the rack's order."""

STATUS = {
    "bad_token": 401,
    "expired": 401,
    "bad_init_data": 401,
    "stale_init_data": 401,
    "no_telegram": 401,
    "bad_request": 400,
    "not_board_action": 400,
    "too_large": 413,
    "too_many": 429,
    "internal": 500,
}
"""Error code -> HTTP status. The sentence is the catalog's ``board_error_<code>`` (the page
shows it in the viewer's language; the answer carries the English one)."""


class Rejected(Exception):
    """A request refused with one of the ``STATUS`` codes; nothing was changed."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def refuse(code: str) -> web.Response:
    message = t("en", f"board_error_{code}")
    return web.json_response({"error": code, "message": message}, status=STATUS[code])


def state_json(state: object) -> dict[str, Any]:
    assert dataclasses.is_dataclass(state) and not isinstance(state, type)
    return dataclasses.asdict(state)


class BoardApp:
    """The handlers and what they share: the service, the signer, limits and deliveries."""

    def __init__(
        self,
        service: GameService,
        signer: Signer,
        *,
        assets: Assets,
        telegram_token: str | None = None,
        init_data_seconds: float = 3600.0,
    ) -> None:
        self.service = service
        self.signer = signer
        self.assets = assets
        self.telegram_token = telegram_token
        self.init_data_seconds = init_data_seconds
        self.rates = RateLimit()
        self.streams = Streams()
        self.deliveries = Deliveries(service.deliver)
        self.closing = asyncio.Event()

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/board", self.page)
        app.router.add_get("/board/", self.page)
        app.router.add_get("/board/ping", self.ping)
        app.router.add_get("/board/theme.css", self.theme)
        app.router.add_get("/board/i18n.json", self.catalog)
        app.router.add_get("/board/static/{name}", self.static)
        app.router.add_post("/board/api/session", self.session)
        app.router.add_get("/board/api/state", self.state)
        app.router.add_post("/board/api/command", self.command)
        app.router.add_get("/board/api/events", self.events)
        app.on_shutdown.append(self._shutdown)
        return app

    async def _shutdown(self, _app: web.Application) -> None:
        self.closing.set()  # open change streams end; the page reconnects to the next process
        await self.deliveries.drain(timeout=5.0)

    # ----- guard: sizes, rates, errors ------------------------------------------------------

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.content_length is not None and request.content_length > MAX_BODY:
            return refuse("too_large")
        try:
            return await handler(request)
        except (Refused, Rejected) as refused:
            return refuse(refused.code)
        except web.HTTPRequestEntityTooLarge:
            return refuse("too_large")
        except web.HTTPException:
            raise
        except (ConnectionError, asyncio.CancelledError):
            raise
        except Exception:
            log_internal(log, "the board failed on %s %s", request.method, request.path)
            return refuse("internal")

    def _viewer(self, request: web.Request) -> Viewer:
        """The signed-in viewer of an ``/api`` request, after its rate check."""
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer":
            raise Refused("bad_token")
        viewer = self.signer.check(token.strip())
        if not self.rates.allow(viewer.key):
            raise Rejected("too_many")
        return viewer

    async def _body(self, request: web.Request) -> dict[str, Any]:
        if request.content_type != "application/json":
            raise Rejected("bad_request")
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise Rejected("bad_request") from None
        if not isinstance(body, dict):
            raise Rejected("bad_request")
        return body

    # ----- the page ----------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        return self.assets.response("board.html")

    async def static(self, request: web.Request) -> web.Response:
        return self.assets.response(request.match_info["name"])

    async def theme(self, request: web.Request) -> web.Response:
        return self.assets.response("theme.css")

    async def catalog(self, request: web.Request) -> web.Response:
        return self.assets.response("i18n.json")

    async def ping(self, request: web.Request) -> web.Response:
        return web.Response(text="ok", headers={"Cache-Control": "no-store"})

    # ----- the API -------------------------------------------------------------------------

    async def session(self, request: web.Request) -> web.Response:
        """A Telegram Mini App signs in with its ``initData`` for the board of ``chat``."""
        if not self.rates.allow(f"address:{request.remote}"):
            return refuse("too_many")
        body = await self._body(request)
        init_data, chat = body.get("init_data"), body.get("chat")
        if not isinstance(init_data, str) or not isinstance(chat, str) or not _chat_id(chat):
            return refuse("bad_request")
        if not self.telegram_token:
            return refuse("no_telegram")
        user = telegram_user(init_data, self.telegram_token, max_age=self.init_data_seconds)
        player = PlayerRef("telegram", user.user_id, user.name, locale=user.language_code)
        token = self.signer.sign(player, ChannelRef("telegram", chat))
        return web.json_response({"token": token}, headers={"Cache-Control": "no-store"})

    async def state(self, request: web.Request) -> web.Response:
        viewer = self._viewer(request)
        state = await self.service.board(viewer.player, viewer.channel)
        body = {"state": state_json(state), "token": self.signer.renew(viewer)}
        return web.json_response(body, headers={"Cache-Control": "no-store"})

    async def command(self, request: web.Request) -> web.Response:
        viewer = self._viewer(request)
        body = await self._body(request)
        text = body.get("command")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_COMMAND:
            return refuse("bad_request")
        if "\n" in text or "\r" in text:
            return refuse("bad_request")
        if text.split(maxsplit=1)[0] not in BOARD_VERBS:  # the manager parses it, once
            return refuse("not_board_action")
        replies = await self.service.handle(viewer.player, viewer.channel, text)
        said = [r.text for r in replies if _for_board(r, viewer.player)]
        chat = [r for r in replies if not _for_board(r, viewer.player)]
        self.deliveries.put(viewer.channel.key, chat)
        state = await self.service.board(viewer.player, viewer.channel)
        answer = {"messages": said, "state": state_json(state), "token": self.signer.renew(viewer)}
        return web.json_response(answer, headers={"Cache-Control": "no-store"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The channel's changes as Server-Sent Events: ``event: change`` with the new
        counter (the page then reads ``state``); a comment every ``HEARTBEAT`` seconds."""
        viewer = self._viewer(request)
        if not self.streams.open(viewer.key):
            return refuse("too_many")
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            }
        )
        try:
            await response.prepare(request)
            async for step in self._changes(viewer.channel):
                line = ": ping\n\n" if step is None else f"event: change\ndata: {step}\n\n"
                await response.write(line.encode())
        except ConnectionError:
            pass  # the page went away (a reload, a closed tab): nothing more to say
        finally:
            self.streams.close(viewer.key)
        return response

    async def _changes(self, channel: ChannelRef) -> AsyncIterator[int | None]:
        """The channel's change counters (``None`` for a heartbeat) until shutdown."""
        changes = self.service.watch(channel)
        closing = asyncio.ensure_future(self.closing.wait())
        waiting: asyncio.Future[int] | None = None
        try:
            while not self.closing.is_set():
                if waiting is None:
                    waiting = asyncio.ensure_future(anext(changes))
                pending: set[asyncio.Future[Any]] = {waiting, closing}
                done, _ = await asyncio.wait(
                    pending, timeout=HEARTBEAT, return_when=asyncio.FIRST_COMPLETED
                )
                if waiting in done:
                    step = waiting.result()
                    waiting = None
                    yield step
                elif not done:
                    yield None
        finally:
            closing.cancel()
            if waiting is not None:
                waiting.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                    await waiting
            if isinstance(changes, AsyncGenerator):
                await changes.aclose()


def _chat_id(text: str) -> bool:
    """Whether ``text`` looks like a Telegram chat id (digits, maybe a minus)."""
    return 0 < len(text) <= 32 and text.lstrip("-").isdigit() and text.isascii()


def _for_board(reply: Reply, player: PlayerRef) -> bool:
    """A reply the board shows instead of the chat: a short private answer to the person
    acting (a refusal, a hint). Their panel and rack go to the chat too, and so does
    everything public or for anyone else."""
    return reply.slot is None and player.same_person(reply.private_to)
