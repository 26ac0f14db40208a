"""The platforms' side of the metrics: every API call they make, counted by method and outcome,
and whether each is connected (for ``/readyz``). One call in each adapter wires it:
:func:`watch_discord` on the discord.py client, :func:`observed_application` for the
python-telegram-bot ``Application``.

Discord's calls are seen through aiohttp's client tracing (discord.py's ``http_trace``), so
every real response counts, the 429s discord.py waits out and retries included; the method
label is the route with its ids and tokens taken out (``POST /channels/{id}/messages``).
Telegram's go through :class:`ObservedRequest`, python-telegram-bot's own networking class
with each request timed; the method label is the Bot API method (``sendMessage``), never the
URL, which holds the token.
"""

from __future__ import annotations

import re
import time
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from bot.operations.metrics import BotMetrics, metrics_of, outcome_of

if TYPE_CHECKING:
    import aiohttp
    from telegram.ext import Application, ApplicationBuilder

_WORD = re.compile(r"[a-z@_-]+")  # a route's own words (channels, messages, @me, @original)
_API_PREFIX = re.compile(r"^/api(?:/v[0-9]+)?")


def discord_route(method: str, path: str) -> str:
    """``POST /channels/{id}/messages`` for ``POST /api/v10/channels/1234/messages``: ids and
    tokens (interaction and webhook tokens) become placeholders, so the label stays a small
    set and holds nothing secret."""
    path = _API_PREFIX.sub("", path.split("?", 1)[0])
    parts = []
    for part in path.strip("/").split("/"):
        if not part:
            continue
        if part.isdigit():
            parts.append("{id}")
        elif _WORD.fullmatch(part):
            parts.append(part)
        else:
            parts.append("{token}")
    return f"{method.upper()} /" + "/".join(parts) if parts else "gateway"


def discord_trace(metrics: BotMetrics) -> aiohttp.TraceConfig:
    """An aiohttp trace that counts and times each request of discord.py's HTTP session."""
    import aiohttp

    trace = aiohttp.TraceConfig()

    async def started(_session: Any, context: SimpleNamespace, _params: Any) -> None:
        context.started = time.perf_counter()

    async def ended(_session: Any, context: SimpleNamespace, params: Any) -> None:
        route = discord_route(params.method, params.url.path)
        outcome = outcome_of(params.response.status)
        metrics.api_call("discord", route, outcome, time.perf_counter() - context.started)

    async def failed(_session: Any, context: SimpleNamespace, params: Any) -> None:
        route = discord_route(params.method, params.url.path)
        metrics.api_call("discord", route, "error", time.perf_counter() - context.started)

    trace.on_request_start.append(started)
    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    trace.freeze()
    return trace


def discord_problem(client: Any) -> str | None:
    """None when the Discord client is ready with every shard connected, else why not."""
    if client.is_closed():
        return "discord: the client is closed"
    if not client.is_ready():
        return "discord: the gateway is not ready yet"
    shards = getattr(client, "shards", None) or {}
    down = sorted(shard_id for shard_id, shard in shards.items() if shard.is_closed())
    if down:
        return f"discord: shard {down[0]} is disconnected"
    return None


def watch_discord(client: Any, service: object) -> None:
    """Count the API calls of a discord.py client (before it logs in) and let ``/readyz``
    ask whether it is connected. Does nothing for a service without metrics."""
    metrics = metrics_of(service)
    if metrics is None:
        return
    if client.http.http_trace is None:  # what Client(http_trace=...) sets; the session is
        client.http.http_trace = discord_trace(metrics)  # made at login, from this
    metrics.watch_platform("discord", lambda: discord_problem(client))


class TelegramPolling:
    """What the last long poll (``getUpdates``) said: None before any, else its outcome."""

    def __init__(self) -> None:
        self.outcome: str | None = None


def _observed_request(metrics: BotMetrics, polling: TelegramPolling | None, **kwargs: Any) -> Any:
    from telegram.request import HTTPXRequest

    class ObservedRequest(HTTPXRequest):
        """python-telegram-bot's HTTPX networking, each request counted and timed."""

        async def do_request(self, url: str, method: str, *args: Any, **kw: Any) -> Any:
            endpoint = url.rsplit("/", 1)[-1]  # the Bot API method; the URL holds the token
            started = time.perf_counter()
            try:
                status, body = await super().do_request(url, method, *args, **kw)
            except Exception:
                self._count(endpoint, "error", started)
                raise
            self._count(endpoint, outcome_of(status), started)
            return status, body

        def _count(self, endpoint: str, outcome: str, started: float) -> None:
            metrics.api_call("telegram", endpoint, outcome, time.perf_counter() - started)
            if polling is not None and endpoint == "getUpdates":
                polling.outcome = outcome

    return ObservedRequest(**kwargs)


def telegram_problem(app: Any, polling: TelegramPolling) -> str | None:
    """None when Telegram updates come in (the updater runs and the last long poll did not
    fail; in webhook mode there is no poll), else why not."""
    updater = app.updater
    if updater is None or not updater.running:
        return "telegram: not receiving updates (the updater is not running)"
    if polling.outcome not in (None, "ok"):
        return f"telegram: the last getUpdates failed ({polling.outcome})"
    return None


def observed_application(
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any], service: object
) -> Application[Any, Any, Any, Any, Any, Any]:
    """``builder.build()`` with the API calls counted (python-telegram-bot's default
    networking, the same pool sizes) and ``/readyz`` told whether updates come in. The
    builder must not set its own request or request timeouts. For a service without
    metrics it is ``builder.build()``."""
    metrics = metrics_of(service)
    if metrics is None:
        return builder.build()
    polling = TelegramPolling()
    builder = builder.request(_observed_request(metrics, None, connection_pool_size=256))
    builder = builder.get_updates_request(
        _observed_request(metrics, polling, connection_pool_size=1)
    )
    app = builder.build()
    metrics.watch_platform("telegram", lambda: telegram_problem(app, polling))
    return app
