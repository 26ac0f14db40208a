"""What an operator sees of a running bot: health, readiness and Prometheus metrics.

``metrics`` holds one registry per game manager (``GameManager.metrics``) and the few hooks the
manager calls; ``platforms`` counts the Discord and Telegram API calls and tells whether each
is connected; ``server`` serves ``/healthz``, ``/readyz`` and ``/metrics`` on the bot's event
loop. :func:`start_operations` is what ``rummikub run`` calls.
"""

from __future__ import annotations

from bot.operations.metrics import BotMetrics, counted_command, in_timer_context, metrics_of
from bot.operations.server import OperationsServer

__all__ = [
    "BotMetrics",
    "OperationsServer",
    "counted_command",
    "in_timer_context",
    "metrics_of",
    "start_operations",
]


async def start_operations(
    metrics: BotMetrics, *, listen: str, port: int | None, platforms: list[str]
) -> OperationsServer | None:
    """Start the endpoint when a port is set (None otherwise); readiness waits for each of
    ``platforms`` (those with a token)."""
    for platform in platforms:
        metrics.expect(platform)
    if port is None:
        return None
    server = OperationsServer(metrics, listen=listen, port=port)
    await server.start()
    return server
