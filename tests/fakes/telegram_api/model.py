"""What the fake Bot API deals in: a call the bot made, an error answer, a message as the fake
holds it, and the checks Telegram makes on text (its HTML subset) and on uploaded files."""

from __future__ import annotations

import io
import struct
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

MAX_CALLBACK_DATA = 64
MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_BUTTONS = 100
MAX_ROW = 8
ALLOWED_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre"}


SERVER_ERRORS = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


class ApiError(Exception):
    """An error answer of the Bot API: HTTP status, description, optional parameters."""

    def __init__(self, status: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


@dataclass
class ApiCall:
    """One request the bot made, with its decoded parameters, uploaded files and the answer."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes]
    filenames: dict[str, str] = field(default_factory=dict)
    status: int = 200
    result: Any = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return int(value) if value is not None else None

    @property
    def shown_text(self) -> str:
        """Every piece of text this call shows: text, caption, media caption, button labels."""
        pieces = [str(self.params.get(key, "")) for key in ("text", "caption")]
        media = self.params.get("media")
        if isinstance(media, dict):
            pieces.append(str(media.get("caption", "")))
        markup = self.params.get("reply_markup")
        if isinstance(markup, dict):
            for row in markup.get("inline_keyboard", []):
                pieces += [str(button.get("text", "")) for button in row]
        return "\n".join(piece for piece in pieces if piece)


@dataclass
class StoredMessage:
    """A message as the fake currently holds it (edits change it in place)."""

    chat_id: int
    message_id: int
    from_id: int
    text: str | None = None  # visible text or caption (HTML already parsed)
    raw: str | None = None  # text or caption as sent
    photo: bytes | None = None
    animation: bytes | None = None  # a GIF sent with sendAnimation (kept as uploaded)
    document: bytes | None = None  # a file sent with sendDocument (or sendAnimation)
    file_name: str | None = None  # the document's or animation's name as uploaded
    reply_markup: dict[str, Any] | None = None
    edits: int = 0
    deleted: bool = False
    date: int = field(default_factory=lambda: int(time.time()))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]

    def button(self, label: str) -> dict[str, Any]:
        """The button labelled ``label``, else the first whose label contains it (or KeyError)."""
        for button in self.buttons:
            if label == button["text"]:
                return button
        for button in self.buttons:
            if label in button["text"]:
                return button
        labels = [button["text"] for button in self.buttons]
        raise KeyError(f"no button {label!r} on message {self.message_id}: {labels}")


class _HtmlText(HTMLParser):
    """Parses Telegram's HTML subset, keeping the visible text and noting malformed markup."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[str] = []
        self.problem: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.problem = f"unsupported start tag {tag!r}"
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problem = f"unexpected end tag {tag!r}"
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible_text(raw: str, parse_mode: str | None) -> str:
    """What a user sees for ``raw`` in ``parse_mode``; raises ApiError on bad HTML."""
    if (parse_mode or "").upper() != "HTML":
        return raw
    parser = _HtmlText()
    parser.feed(raw)
    parser.close()
    if parser.problem is None and parser.stack:
        parser.problem = f"unclosed tag {parser.stack[-1]!r}"
    if parser.problem is not None:
        raise ApiError(400, f"Bad Request: can't parse entities: {parser.problem}")
    return "".join(parser.parts)


MAX_UPLOAD = 50 * 1024 * 1024  # bots may upload files up to 50 MB


def gif_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a GIF, or None when the upload is not one."""
    if data[:6] not in (b"GIF87a", b"GIF89a") or len(data) < 10:
        return None
    width, height = struct.unpack("<HH", data[6:10])
    return int(width), int(height)


def still_frame(gif: bytes) -> bytes:
    """The first frame of a GIF as a PNG (what a photo of an animation keeps)."""
    from PIL import Image

    out = io.BytesIO()
    with Image.open(io.BytesIO(gif)) as image:
        image.convert("RGB").save(out, "PNG")
    return out.getvalue()


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG (ApiError if the upload is not a PNG)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)
