"""``rummikub replay FILE``: play a game record back in the terminal, turn by turn.

Every turn is checked by the rules again as it is shown; a record that was changed stops at the
turn the rules refuse, with one line naming it. In a terminal it waits for Enter after each turn
(``q`` then Enter stops); ``--delay SECONDS`` plays on by itself, and when the input is not a
terminal (a pipe, a test) it plays straight through. The record format: docs/records.md.

Examples::

    rummikub replay game.rkr
    rummikub replay game.rkr --delay 0.5 --racks
    rummikub replay game.rkr --check
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.i18n import LANGUAGES

if TYPE_CHECKING:
    from engine.record import GameRecord


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="a game record (docs/records.md)")
    parser.add_argument(
        "--delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="show the next turn after this many seconds instead of waiting for Enter",
    )
    parser.add_argument(
        "--check", action="store_true", help="only check the record and print a summary"
    )
    parser.add_argument("--racks", action="store_true", help="also show every player's rack")
    parser.add_argument("--ansi", action="store_true", help="terminal colours")
    parser.add_argument("--emoji", action="store_true", help="colour squares before tiles")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the words")


def read_record_file(path: Path) -> str:
    """The file's text; raises OSError or UnicodeDecodeError with the path in the message."""
    data = path.read_bytes()
    if len(data) > 5_000_000:
        raise ValueError(f"{path} is {len(data) // 1024} KB; a game record is far smaller.")
    return data.decode("utf-8")


def main(args: argparse.Namespace) -> int:
    from engine.record import RecordError, parse_record

    try:
        record = parse_record(read_record_file(args.file))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        message = err if isinstance(err, RecordError | ValueError) else f"cannot read it: {err}"
        print(f"rummikub replay: {args.file}: {message}", file=sys.stderr)
        return 2
    if args.delay is not None and not 0 <= args.delay <= 60:
        print("rummikub replay: --delay is between 0 and 60 seconds.", file=sys.stderr)
        return 2
    try:
        return play_back(record, args, sys.stdin, sys.stdout)
    except RecordError as err:
        print(f"rummikub replay: {args.file}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader (head, less) stopped early
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - nothing more is written
        return 0


def play_back(record: GameRecord, args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Show the deal and each turn (or with ``--check`` only a summary); returns 0."""
    from bot.i18n import translator
    from engine.record import replay_record
    from engine.tiles import sort_tiles, tiles_text
    from renderers import standings_text, table_text
    from renderers.animation import turn_view
    from renderers.views import game_end_view

    tr = translator(args.lang)
    names = record.names
    ai = [i for i, s in enumerate(record.seats) if s.ai is not None]
    total = len(record.turns)
    interactive = args.delay is None and not args.check and stdin.isatty()
    if interactive:
        print("Enter: next turn, q then Enter: stop.", file=out)
    game = None
    for step in replay_record(record):
        game = step.game
        if args.check:
            continue
        if step.turn is None:
            seats = ", ".join(f"{s.name} (AI {s.ai})" if s.ai else s.name for s in record.seats)
            print(f"== The deal: {seats}; seed {record.seed}", file=out)
        else:
            print(f"\n== {step.turn.number}/{total}", file=out)
        view = turn_view(game, names, ai)
        print(table_text(view, emoji=args.emoji, ansi=args.ansi, translate=tr), file=out)
        if args.racks:
            for seat, player in enumerate(game.players):
                rack = tiles_text(sort_tiles(player.rack)) or "-"
                print(f"  {record.seat_label(seat)}: {rack}", file=out)
        out.flush()
        last = (step.turn.number if step.turn is not None else 0) == total
        if last:
            continue  # the replay still checks the Result after the last turn
        if interactive:
            answer = stdin.readline()
            if answer == "" or answer.strip().lower() in ("q", "quit"):
                return 0
        elif args.delay:
            time.sleep(args.delay)
    assert game is not None
    if args.check:
        state = f"it ends: {game.result.to_text()}" if game.result is not None else "it is not over"
        print(f"{args.file}: {total} turns, every one legal; {state}.", file=out)
        return 0
    if game.finished:
        print("", file=out)
        print(standings_text(game_end_view(game, names), translate=tr), file=out)
    return 0
