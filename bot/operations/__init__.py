"""What an operator sees of a running bot: health, readiness and Prometheus metrics.

``metrics`` holds one registry per game manager (``GameManager.metrics``) and the few hooks the
manager's parts call; ``platforms`` counts the Discord and Telegram API calls and tells whether
each is connected; ``server`` serves ``/healthz``, ``/readyz`` and ``/metrics`` on the bot's
event loop. :func:`start_operations` is what ``rummikub run`` calls.
"""

from __future__ import annotations

from bot.operations.metrics import (
    BotMetrics,
    metrics_of,
    note_conflict,
    note_refusal,
    note_told,
    note_turn,
    timed_solver,
)
from bot.operations.server import OperationsServer

__all__ = [
    "BotMetrics",
    "OperationsServer",
    "metrics_of",
    "note_conflict",
    "note_refusal",
    "note_told",
    "note_turn",
    "start_operations",
    "timed_solver",
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
