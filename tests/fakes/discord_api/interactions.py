"""The fake's routes for interactions: the callback that acknowledges one (within 3 s, once:
10062, 40060 otherwise) and the webhook of its token (followups, editing and deleting the
original), with the rule that the first followup after a "thinking" defer takes the defer's
visibility."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from tests.fakes.discord_api.models import EPHEMERAL, LOADING, FakeInteraction, error, respond
from tests.fakes.discord_api.state import FakeState


def callback(
    state: FakeState, token: str, payload: dict[str, Any], files: list[tuple[str, bytes]]
) -> web.Response:
    interaction = state.interactions.get(token)
    if interaction is None:
        return error(404, 10062, "Unknown interaction")
    if time.monotonic() - interaction.created > state.ack_deadline:
        interaction.late = True
        interaction.errors.append(10062)
        return error(404, 10062, "Unknown interaction")
    if interaction.response_type is None:
        interaction.acked_after = time.monotonic() - interaction.created
    if interaction.response_type is not None:
        interaction.errors.append(40060)
        return error(400, 40060, "Interaction has already been acknowledged.")
    kind = int(payload["type"])
    data = payload.get("data") or {}
    interaction.response_type = kind
    info: dict[str, Any] = {"id": str(interaction.id), "type": interaction.kind}
    resource: dict[str, Any] | None = None
    if kind == 4:
        flags = int(data.get("flags") or 0)
        audience = audience_of(state, interaction, flags)
        message = state.new_message(interaction.channel_id, audience, data, files, flags)
        interaction.original_id = message.id
        info |= {
            "response_message_id": str(message.id),
            "response_message_ephemeral": message.ephemeral,
        }
        resource = {"type": 4, "message": message.payload()}
    elif kind == 5:
        flags = int(data.get("flags") or 0) | LOADING
        audience = audience_of(state, interaction, flags)
        message = state.new_message(interaction.channel_id, audience, {}, [], flags)
        interaction.original_id = message.id
        info |= {
            "response_message_id": str(message.id),
            "response_message_loading": True,
            "response_message_ephemeral": message.ephemeral,
        }
    elif kind in (6, 7):
        if interaction.message_id is None:
            interaction.errors.append(40004)
            return error(400, 50035, "Invalid Form Body: not a component interaction")
        interaction.original_id = interaction.message_id
        if kind == 7:
            message = state.messages[interaction.message_id]
            state.apply(message, data, files)
            resource = {"type": 7, "message": message.payload()}
    elif kind == 8:
        interaction.autocomplete_choices = list(data.get("choices", []))
    else:
        return error(400, 50035, f"the fake does not model callback type {kind}")
    body: dict[str, Any] = {"interaction": info}
    if resource is not None:
        body["resource"] = resource
    return respond(body)


def audience_of(state: FakeState, interaction: FakeInteraction, flags: int) -> tuple[str, int]:
    if flags & EPHEMERAL:
        return ("ephemeral", interaction.user_id)
    if interaction.channel_id in state.dm_channels:
        return ("dm", state.dm_channels[interaction.channel_id])
    return ("channel", interaction.channel_id)


def webhook(
    state: FakeState,
    method: str,
    token: str,
    rest: list[str],
    payload: Any,
    files: list[tuple[str, bytes]],
) -> web.Response:
    interaction = state.interactions.get(token)
    if interaction is None:
        return error(404, 10015, "Unknown Webhook")
    if interaction.response_type is None:
        return error(404, 10015, "Unknown Webhook")
    if method == "POST" and not rest:
        original = state.messages.get(interaction.original_id or 0)
        if (
            interaction.response_type == 5
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord turns the loading message into the first followup; it keeps the
            # defer's visibility whatever flags the followup asked for.
            original.flags &= ~LOADING
            state.apply(original, payload or {}, files)
            return respond(original.payload())
        flags = int((payload or {}).get("flags") or 0)
        audience = audience_of(state, interaction, flags)
        message = state.new_message(interaction.channel_id, audience, payload, files, flags)
        return respond(message.payload())
    if len(rest) == 2 and rest[0] == "messages":
        key = rest[1]
        mid = interaction.original_id if key == "@original" else int(key)
        found = state.messages.get(mid or 0)
        if found is None or found.deleted:
            return error(404, 10008, "Unknown Message")
        if method == "GET":
            return respond(found.payload())
        if method == "PATCH":
            found.flags &= ~LOADING
            state.apply(found, payload or {}, files)
            return respond(found.payload())
        if method == "DELETE":
            found.deleted = True
            return web.Response(status=204)
    return error(405, 0, "405: Method Not Allowed")
