"""Internal errors: an exception that reached a catch-all is a bug, logged and counted."""

from __future__ import annotations

import logging

from bot.logs import log_internal


class Faults:
    """Logs an exception that reached a catch-all (with its traceback, marked so that the bot
    tests fail on it) and counts it; every part of the manager reports through one."""

    def __init__(self, log: logging.Logger) -> None:
        self.log = log
        self.count = 0

    def __call__(self, message: str, *args: object) -> None:
        self.count += 1
        log_internal(self.log, message, *args)
