"""The ``rummikub`` command: one entry point, one module per subcommand.

Each subcommand module defines ``configure(parser)`` and ``main(args) -> int`` and imports its
heavy dependencies inside ``main`` so that ``rummikub --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from bot.cli.options import OneLineParser

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("bot.cli.run", "start every configured platform (terminal game if none)"),
    "play": ("bot.cli.play", "play a match against AI seats in this terminal"),
    "solve": ("bot.cli.solve", "find the best play for a table and a rack"),
    "simulate": ("bot.cli.simulate", "seeded AI-vs-AI games with statistics"),
    "render": ("bot.cli.render", "draw a table, rack or snapshot to a PNG"),
    "replay": ("bot.cli.replay", "play a game record back turn by turn"),
    "export": ("bot.cli.export", "write the record of a channel's finished game"),
    "db": ("bot.cli.db", "database maintenance (upgrade)"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="rummikub",
        description="Official-rules Rummikub for Discord, Telegram and terminal. With no "
        "subcommand (options only, or nothing) it is rummikub run.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:  # an optional part left out of a slim install
            if err.name != module_name:
                raise
            continue
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.configure(sub_parser)
        sub_parser.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0].startswith("-") and words[0] not in ("-h", "--help")):
        words = ["run", *words]  # ``rummikub --timer 300`` is ``rummikub run --timer 300``
    args = parser.parse_args(words)
    try:
        result: int = args._module.main(args)
    except KeyboardInterrupt:  # Ctrl+C before a command installed its own handler
        print("Interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader (head, less) stopped early: nothing more to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - Python flushes stdout at exit
        return 0
    return result


if __name__ == "__main__":
    sys.exit(main())
