"""``rummikub run`` as an operator runs it: a real process, real signals, real logs.

The bot process talks to the fake Telegram Bot API and the fake Discord API and gateway, which
run in a process of their own (tests/fakes/serve.py). A command is in flight when the signal
arrives (the fake holds the bot's reply until the bot has logged the signal): it must still be
answered, the handled update confirmed, the gateway closed with 1000, exit status 0, and no
token anywhere in what the process printed, even at LOG_LEVEL=DEBUG.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[1]
TELEGRAM_TOKEN = "7012345678:AAH-telegram-Secret_Token-0123456789xy"
DISCORD_TOKEN = "MTIzNDU2Nzg5MDEy.discord-Secret.Token_0123456789abcdefghij"
WAIT = 90.0  # generous: the machine is shared; nothing here measures time


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith(("_TOKEN", "_URL", "_SECRET")) and k not in ("LOG_LEVEL", "THEME")
    }
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


class Output:
    """Lines a child process writes, collected in a thread as they come."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put("")

    def next_line(self, timeout: float = WAIT) -> str:
        line = self.lines.get(timeout=timeout)
        self.seen.append(line)
        return line

    def until(self, test: Any, what: str, timeout: float = WAIT) -> str:
        """Read lines until one passes ``test``; that line."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.next_line(max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line == "":
                break
            if test(line):
                return line
        raise AssertionError(f"never saw {what}; got:\n{''.join(self.seen)[-3000:]}")

    def rest(self) -> str:
        self._thread.join(WAIT)
        while True:
            try:
                self.seen.append(self.lines.get_nowait())
            except queue.Empty:
                return "".join(self.seen)


class Fakes:
    """tests/fakes/serve.py in its own process: JSON commands in, JSON events out."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.fakes.serve", "--telegram-token", TELEGRAM_TOKEN],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
            env=_env(),
        )
        assert self.process.stdout is not None
        self.out = Output(self.process.stdout)
        self.events: list[dict[str, Any]] = []
        self.urls = self.expect("ready")

    def send(self, cmd: str, **fields: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"cmd": cmd, **fields}) + "\n")
        self.process.stdin.flush()

    def expect(self, event: str) -> dict[str, Any]:
        for seen in self.events:
            if seen["event"] == event:
                self.events.remove(seen)
                return seen
        while True:
            line = self.out.until(lambda s: s.strip(), f"event {event}")
            found = json.loads(line)
            if found["event"] == event:
                return dict(found)
            self.events.append(found)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_bot(tmp_path: Path, fakes: Fakes, **extra: str) -> tuple[subprocess.Popen[str], Output]:
    settings = {
        "TELEGRAM_TOKEN": TELEGRAM_TOKEN,
        "TELEGRAM_API_BASE_URL": fakes.urls["telegram"],
        "DISCORD_TOKEN": DISCORD_TOKEN,
        "DISCORD_API_BASE_URL": fakes.urls["discord"],
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        "RENDER_IMAGES": "false",
        "LOG_LEVEL": "DEBUG",
    }
    env = _env(**(settings | extra))
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert process.stdout is not None
    return process, Output(process.stdout)


def secret_forms() -> list[str]:
    forms = []
    for token in (TELEGRAM_TOKEN, DISCORD_TOKEN):
        forms += [token, quote(token, safe=""), token.split(":")[-1]]
    return forms


@pytest.mark.parametrize(
    ("stop_signal", "http_log_level"),
    [(signal.SIGTERM, "WARNING"), (signal.SIGINT, "DEBUG")],
    ids=["SIGTERM", "SIGINT-with-http-debug-logs"],
)
def test_a_signal_stops_the_bot_cleanly_and_no_token_reaches_the_log(
    tmp_path: Path, fakes: Fakes, stop_signal: signal.Signals, http_log_level: str
) -> None:
    bot, log = start_bot(tmp_path, fakes, HTTP_LOG_LEVEL=http_log_level)
    try:
        fakes.expect("telegram_polling")
        fakes.expect("discord_identified")
        fakes.send("discord_slash", path="help")
        assert "Commands:" in " ".join(fakes.expect("discord_answered")["texts"])

        # a command in flight on each platform when the signal comes
        fakes.send("hold", method="sendMessage")
        fakes.send("telegram_group", text="/help")
        fakes.expect("held")  # the bot is in the middle of answering /help
        fakes.send("discord_hold", prefix="/interactions/")
        fakes.send("discord_slash", path="rules")
        fakes.expect("discord_held")  # ... and of acknowledging /rummikub rules
        bot.send_signal(stop_signal)
        log.until(lambda line: f"{stop_signal.name} received" in line, "the signal in the log")
        fakes.send("release")
        assert "Official" in " ".join(fakes.expect("discord_answered")["texts"])
        code = bot.wait(WAIT)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    output = log.rest()

    assert code == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    leaked = [form for form in secret_forms() if form in output]
    assert not leaked, f"tokens in the log: {leaked}"
    if http_log_level == "DEBUG":  # the request loggers spoke, and were redacted
        assert "HTTP Request: POST" in output
        assert "/bot<redacted>/getUpdates" in output

    fakes.send("report")
    report = fakes.expect("report")
    answers = [c for c in report["telegram_calls"] if c["method"] == "sendMessage"]
    assert answers and all(c["status"] == 200 for c in answers), answers
    assert "Commands:" in (answers[0]["text"] or "")
    # the handled update was confirmed before the updater stopped: no repeat after a restart
    assert report["telegram_confirmed"] > report["telegram_last_update"]
    assert report["discord_close_codes"] == [1000]


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_ends_the_terminal_game_cleanly_and_keeps_it(
    tmp_path: Path, stop_signal: signal.Signals
) -> None:
    env = _env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'term.db'}", RENDER_IMAGES="false")
    game = subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert game.stdout is not None
    out = Output(game.stdout)
    try:
        out.until(lambda line: "is dealt" in line, "the deal")
        game.send_signal(stop_signal)
        code = game.wait(WAIT)
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
    output = out.rest()
    assert code == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    assert "your game is saved" in output

    again = subprocess.run(
        [sys.executable, "-m", "bot", "play"],
        input="",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=WAIT,
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert "Continuing your unfinished game." in again.stdout
