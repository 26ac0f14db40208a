"""The fake Discord API's data: what Discord stores (users, messages with every version a
user saw, attachments, interaction tokens), the requests it recorded, and its JSON answers."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

JSON = "application/json"
EPHEMERAL = 64
LOADING = 128
ACK_DEADLINE_S = 3.0
UPLOAD_LIMIT = 8 * 1024 * 1024  # bytes per attached file, as the harness's interactions announce
PAYLOAD = web.RequestKey("payload", object)
FILES = web.RequestKey("files", list[tuple[str, bytes]])

_snowflakes = itertools.count(1_200_000_000_000_000_000)
_changes = itertools.count(1)  # the order in which messages were created or edited


def snowflake() -> int:
    return next(_snowflakes)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


def respond(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # content-type exactly application/json: discord.py treats "...; charset=utf-8" as text.
    body = json.dumps(data).encode()
    response = web.Response(status=status, body=body, headers=headers or {})
    response.headers["Content-Type"] = JSON
    return response


def error(status: int, code: int, message: str) -> web.Response:
    return respond({"code": code, "message": message}, status=status)


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
        }


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    description: str = ""

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": f"https://cdn.invalid/{self.id}/{self.filename}",
            "proxy_url": f"https://media.invalid/{self.id}/{self.filename}",
            "content_type": "image/png",
            "description": self.description,
        }


@dataclass
class FakeMessage:
    """A message as Discord stores it, plus who may see it.

    ``audience`` is ``("channel", channel_id)``, ``("dm", user_id)`` or ``("ephemeral", user_id)``.
    ``versions`` keeps every state the message was ever in (creation and each edit), because a
    user has seen all of them.
    """

    id: int
    channel_id: int
    audience: tuple[str, int]
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    deleted: bool = False
    edited: bool = False
    allowed_mentions: dict[str, Any] | None = None
    versions: list[dict[str, Any]] = field(default_factory=list)
    changed: int = 0  # when it was last created or edited, in the order of all changes

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def snapshot(self) -> None:
        self.changed = next(_changes)
        self.versions.append(
            {
                "content": self.content,
                "embeds": json.loads(json.dumps(self.embeds)),
                "attachments": [(a.filename, a.data) for a in self.attachments],
                "components": json.loads(json.dumps(self.components)),
            }
        )

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0,
            "content": self.content,
            "author": self.author.payload(),
            "embeds": self.embeds,
            "attachments": [a.payload() for a in self.attachments],
            "components": self.components,
            "flags": self.flags,
            "timestamp": now_iso(),
            "edited_timestamp": now_iso() if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
        }

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions and fields: all the words a user reads."""
        return _message_words(self.content, self.embeds)

    def all_texts(self) -> list[str]:
        return [_message_words(v["content"], v["embeds"]) for v in self.versions]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in _walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in _walk_components(self.components) if c.get("type") == 3]

    def button(self, label: str) -> dict[str, Any]:
        for button in self.buttons():
            if button.get("label") == label:
                return button
        labels = [b.get("label") for b in self.buttons()]
        raise LookupError(f"no button {label!r} on message {self.id}; buttons: {labels}")

    def row_count(self) -> int:
        return len(self.components)


def _message_words(content: str, embeds: list[dict[str, Any]]) -> str:
    parts = [content]
    for embed in embeds:
        parts.append(str(embed.get("title", "")))
        parts.append(str(embed.get("description", "")))
        for fld in embed.get("fields", []):
            parts.append(f"{fld.get('name', '')} {fld.get('value', '')}")
        parts.append(str(embed.get("footer", {}).get("text", "")))
    return "\n".join(p for p in parts if p)


def _walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components", []))


@dataclass
class FakeInteraction:
    """The fake's record of one interaction token: who, where, and how it was answered."""

    id: int
    token: str
    kind: int
    user_id: int
    channel_id: int
    created: float
    message_id: int | None = None  # the message a component sits on
    response_type: int | None = None
    original_id: int | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    late: bool = False
    acked_after: float | None = None  # seconds from creation to the callback
    errors: list[int] = field(default_factory=list)


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, bytes]]
    status: int
