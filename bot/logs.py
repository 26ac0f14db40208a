"""Logging for the bot's processes: one stderr handler, secrets redacted, quiet HTTP libraries.

Two layers keep tokens out of logs. The HTTP libraries' request loggers (httpx logs every URL
at INFO, and a Telegram URL holds the bot token) stay at ``HTTP_LOG_LEVEL``, WARNING unless the
operator asks for more. And :class:`RedactSecrets`, on the handler, replaces every secret in
every record that reaches it, whatever the logger or level: message, arguments, traceback and
stack. Uncaught exceptions and warnings go through the same handler.

Two formats: text (``time LEVEL logger: message``, the default) and, with ``LOG_FORMAT=json``,
one JSON object a line (python-json-logger): ``time``, ``level``, ``logger``, ``message``, and
``platform``, ``channel`` and ``game`` while a command or timer of a table runs
(:func:`log_context`), ``exc_info`` with a traceback; redacted the same way.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import TracebackType
from typing import Any, Literal
from urllib.parse import quote

from pythonjsonlogger.json import JsonFormatter

REDACTED = "<redacted>"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
HTTP_LOGGERS = (
    "httpx",
    "httpcore",
    "telegram.request",
    "discord.http",
    "discord.gateway",
    "aiohttp.access",
    "tornado.access",
)
"""Loggers that write request URLs, payloads or headers."""

LogFormat = Literal["text", "json"]
CONTEXT_FIELDS = ("platform", "channel", "game")
_context: ContextVar[dict[str, Any] | None] = ContextVar("rummikub_log_context", default=None)


@contextmanager
def log_context(**fields: Any) -> Iterator[None]:
    """Every record logged inside (in this task, and in threads it starts with
    ``asyncio.to_thread``) carries these fields (``platform``, ``channel``, ``game``; None
    values are left out): the JSON format shows them."""
    known = {k: v for k, v in fields.items() if v is not None}
    token = _context.set({**(_context.get() or {}), **known})
    try:
        yield
    finally:
        _context.reset(token)


class AddContext(logging.Filter):
    """Puts the fields of :func:`log_context` on each record (unless the record has them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in (_context.get() or {}).items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


def log_internal(logger: logging.Logger, message: str, *args: object) -> None:
    """Log the exception being handled as an internal error: at ERROR, with its traceback,
    marked so that the bot tests fail on it (tests/bot/conftest.py). Every catch-all that
    keeps the bot going after a bug says so through here."""
    logger.error(message, *args, exc_info=True, extra={"internal_error": True})


MIN_SECRET = 6  # shorter values would redact ordinary words; no real token is that short


class RedactSecrets(logging.Filter):
    """Replaces each secret (and its URL-encoded form) with ``<redacted>`` in a log record."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        forms: set[str] = set()
        for secret in secrets:
            if len(secret) >= MIN_SECRET:
                forms.update({secret, quote(secret, safe=""), quote(secret)})
        self.forms = sorted(forms, key=len, reverse=True)  # longest first

    def add(self, secret: str) -> None:
        """Redact ``secret`` too from now on (one the bot made or read after start-up)."""
        if len(secret) >= MIN_SECRET:
            forms = {*self.forms, secret, quote(secret, safe=""), quote(secret)}
            self.forms = sorted(forms, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for form in self.forms:
            if form in text:
                text = text.replace(form, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.forms:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep the raw parts, still redacted
            message = f"{record.msg!r} % {record.args!r}"
        record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def redact_also(secret: str) -> None:
    """Add ``secret`` to the redaction filter of every handler on the root logger."""
    for handler in logging.getLogger().handlers:
        for found in handler.filters:
            if isinstance(found, RedactSecrets):
                found.add(secret)


class JsonLines(JsonFormatter):
    """One JSON object a line: ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``,
    the context fields, ``exc_info``; a traceback formatted here is redacted too."""

    def __init__(self, redact: RedactSecrets) -> None:
        super().__init__(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",
            json_ensure_ascii=False,
        )
        self.redact = redact

    def formatException(self, ei: Any) -> str:
        return self.redact.redact(str(super().formatException(ei)))

    def formatStack(self, stack_info: str) -> str:
        return self.redact.redact(str(super().formatStack(stack_info)))

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        rest = {key: log_data.pop(key) for key in list(log_data) if key != "time"}
        log_data.update(rest)  # the time first, as in the text format

    def format(self, record: logging.LogRecord) -> str:
        return self.redact.redact(super().format(record))


def configure_logging(
    level: str = "INFO",
    *,
    http_level: str = "WARNING",
    secrets: Iterable[str] = (),
    log_format: LogFormat = "text",
) -> RedactSecrets:
    """Send every log record to stderr through the redaction filter, as text lines or (with
    ``log_format="json"``) JSON lines; returns the filter."""
    redact = RedactSecrets(secrets)
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonLines(redact))
    else:
        handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(AddContext())
    handler.addFilter(redact)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in HTTP_LOGGERS:
        logging.getLogger(name).setLevel(http_level)
    logging.captureWarnings(True)
    _route_uncaught_exceptions()
    return redact


def _route_uncaught_exceptions() -> None:
    """Uncaught exceptions are logged (so redacted) instead of printed raw to stderr."""
    crash = logging.getLogger("rummikub.crash")

    def on_exception(
        kind: type[BaseException], value: BaseException, tb: TracebackType | None
    ) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        crash.critical("uncaught exception", exc_info=(kind, value, tb))

    def on_thread_exception(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit or args.exc_value is None:
            return
        crash.critical(
            "uncaught exception in thread %s",
            args.thread.name if args.thread else "?",
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        )

    sys.excepthook = on_exception
    threading.excepthook = on_thread_exception
