"""The operations endpoint: ``/healthz``, ``/readyz`` and ``/metrics`` on a small aiohttp web
server that runs on the bot's own event loop (``METRICS_LISTEN``, ``METRICS_PORT``; off unless
the port is set).

- ``/healthz`` answers 200 whenever the event loop turns (a blocked or dead loop answers
  nothing, which is what a liveness probe is for).
- ``/readyz`` answers 200 only when the database answers a query and every platform with a
  token is connected (the Discord gateway ready, Telegram polling or its webhook server up),
  else 503; both with a one-line JSON body, the 503 with the first reason found.
- ``/metrics`` is the Prometheus text exposition of the game manager's registry.
"""

from __future__ import annotations

import json
import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.operations.metrics import BotMetrics

log = logging.getLogger("rummikub.operations")


def _json(body: dict[str, object], status: int = 200) -> web.Response:
    return web.Response(
        text=json.dumps(body, ensure_ascii=False) + "\n",
        status=status,
        content_type="application/json",
    )


class OperationsServer:
    """``await start()`` listens and returns the base URL; ``await stop()`` closes it."""

    def __init__(self, metrics: BotMetrics, *, listen: str = "127.0.0.1", port: int = 0) -> None:
        self.metrics = metrics
        self.listen = listen
        self.port = port
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._errors = metrics.log_handler()

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def start(self) -> str:
        runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=2.0)
        await runner.setup()
        site = web.TCPSite(runner, self.listen, self.port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        server = site._server  # the port chosen when METRICS_PORT is 0
        sockets = getattr(server, "sockets", None) or ()
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        host = f"[{self.listen}]" if ":" in self.listen else self.listen
        self.url = f"http://{host}:{self.port}"
        logging.getLogger().addHandler(self._errors)
        log.info("operations endpoint: %s/healthz, /readyz and /metrics", self.url)
        return self.url

    async def stop(self) -> None:
        logging.getLogger().removeHandler(self._errors)
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _healthz(self, _request: web.Request) -> web.Response:
        return _json({"status": "ok"})

    async def _readyz(self, _request: web.Request) -> web.Response:
        problem = await self.metrics.problem()
        if problem is None:
            return _json({"status": "ready"})
        return _json({"status": "not ready", "reason": problem}, status=503)

    async def _metrics(self, _request: web.Request) -> web.Response:
        await self.metrics.refresh()
        body = generate_latest(self.metrics.registry)
        response = web.Response(body=body)
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response
