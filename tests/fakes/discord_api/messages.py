"""The fake's routes for channels and messages: a channel's history, posting, editing and
deleting messages (in guild channels and DMs), opening a DM, a guild's channel list; with the
answers Discord gives (403 50007 to a user who refuses DMs, 403 50013 without permission,
404 10008 for an unknown message)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.fakes.discord_api.models import FakeUser, error, respond, snowflake
from tests.fakes.discord_api.state import FakeState


def list_guild_channels(state: FakeState, guild_id: int) -> web.StreamResponse:
    with state.lock:
        if guild_id not in state.guild_channels:
            return error(404, 10004, "Unknown Guild")
        ids = list(state.guild_channels[guild_id])
    return respond(
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


def open_dm(state: FakeState, user_id: int) -> web.Response:
    channel_id = next((c for c, u in state.dm_channels.items() if u == user_id), None)
    if channel_id is None:
        channel_id = snowflake()
        state.dm_channels[channel_id] = user_id
    user = state.users.get(user_id) or FakeUser(user_id, f"user{user_id}")
    return respond(
        {
            "id": str(channel_id),
            "type": 1,
            "recipients": [user.payload()],
            "last_message_id": None,
        }
    )


def channel_messages(
    state: FakeState,
    method: str,
    channel_id: int,
    rest: list[str],
    payload: Any,
    files: list[tuple[str, bytes]],
    query: dict[str, str] | None = None,
) -> web.Response:
    if method == "GET" and not rest:  # history, newest first
        if channel_id in state.forbidden_channels:
            return error(403, 50001, "Missing Access")
        limit = int((query or {}).get("limit", 50))
        found = [
            m
            for m in state.messages.values()
            if m.channel_id == channel_id and m.audience[0] != "ephemeral" and not m.deleted
        ]
        found.sort(key=lambda m: m.id, reverse=True)
        return respond([m.payload() for m in found[:limit]])
    if channel_id in state.dm_channels:
        audience: tuple[str, int] = ("dm", state.dm_channels[channel_id])
    else:
        audience = ("channel", channel_id)
    if method == "POST" and not rest:
        if audience[0] == "dm" and audience[1] in state.refuse_dm:
            return error(403, 50007, "Cannot send messages to this user")
        if channel_id in state.forbidden_channels:
            return error(403, 50013, "Missing Permissions")
        message = state.new_message(channel_id, audience, payload, files)
        return respond(message.payload())
    if not rest:
        return error(405, 0, "405: Method Not Allowed")
    message_or_none = state.messages.get(int(rest[0]))
    if message_or_none is None or message_or_none.deleted:
        return error(404, 10008, "Unknown Message")
    message = message_or_none
    if method == "GET":
        return respond(message.payload())
    if method == "PATCH":
        if channel_id in state.forbidden_channels:
            return error(403, 50013, "Missing Permissions")
        state.apply(message, payload or {}, files)
        return respond(message.payload())
    if method == "DELETE":
        message.deleted = True
        return web.Response(status=204)
    return error(405, 0, "405: Method Not Allowed")
