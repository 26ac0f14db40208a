"""The log handler of the bot's processes: secrets never pass, HTTP request loggers stay quiet."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from bot.logs import REDACTED, RedactSecrets, configure_logging

TOKEN = "7012345678:AAH-telegram-Secret_Token-0123456789xy"


@pytest.fixture
def restored() -> Iterator[None]:
    """configure_logging changes process-wide state; put it back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in ("httpx", "discord.http")}
    hooks = (sys.excepthook, threading.excepthook)
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name, old in levels.items():
            logging.getLogger(name).setLevel(old)
        sys.excepthook, threading.excepthook = hooks
        logging.captureWarnings(False)


def record(msg: str, *args: object, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise RuntimeError(f"POST https://api.telegram.org/bot{TOKEN}/getMe failed")
        except RuntimeError:
            exc_info = sys.exc_info()
    return logging.LogRecord("httpx", logging.INFO, __file__, 1, msg, args, exc_info)


def test_a_secret_is_redacted_in_message_arguments_and_traceback() -> None:
    redact = RedactSecrets([TOKEN, "discord.token.value"])
    formatter = logging.Formatter("%(message)s")
    for one in (
        record("HTTP Request: POST %s", f"http://h/bot{TOKEN}/getUpdates"),
        record(f"url {quote(TOKEN, safe='')} and discord.token.value"),
        record("request failed", exc=True),
    ):
        assert redact.filter(one)
        shown = formatter.format(one)
        assert TOKEN not in shown and quote(TOKEN, safe="") not in shown
        assert "discord.token.value" not in shown
        assert REDACTED in shown


def test_short_values_are_not_treated_as_secrets() -> None:
    redact = RedactSecrets(["abc", ""])
    one = record("abc is an ordinary word")
    redact.filter(one)
    assert one.getMessage() == "abc is an ordinary word"


def test_request_loggers_stay_at_warning_and_nothing_leaks_at_debug(
    restored: None, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging("DEBUG", secrets=[TOKEN])
    logging.getLogger("httpx").info("HTTP Request: POST http://h/bot%s/getUpdates", TOKEN)
    logging.getLogger("discord.http").debug("PUT /applications with token %s", TOKEN)
    logging.getLogger("bot.manager").debug("the token is %s", TOKEN)
    try:
        raise ValueError(f"bad token {TOKEN}")
    except ValueError:
        logging.getLogger("bot.manager").exception("failed")
    err = capsys.readouterr().err
    assert "HTTP Request" not in err and "PUT /applications" not in err
    assert "the token is <redacted>" in err
    assert "ValueError: bad token <redacted>" in err
    assert TOKEN not in err


def test_uncaught_exceptions_go_through_the_filter(
    restored: None, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging("INFO", secrets=[TOKEN])
    try:
        raise KeyError(TOKEN)
    except KeyError:
        sys.excepthook(*sys.exc_info())
    err = capsys.readouterr().err
    assert "uncaught exception" in err and "KeyError" in err
    assert TOKEN not in err
