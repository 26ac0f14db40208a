"""A fake Discord REST API on 127.0.0.1 and a harness that drives the real discord.py client.

The fake (``server.FakeDiscord``) runs an aiohttp server in its own thread and keeps a model
of what each user can see (``state``): channel messages, DMs and ephemeral interaction
messages, with every edit. It models the Discord behaviours our adapter must respect:

- an interaction must be acknowledged within 3 s (later: 404, code 10062) and only once (40060);
- after a "thinking" defer, the first followup replaces the loading message and takes the
  defer's visibility (the rack privacy trap);
- a user with closed DMs makes a DM send fail with 403, code 50007;
- a route can be made to answer 429 (with ``Via``, as Discord's real answers carry it), 403
  Missing Permissions, any error Discord gives (``fail_next``: 5xx, 403 50001, 404 10003 or
  10008), or to drop the connection (``drop_next``).

The harness (``harness.DiscordHarness``) logs a real bot in against the fake and feeds it
interactions as the gateway would: slash commands with options, autocomplete, button clicks
and select choices. Rooms: models (the data), state, messages and interactions (the routes),
server, harness.
"""

from __future__ import annotations

from tests.fakes.discord_api.harness import DiscordHarness, Member, Outcome
from tests.fakes.discord_api.models import (
    FakeAttachment,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    RecordedRequest,
    respond,
    snowflake,
)
from tests.fakes.discord_api.server import FakeDiscord, running_fake, wait_for

__all__ = [
    "DiscordHarness",
    "FakeAttachment",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeUser",
    "Member",
    "Outcome",
    "RecordedRequest",
    "respond",
    "running_fake",
    "snowflake",
    "wait_for",
]
