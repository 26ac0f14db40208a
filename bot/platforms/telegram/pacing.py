"""Keeping under Telegram's limits and getting through its faults: the bot's one request gate.

Every Bot API call except ``getUpdates`` passes through :class:`Pacer` (PTB's rate-limiter
hook). It does three things:

- paces: at most ``group_per_minute`` new messages and as many edits per group in any minute
  (Telegram allows 20 of each), and ``overall_per_second`` calls to chats in any second (30);
  sliding windows in which a call counts from when it is sent until a window's length after
  its answer, so however the network delays or bunches requests, the server never sees more
  (a token bucket's refill, or counting at send time only, can go over);
- waits out 429 Too Many Requests for the ``retry_after`` Telegram gives, for that chat only
  (other chats go on);
- retries 5xx answers and network failures with exponential backoff, for the calls where a
  second try cannot show something twice: edits, deletes and reads always; new messages when
  the server answered with an error or the connection failed before an answer could be read as
  sent (a read time-out on a send is not retried: Telegram may have posted it).

Nothing here knows about games; the adapter only chooses the numbers.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
import warnings
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)

JSON = bool | dict[str, Any] | list[dict[str, Any]]

# Calls that answer a person at once: no pacing behind messages, at most one quick retry.
PROMPT = frozenset({"answerCallbackQuery"})
NOT_MESSAGES = frozenset({"sendChatAction"})


@dataclass(frozen=True, slots=True)
class Limits:
    """How fast the bot may talk. ``minute`` and ``second`` are the window lengths (tests
    shorten them together with the fake server's)."""

    group_per_minute: int = 19  # Telegram: 20 new messages a minute per group
    group_edits_per_minute: int = 19  # and about as many edits
    overall_per_second: int = 29  # Telegram: about 30 calls a second in all
    minute: float = 60.0
    second: float = 1.0
    retries: int = 5  # for 5xx and network errors
    backoff: float = 0.5  # first pause; doubled each time
    max_backoff: float = 8.0
    retry_after_retries: int = 5  # for 429


def kind_of(endpoint: str) -> str:
    """ "send" for a call that posts a new message, "edit" for one that changes one, else ""."""
    if endpoint.startswith("send") and endpoint not in NOT_MESSAGES:
        return "send"
    if endpoint.startswith("edit"):
        return "edit"
    return ""


def retryable(endpoint: str, error: NetworkError) -> bool:
    """Whether a failed call may be made again without a risk of showing something twice."""
    if isinstance(error, BadRequest):
        return False
    if kind_of(endpoint) == "send":
        return not isinstance(error, TimedOut)
    return True


def retry_seconds(error: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22 warns that the attribute's type will change
        warnings.simplefilter("ignore")
        value: Any = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class _Slot:
    """One call's place in a window: taken when it is sent, counted until ``length`` after
    its answer came back (the server may have seen it any time in between)."""

    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = math.inf

    def release(self, clock: Callable[[], float]) -> None:
        self.done = clock()


class _Window:
    """At most ``limit`` calls in any ``length`` seconds, as the server counts them."""

    def __init__(self, limit: int, length: float) -> None:
        self.limit, self.length = max(1, limit), length
        self.slots: list[_Slot] = []
        self.lock = asyncio.Lock()

    async def take(self, clock: Callable[[], float]) -> _Slot:
        async with self.lock:  # first come, first served
            while True:
                now = clock()
                self.slots = [s for s in self.slots if now - s.done < self.length]
                if len(self.slots) < self.limit:
                    slot = _Slot()
                    self.slots.append(slot)
                    return slot
                soonest = min(s.done for s in self.slots) + self.length - now
                await asyncio.sleep(min(soonest, 0.05))  # calls in flight may end sooner

    @property
    def idle(self) -> bool:
        return not self.slots and not self.lock.locked()


class Pacer(BaseRateLimiter[int]):
    """PTB rate limiter: pacing per group and overall, 429 waits, retries with backoff."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._clock = time.monotonic
        self._overall = _Window(self.limits.overall_per_second, self.limits.second)
        self._groups: dict[tuple[int, str], _Window] = {}
        self._paused: dict[int | None, float] = {}  # chat -> until (429 retry_after)

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    def _window(self, chat: int, kind: str) -> _Window:
        for key in [k for k, w in self._groups.items() if w.idle and len(self._groups) > 512]:
            del self._groups[key]
        window = self._groups.get((chat, kind))
        if window is None:
            limit = (
                self.limits.group_per_minute
                if kind == "send"
                else self.limits.group_edits_per_minute
            )
            window = self._groups[(chat, kind)] = _Window(limit, self.limits.minute)
        return window

    async def _wait_turn(self, chat: int | None, kind: str) -> list[_Slot]:
        until = self._paused.get(chat, 0.0)
        while until > self._clock():
            await asyncio.sleep(until - self._clock())
            until = self._paused.get(chat, 0.0)
        slots = []
        if chat is not None and chat < 0 and kind:
            slots.append(await self._window(chat, kind).take(self._clock))
        if chat is not None:
            slots.append(await self._overall.take(self._clock))
        return slots

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSON]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> JSON:
        chat = _chat_id(data.get("chat_id"))
        kind = kind_of(endpoint)
        limits = self.limits
        failures = throttled = 0
        while True:
            slots = await self._wait_turn(chat, kind) if endpoint not in PROMPT else []
            pause = 0.0
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as error:
                throttled += 1
                if throttled > limits.retry_after_retries or endpoint in PROMPT:
                    raise
                seconds = retry_seconds(error) + 0.05
                log.info("Telegram: %s to %s throttled, waiting %.1f s", endpoint, chat, seconds)
                self._paused[chat] = max(self._paused.get(chat, 0.0), self._clock() + seconds)
            except NetworkError as error:
                failures += 1
                allowed = 1 if endpoint in PROMPT else limits.retries
                if failures > allowed or not retryable(endpoint, error):
                    raise
                pause = min(limits.backoff * 2 ** (failures - 1), limits.max_backoff)
                log.warning(
                    "Telegram: %s to %s failed (%s); trying again in %.1f s",
                    endpoint,
                    chat,
                    error,
                    pause,
                )
            finally:
                for slot in slots:
                    slot.release(self._clock)
            await asyncio.sleep(pause)  # (a 429 waits in _wait_turn, for its chat only)


def _chat_id(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
