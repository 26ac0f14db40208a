"""The board's server on the bot's own event loop: started after the manager resumed, stopped
before it closes (open change streams end, queued chat replies are sent first)."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from aiohttp import web

from bot.api import GameService
from bot.logs import redact_also
from bot.web.app import BoardApp
from bot.web.assets import Assets
from bot.web.auth import Signer
from bot.web.links import BoardLinks
from storage import Database

log = logging.getLogger(__name__)

SECRET_NAME = "board_link_key"


@dataclass(frozen=True, slots=True)
class BoardConfig:
    """Where the board listens and how long what it hands out lasts (from ``WEB_*``).

    ``base_url`` is the public address (behind a reverse proxy with HTTPS); ``None`` means the
    local address the server ends up listening on (``rummikub play --board``)."""

    base_url: str | None = None
    listen: str = "127.0.0.1"
    port: int = 8480  # 0: any free port
    link_seconds: float = 3600.0
    init_data_seconds: float = 3600.0
    telegram_token: str | None = None  # checks Mini App sign-ins; None: no Telegram side


async def board_secret(db: Database, configured: str | None) -> bytes:
    """The key that signs board links: ``WEB_SECRET`` when set, else one made once and kept
    in the database (so links survive a restart and every process shares it). Whichever it
    is, the log filter hides it from now on."""
    if configured:
        return configured.encode()  # a setting: the log filter knows it already
    fresh = secrets.token_urlsafe(48)
    redact_also(fresh)  # before it is written: a DEBUG log of the INSERT shows its values
    value = await db.secrets.get_or_create(SECRET_NAME, lambda: fresh)
    redact_also(value)
    return value.encode()


class BoardServer:
    """The aiohttp server of the board; ``links`` makes the addresses adapters hand out."""

    def __init__(self, service: GameService, config: BoardConfig, secret: bytes) -> None:
        self.config = config
        self.signer = Signer(secret, lifetime=config.link_seconds)
        self.board = BoardApp(
            service,
            self.signer,
            assets=Assets(),
            telegram_token=config.telegram_token,
            init_data_seconds=config.init_data_seconds,
        )
        self._runner: web.AppRunner | None = None
        self.port = config.port
        self.links = BoardLinks(config.base_url or self._local_url(), self.signer)

    def _local_url(self) -> str:
        host = self.config.listen if self.config.listen not in ("0.0.0.0", "::") else "127.0.0.1"
        return f"http://{host}:{self.port}"

    async def start(self) -> None:
        runner = web.AppRunner(self.board.application(), shutdown_timeout=3.0)
        await runner.setup()
        site = web.TCPSite(runner, self.config.listen, self.config.port)
        await site.start()
        self._runner = runner
        server = site._server
        if server is not None and self.config.port == 0:
            sockets = getattr(server, "sockets", None) or []
            self.port = int(sockets[0].getsockname()[1])
        if self.config.base_url is None:
            self.links = BoardLinks(self._local_url(), self.signer)
        log.info(
            "the board listens on %s:%s and is reached at %s",
            self.config.listen,
            self.port,
            self.links.page,
        )

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


async def start_board(
    service: GameService, db: Database, config: BoardConfig, secret: str | None
) -> BoardServer:
    """Make the board's server with its signing key and start it."""
    server = BoardServer(service, config, await board_secret(db, secret))
    await server.start()
    return server
