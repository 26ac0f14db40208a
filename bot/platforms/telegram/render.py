"""Turning a neutral ``Reply`` into Telegram messages: HTML text, photos and inline keyboards.

Pure functions (callback data comes from ``codes``); nothing here sends anything. Telegram's
limits shape the result: a caption holds 1,024 characters and a message 4,096 (counted in
UTF-16 code units), a keyboard at most 100 buttons and 8 a row, callback data at most 64 bytes.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.api import Button, File, Image, PlayerRef, Reply, Select
from bot.platforms.telegram.codes import CallbackCodes

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_BUTTONS = 100
MAX_ROW = 8

SELECTED_MARK = "✅ "


def utf16_len(text: str) -> int:
    """Length as Telegram counts it."""
    return len(text.encode("utf-16-le")) // 2


def to_html(text: str, mentions: tuple[PlayerRef, ...] = ()) -> str:
    """Escape ``text`` for parse_mode HTML, linking the first occurrence of each mentioned name.

    A mentioned player whose name is not in the text is appended, so they are still notified.
    """
    spans: list[tuple[int, int, PlayerRef]] = []
    missing: list[PlayerRef] = []
    for player in mentions:
        name = player.display_name or player.user_id
        start = text.find(name)
        while start >= 0 and any(s < start + len(name) and start < e for s, e, _ in spans):
            start = text.find(name, start + 1)
        if start < 0 or not player.user_id.isdigit():
            missing.append(player)
        else:
            spans.append((start, start + len(name), player))
    out: list[str] = []
    position = 0
    for start, end, player in sorted(spans, key=lambda span: span[0]):
        out.append(html.escape(text[position:start], quote=False))
        out.append(_link(player, text[start:end]))
        position = end
    out.append(html.escape(text[position:], quote=False))
    links = [_link(p, p.display_name or p.user_id) for p in missing if p.user_id.isdigit()]
    if links:
        out.append(("\n" if text else "") + " ".join(links))
    return "".join(out)


def _link(player: PlayerRef, label: str) -> str:
    return f'<a href="tg://user?id={player.user_id}">{html.escape(label, quote=False)}</a>'


def split_text(text: str, limit: int) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` UTF-16 units, at line ends where possible."""
    pieces: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while utf16_len(line) > limit:
            cut = limit
            while utf16_len(line[:cut]) > limit:
                cut -= 1
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:cut])
            line = line[cut:]
        if utf16_len(current + line) > limit:
            pieces.append(current)
            current = ""
        current += line
    if current or not pieces:
        pieces.append(current)
    return [piece.rstrip("\n") or "." for piece in pieces]


@dataclass(frozen=True, slots=True)
class Part:
    """One Telegram message of a reply: a text message, a photo with an optional caption, or
    an attached file."""

    kind: Literal["text", "photo", "document"]
    html: str | None
    image: Image | None = None
    markup: InlineKeyboardMarkup | None = None
    file: File | None = None  # a "document": sent with sendDocument, after the rest


def build_parts(reply: Reply, markup: InlineKeyboardMarkup | None) -> list[Part]:
    """The messages that show ``reply``: its images, its text, the keyboard on the last one."""
    text = reply.text.strip()
    parts: list[Part] = [Part("photo", None, image) for image in reply.images]
    if parts and text and utf16_len(text) <= MAX_CAPTION - 32:
        parts[-1] = Part("photo", to_html(text, reply.mentions), parts[-1].image)
    elif text or not parts:
        # Mentions go in the first piece only; a long text never loses its link to anyone.
        pieces = split_text(text or ".", MAX_TEXT - 256)
        parts += [
            Part("text", to_html(p, reply.mentions if i == 0 else ())) for i, p in enumerate(pieces)
        ]
    last = parts[-1]
    parts[-1] = Part(last.kind, last.html, last.image, markup)
    return parts + [Part("document", None, file=file) for file in reply.files]


def _rows(buttons: list[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _select_buttons(
    select: Select, codes: CallbackCodes, game_chat: str | None
) -> list[InlineKeyboardButton]:
    """A select as toggle buttons: a press sends the command with that one option's value.

    The game keeps the selection (``pick R5`` toggles R5), so no state lives in the buttons;
    chosen options are marked.
    """
    buttons = []
    for option in select.options:
        command = f"{select.command} {option.value}".strip()
        label = (SELECTED_MARK if option.selected else "") + option.label
        buttons.append(InlineKeyboardButton(label, callback_data=codes.encode(command, game_chat)))
    return buttons


def inline_button(
    button: Button, codes: CallbackCodes, game_chat: str | None
) -> InlineKeyboardButton:
    """A command button (callback data), a link, or a Mini App (``web_app``: Telegram opens
    the page inside the app and signs the user in; allowed in private chats only)."""
    if button.url is not None and button.web_app:
        return InlineKeyboardButton(button.label, web_app=WebAppInfo(button.url))
    if button.url is not None:
        return InlineKeyboardButton(button.label, url=button.url)
    data = codes.encode(button.command, game_chat, button.turn)
    return InlineKeyboardButton(button.label, callback_data=data)


def build_keyboard(
    selects: tuple[Select, ...],
    buttons: tuple[tuple[Button, ...], ...],
    codes: CallbackCodes,
    game_chat: str | None,
) -> InlineKeyboardMarkup | None:
    """Selects first (as rows of toggles), then the button rows, within Telegram's limits."""
    rows: list[list[InlineKeyboardButton]] = []
    button_rows = [[inline_button(b, codes, game_chat) for b in row] for row in buttons]
    room = MAX_BUTTONS - sum(len(row) for row in button_rows)
    for select in selects:
        toggles = _select_buttons(select, codes, game_chat)[: max(room, 0)]
        room -= len(toggles)
        short = all(len(t.text.removeprefix(SELECTED_MARK)) <= 4 for t in toggles)
        width = 6 if short else 4  # tiles six to a row, longer labels (Meld 12) four
        rows += _rows(toggles, width)
    for row in button_rows:
        rows += _rows(row, MAX_ROW)
    return InlineKeyboardMarkup(rows) if rows else None


# --- deep links --------------------------------------------------------------------------------


def start_payload(game_chat: str) -> str:
    """A /start payload naming a game chat (only A-Z a-z 0-9 _ - are allowed in payloads)."""
    return "g" + game_chat.replace("-", "m")


def parse_start_payload(payload: str) -> str | None:
    """The game chat in a /start payload, or None if it names none."""
    if not payload.startswith("g"):
        return None
    chat = payload[1:].replace("m", "-")
    return chat if chat.lstrip("-").isdigit() else None


def join_payload(game_chat: str) -> str:
    """A /start payload that takes a seat in a game chat's lobby (a notice's Join link)."""
    return "j" + game_chat.replace("-", "m")


def parse_join_payload(payload: str) -> str | None:
    """The game chat a Join link names, or None if the payload is not one."""
    if not payload.startswith("j"):
        return None
    chat = payload[1:].replace("m", "-")
    return chat if chat.lstrip("-").isdigit() else None


def notice_keyboard(
    buttons: tuple[tuple[Button, ...], ...], codes: CallbackCodes, game_chat: str, join_url: str
) -> InlineKeyboardMarkup:
    """A notice's buttons: Join as a deep link (``join_url``, which joins from the private
    chat), every other button a callback acting in ``game_chat`` (Stop notices)."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(b.label, url=join_url)
                if b.command == "join"
                else InlineKeyboardButton(
                    b.label, callback_data=codes.encode(b.command, game_chat, b.turn)
                )
                for b in row
            ]
            for row in buttons
        ]
    )
