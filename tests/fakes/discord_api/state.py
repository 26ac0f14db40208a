"""The fake Discord API's state: users, messages, interaction tokens, what each user may see,
and the test controls (refused DMs, forbidden channels, an answer of 429 once); the routes
read and change it under ``lock`` (the server runs in its own thread)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from tests.fakes.discord_api.models import (
    ACK_DEADLINE_S,
    UPLOAD_LIMIT,
    FakeAttachment,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    RecordedRequest,
    snowflake,
)


@dataclass(frozen=True)
class Fault:
    """An error the fake answers to the next request of ``method`` on a path starting with
    ``prefix``; status 0 closes the connection without an answer."""

    method: str
    prefix: str
    status: int
    code: int = 0
    message: str = ""


class FakeState:
    """What the fake Discord knows; ``FakeDiscord`` serves it over HTTP."""

    def __init__(self, *, app_name: str = "Rummikub") -> None:
        self.bot_user = FakeUser(snowflake(), app_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(snowflake(), "owner")
        self.lock = threading.RLock()
        self.requests: list[RecordedRequest] = []
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[str, FakeInteraction] = {}
        self.dm_channels: dict[int, int] = {}  # dm channel id -> user id
        self.users: dict[int, FakeUser] = {}
        self.refuse_dm: set[int] = set()
        self.rate_limit_once: list[tuple[str, str]] = []  # (method, path prefix)
        self.faults: list[Fault] = []  # errors to answer (fail_next, drop_next)
        self.forbidden_channels: set[int] = set()
        self.synced_commands: list[dict[str, Any]] = []
        self.guild_channels: dict[int, list[int]] = {}  # guild id -> its text channels
        self.upload_limit = UPLOAD_LIMIT
        self.sent_429 = 0
        self.ack_deadline = ACK_DEADLINE_S

    # --- test controls -------------------------------------------------------------------

    def add_user(self, name: str, user_id: int | None = None) -> FakeUser:
        user = FakeUser(user_id or snowflake(), name)
        with self.lock:
            self.users[user.id] = user
        return user

    def register_interaction(
        self, kind: int, user_id: int, channel_id: int, message_id: int | None = None
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            id=snowflake(),
            token=f"tok{snowflake()}",
            kind=kind,
            user_id=user_id,
            channel_id=channel_id,
            created=time.monotonic(),
            message_id=message_id,
        )
        with self.lock:
            self.interactions[interaction.token] = interaction
        return interaction

    def post_as(self, user: FakeUser, channel_id: int, content: str) -> FakeMessage:
        """Someone else writes in the channel (so the bot's messages move up its history)."""
        message = FakeMessage(snowflake(), channel_id, ("channel", channel_id), user, content)
        message.snapshot()
        with self.lock:
            self.messages[message.id] = message
        return message

    def rate_limit_next(self, method: str, path_prefix: str, times: int = 1) -> None:
        """Answer the next ``times`` matching requests with a 429 (retry after 50 ms);
        discord.py waits out five in a row, then gives up."""
        with self.lock:
            self.rate_limit_once.extend([(method, path_prefix)] * times)

    def fail_next(
        self, method: str, path_prefix: str, status: int, code: int = 0, message: str = ""
    ) -> None:
        """Answer the next matching request with an error as Discord words it: a 5xx
        (``code`` 0), or a 4xx with its JSON error code (403 50001 Missing Access once the
        bot was removed, 404 10003 Unknown Channel, 404 10008 Unknown Message)."""
        with self.lock:
            self.faults.append(Fault(method, path_prefix, status, code, message))

    def drop_next(self, method: str, path_prefix: str) -> None:
        """Close the connection of the next matching request without an answer (what a
        client sees of a timeout or a network failure)."""
        self.fail_next(method, path_prefix, 0)

    def take_fault(self, method: str, path: str) -> Fault | None:
        """The first fault planned for this request, removed (one request each)."""
        with self.lock:
            for index, fault in enumerate(self.faults):
                if fault.method == method and path.startswith(fault.prefix):
                    return self.faults.pop(index)
        return None

    def visible_to(self, user_id: int, channel_ids: set[int]) -> list[FakeMessage]:
        """Every message this user could have seen (deleted ones too: they were seen)."""
        with self.lock:
            out = []
            for message in self.messages.values():
                where, target = message.audience
                if (where == "channel" and target in channel_ids) or (
                    where in ("dm", "ephemeral") and target == user_id
                ):
                    out.append(message)
            return out

    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        with self.lock:
            return [
                m
                for m in self.messages.values()
                if m.audience == ("channel", channel_id) and not m.deleted
            ]

    def dms_to(self, user_id: int) -> list[FakeMessage]:
        with self.lock:
            return [m for m in self.messages.values() if m.audience == ("dm", user_id)]

    def ephemerals_to(self, user_id: int) -> list[FakeMessage]:
        with self.lock:
            return [
                m
                for m in self.messages.values()
                if m.audience == ("ephemeral", user_id) and not m.deleted
            ]

    def requests_matching(self, method: str, fragment: str) -> list[RecordedRequest]:
        with self.lock:
            return [r for r in self.requests if r.method == method and fragment in r.path]

    # --- message bodies, for the routes --------------------------------------------------

    def new_message(
        self,
        channel_id: int,
        audience: tuple[str, int],
        payload: dict[str, Any] | None,
        files: list[tuple[str, bytes]],
        flags: int = 0,
    ) -> FakeMessage:
        message = FakeMessage(
            id=snowflake(),
            channel_id=channel_id,
            audience=audience,
            author=self.bot_user,
            flags=flags,
        )
        self.apply(message, payload or {}, files, creating=True)
        self.messages[message.id] = message
        return message

    def apply(
        self,
        message: FakeMessage,
        payload: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        creating: bool = False,
    ) -> None:
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = payload["embeds"] or []
        if "components" in payload:
            message.components = payload["components"] or []
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        uploaded = dict(files)
        if "attachments" in payload:
            kept = {a.id: a for a in message.attachments}
            new: list[FakeAttachment] = []
            for entry in payload["attachments"]:
                key = f"files[{entry['id']}]"
                if key in uploaded:
                    new.append(
                        FakeAttachment(
                            snowflake(),
                            entry.get("filename", key),
                            uploaded[key],
                            entry.get("description", ""),
                        )
                    )
                elif int(entry["id"]) in kept:
                    new.append(kept[int(entry["id"])])
            message.attachments = new
        elif files:
            message.attachments = [FakeAttachment(snowflake(), name, data) for name, data in files]
        if "flags" in payload and creating:
            message.flags |= int(payload["flags"] or 0)
        if not creating:
            message.edited = True
        message.snapshot()
