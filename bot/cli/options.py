"""What every ``rummikub`` subcommand shares about its options: a parser whose errors are one
line, and option types that check a value's range while the command line is read, so a bad
value stops the command (exit status 2) before it opens a database or touches a game.

The game settings' ranges are the engine's (``engine.Rules.with_setting``), the same check a
``start timer=...`` in a chat gets, so the two can never disagree.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import NoReturn

SETTING_OPTIONS = {
    "timer": "the turn timer is {lo} to {hi} seconds (7 days)",
    "threshold": "the initial meld total is {lo} to {hi} points",
    "games": "a match is {lo} to {hi} games",
}
"""Each terminal-game option that is a game setting, and how its range is said."""

SEATS = (2, 6)
NAME_LENGTH = 32  # what Discord allows for a display name


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that says what is wrong in one line (``rummikub play: --timer 5
    is not valid: ...``) instead of the usage block; ``--help`` still prints the usage."""

    def error(self, message: str) -> NoReturn:
        said = re.sub(r"^argument ([^:]+): (?=\1 )", "", message)  # ours name the option
        said = re.sub(r"^argument ", "", said)
        self.exit(2, f"{self.prog}: {said}\n")


def _refuse(option: str, text: str, reason: str) -> argparse.ArgumentTypeError:
    shown = text if re.fullmatch(r"-?[0-9]{1,12}", text) else repr(text)
    return argparse.ArgumentTypeError(f"{option} {shown} is not valid: {reason}.")


def setting(name: str) -> Callable[[str], int]:
    """The type of ``--timer``, ``--threshold`` and ``--games``: a whole number in the range
    the engine allows for that setting."""
    option = f"--{name}"

    def convert(text: str) -> int:
        from engine import Rules, RummikubError

        try:
            Rules().with_setting(name, text)
        except RummikubError:
            lo, hi = limits(name)
            raise _refuse(option, text, SETTING_OPTIONS[name].format(lo=lo, hi=hi)) from None
        return int(text)

    convert.__name__ = name  # what argparse names in its own messages
    return convert


def limits(name: str) -> tuple[int, int]:
    """The engine's lowest and highest value of a setting (``timer``: 10 and 604800), read
    from the sentence it refuses a value far below every range with."""
    from engine import Rules, RummikubError

    try:
        Rules().with_setting(name, "-1000000000")
    except RummikubError as err:
        lo, hi = err.msg.params["lo"], err.msg.params["hi"]
        assert isinstance(lo, int) and isinstance(hi, int)
        return lo, hi
    raise AssertionError(f"the engine has no lower limit for {name}")  # pragma: no cover


def span(name: str) -> str:
    """``10 to 604800``: a setting's range, for help texts."""
    lo, hi = limits(name)
    return f"{lo} to {hi}"


def seats(text: str) -> int:
    """``--players``: 2 to 6 seats, you included."""
    lo, hi = SEATS
    if not re.fullmatch(r"[0-9]{1,2}", text.strip()) or not lo <= int(text) <= hi:
        raise _refuse("--players", text, f"a table has {lo} to {hi} seats, you included")
    return int(text)


def level(levels: tuple[str, ...]) -> Callable[[str], str]:
    """``--ai``: one of ``levels``, in any case."""

    def convert(text: str) -> str:
        if text.strip().lower() not in levels:
            choices = ", ".join(levels[:-1]) + " or " + levels[-1]
            raise _refuse("--ai", text, f"use {choices}")
        return text.strip().lower()

    convert.__name__ = "level"
    return convert


def name(text: str) -> str:
    """``--name``: your name at the table, one line of 1 to ``NAME_LENGTH`` characters."""
    cleaned = text.strip()
    if not cleaned or len(cleaned) > NAME_LENGTH or not cleaned.isprintable():
        raise _refuse("--name", text, f"use 1 to {NAME_LENGTH} characters on one line")
    return cleaned


def positive(option: str) -> Callable[[str], int]:
    """A whole number of at least 1 (``--shard-count``)."""

    def convert(text: str) -> int:
        if not re.fullmatch(r"[0-9]{1,9}", text.strip()) or int(text) < 1:
            raise _refuse(option, text, "use a whole number of at least 1")
        return int(text)

    convert.__name__ = option
    return convert


def shard_ids(text: str) -> list[int]:
    """``--shard-ids 0,1``: the Discord shards this process runs."""
    parts = [p.strip() for p in text.split(",")]
    if not all(re.fullmatch(r"[0-9]{1,4}", p) for p in parts):
        raise _refuse("--shard-ids", text, "use shard numbers separated by commas, like 0,1")
    return [int(p) for p in parts]


def say_error(prog: str, message: str) -> int:
    """Print one line about options that do not fit together; returns the exit status 2."""
    print(f"{prog}: {message}", file=sys.stderr)
    return 2
