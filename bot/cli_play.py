"""``rummikub play``: a full match against AI seats in this terminal."""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
from pathlib import Path

from bot.i18n import LANGUAGES

LEVELS = ("easy", "medium", "hard")


def configure(parser: argparse._ActionsContainer, *, with_db: bool = True) -> None:
    """The options of a terminal game; ``rummikub run`` adds them too (it has its own --db)."""
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats at the table, you included (default 3, or one more than --ai levels)",
    )
    parser.add_argument(
        "--ai",
        nargs="+",
        default=None,
        metavar="LEVEL",
        help="AI strength per AI seat (easy, medium, hard); default medium",
    )
    parser.add_argument("--seed", type=int, default=None, help="deal the same games every time")
    parser.add_argument("--timer", type=int, default=None, help="seconds per turn (default 60)")
    parser.add_argument("--threshold", type=int, default=None, help="initial meld total (30)")
    parser.add_argument("--games", type=int, default=None, help="games in the match")
    parser.add_argument("--hints", action="store_true", help="allow the hint command")
    parser.add_argument("--name", default="Player", help="your name at the table")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="the bot's language (default: LANGUAGE, en)"
    )
    parser.add_argument(
        "--save-png",
        type=Path,
        default=None,
        metavar="DIR",
        help="save every rendered image (table, rack, draft) into DIR",
    )
    if with_db:
        parser.add_argument(
            "--db",
            default=None,
            help="database URL (default: DATABASE_URL or sqlite file rummikub.db)",
        )
    parser.add_argument("--new", action="store_true", help="cancel an unfinished terminal game")
    parser.add_argument("--no-color", action="store_true", help="plain text without colours")


def main(args: argparse.Namespace) -> int:
    ai = [level.lower() for level in (args.ai or [])]
    players = args.players if args.players is not None else (len(ai) + 1 if ai else 3)
    if not 2 <= players <= 6:
        print(f"A table has 2 to 6 seats, not {players}.")
        return 2
    if not ai:
        ai = ["medium"] * (players - 1)
    elif len(ai) == 1:
        ai = ai * (players - 1)
    if len(ai) != players - 1:
        print(f"{players} seats need {players - 1} AI levels (or one for all), got {len(ai)}.")
        return 2
    for level in ai:
        if level not in LEVELS:
            print(f"AI strength is one of {', '.join(LEVELS)}, not {level!r}.")
            return 2
    if players > 4:
        args.edition = "xp"
    settings = []
    if args.timer is not None:
        settings.append(f"timer={args.timer}")
    if args.threshold is not None:
        settings.append(f"threshold={args.threshold}")
    if args.games is not None:
        settings.append(f"games={args.games}")
    if args.hints:
        settings.append("hints=on")
    if getattr(args, "edition", None):
        settings.append(f"edition={args.edition}")
    if args.save_png is not None:
        args.save_png.mkdir(parents=True, exist_ok=True)
    _keep_the_screen()
    return asyncio.run(_play(args, ai, settings))


def _keep_the_screen() -> None:
    """The terminal is the game's screen: log only warnings and errors there (to stderr),
    unless LOG_LEVEL asks for more. Set before storage (and alembic) is imported."""
    from bot.config import BotSettings

    config = BotSettings()
    level = config.log_level if "log_level" in config.model_fields_set else "WARNING"
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)


async def _play(args: argparse.Namespace, ai: list[str], settings: list[str]) -> int:
    from bot.config import BotSettings
    from bot.manager import GameManager
    from bot.presenter import Presenter
    from bot.terminal import TerminalAdapter, stdin_reader
    from engine import Rules
    from storage import Database

    config = BotSettings()
    db = Database(args.db or config.database_url)
    await db.start()
    try:
        rng = random.Random(args.seed)
        ansi = sys.stdout.isatty() and not args.no_color
        presenter = Presenter(images=args.save_png is not None, ansi=ansi, theme=config.theme)
        manager = GameManager(
            db,
            presenter=presenter,
            rng=rng,
            default_rules=Rules(turn_seconds=config.turn_seconds),
            default_language=args.lang or config.language,
        )
        await manager.resume()
        await manager.presenter.warm_up()
        terminal = TerminalAdapter(manager, name=args.name, save_png=args.save_png)
        if args.new and terminal.playing:
            await terminal.send("cancel")
        await terminal.setup(ai, settings)
        code = await terminal.loop(await stdin_reader())
        await manager.close()
        return code
    finally:
        await db.close()
