"""The real ``rummikub play --board`` in a process of its own, and the system Chromium."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.test_operating import ROOT, WAIT, Output, _env

CHROMIUM = "/usr/bin/chromium"
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium (bash scripts/install-chromium)"
)
LINK = re.compile(r"(http://127\.0\.0\.1:[0-9]+/board#t=[A-Za-z0-9_.-]+)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def launch_browser(playwright: Any) -> Any:
    """Debian's Chromium, headless (``--no-sandbox``: CI runs as root)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


class TerminalBoard:
    """``rummikub play --board`` on a database, stdin held open for typed commands."""

    def __init__(self, db: Path, *, port: int, lang: str | None = None, **env: str) -> None:
        self.db = db
        self.port = port
        self.lang = lang
        self.env = env
        self.process: subprocess.Popen[str] | None = None
        self.out: Output | None = None
        self.link = ""

    def start(self) -> TerminalBoard:
        args = [sys.executable, "-m", "bot", "play", "--board"]
        if self.lang:
            args += ["--lang", self.lang]
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=self.db.parent,
            env=_env(
                DATABASE_URL=f"sqlite+aiosqlite:///{self.db}",
                WEB_PORT=str(self.port),
                RENDER_IMAGES="false",
                **self.env,
            ),
        )
        assert self.process.stdout is not None
        self.out = Output(self.process.stdout)
        found = LINK.search(self.out.until(lambda line: bool(LINK.search(line)), "the board link"))
        assert found is not None
        self.link = found.group(1)
        return self

    def type(self, line: str) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, test: Callable[[str], bool], what: str, timeout: float = WAIT) -> str:
        assert self.out is not None
        return self.out.until(test, what, timeout)

    def stop(self, how: signal.Signals | None = None) -> str:
        """End the process (``quit``, or a signal) and return everything it printed."""
        assert self.process is not None and self.out is not None
        if self.process.poll() is None:
            if how is None:
                self.type("quit")
            else:
                self.process.send_signal(how)
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.out.rest()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class BotRun:
    """``rummikub run`` in a process of its own, its output collected; the board's server
    listens on ``port`` and people reach it at ``WEB_BASE_URL`` (``public``)."""

    def __init__(self, folder: Path, public: str, **env: str) -> None:
        self.port = free_port()
        self.db = folder / "bot.db"
        self.public = public
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=folder,
            env=_env(
                DATABASE_URL=f"sqlite+aiosqlite:///{self.db}",
                RENDER_IMAGES="false",
                WEB_BASE_URL=public,
                WEB_PORT=str(self.port),
                **env,
            ),
        )
        assert self.process.stdout is not None
        self.out = Output(self.process.stdout)

    @property
    def local(self) -> str:
        """What the reverse proxy in front of it would forward to."""
        return f"http://127.0.0.1:{self.port}"

    def through_proxy(self, url: str) -> str:
        return url.replace(self.public, self.local)

    async def stop(self) -> str:
        """SIGTERM, and everything it printed (waited for off the event loop: the fakes in
        this process must go on answering while the bot stops)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                await asyncio.to_thread(self.process.wait, WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return await asyncio.to_thread(self.out.rest)

    def stored_key(self) -> str:
        """The link-signing key the bot made for itself and stored."""
        with sqlite3.connect(self.db) as stored:
            (key,) = stored.execute("SELECT value FROM server_secret").fetchone()
        return str(key)


def wait_until(test: Callable[[], bool], what: str, timeout: float = 10.0) -> float:
    """Poll ``test`` until it holds; the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if test():
            return time.monotonic() - started
        time.sleep(0.02)
    raise AssertionError(f"never saw {what} within {timeout} s")


__all__ = [
    "ROOT",
    "BotRun",
    "TerminalBoard",
    "free_port",
    "launch_browser",
    "needs_chromium",
    "wait_until",
]
