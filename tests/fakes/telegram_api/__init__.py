"""A fake Telegram Bot API server on 127.0.0.1 for driving the real python-telegram-bot stack.

The real ``Application`` talks to it through its own HTTP request code (``base_url``): the fake
answers the methods our bot uses, keeps a small model of chats, users and messages (so edits in
place, deleted messages and callback answers can be checked), and records every call. Tests steer
the world through it: users who never started the bot or blocked it get 403 Forbidden, a method
can be made to fail once with 429 RetryAfter, and group messages, private messages (``/start``
deep links) and button presses are injected as updates that a real long-poll ``getUpdates``
delivers.

It checks what Telegram checks and our code could get wrong: callback data of at most 64 bytes,
at most 100 buttons, text and caption lengths, well-formed HTML, "message is not modified",
editing a message that does not exist, answering a callback query twice, files (animations and
documents: non-empty, at most 50 MB; a GIF becomes an ``animation``, anything else sent with
sendAnimation a plain ``document``; a GIF sent with sendPhoto keeps only its first frame, as
Telegram's photos do), and InputMedia read as
the Bot API server reads it (no ``media``, or an ``attach://`` name no file part carries: 400
"can't parse InputMedia: media not found"). It enforces Telegram's limits: 20 new messages and
20 edits a minute per group and 30 calls a second (429 with ``retry_after`` beyond), and
callback answers refused after 15 s. Faults on demand: 429s, 5xx answers, a call held
unanswered, a connection dropped unanswered, a chat that is gone ("chat not found"), a bot
kicked from its group (403 "bot was kicked from the supergroup chat").

A package in rooms: ``model`` (a call, an error answer, a stored message; Telegram's HTML and
file checks), ``methods`` (the Bot API methods, answered as the real server answers them) and
``server`` (``FakeTelegram``: the HTTP side, the world a test steers, Telegram's limits).
"""

from __future__ import annotations

from tests.fakes.telegram_api.model import ApiCall, ApiError, StoredMessage
from tests.fakes.telegram_api.server import FakeTelegram

__all__ = ["ApiCall", "ApiError", "FakeTelegram", "StoredMessage"]
