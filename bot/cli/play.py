"""``rummikub play``: a full match against AI seats in this terminal."""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.i18n import LANGUAGES

if TYPE_CHECKING:
    from bot.config import BotSettings
    from bot.manager import GameManager
    from bot.web import BoardServer
    from storage import Database

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
    parser.add_argument(
        "--board",
        action="store_true",
        help="also serve your turn as a drag-and-drop web board on 127.0.0.1 and print its link",
    )
    parser.add_argument("--new", action="store_true", help="cancel an unfinished terminal game")
    parser.add_argument("--no-color", action="store_true", help="plain text without colours")


def main(args: argparse.Namespace) -> int:
    from bot.config import SettingsError, load_settings

    try:
        config = load_settings(database_url=args.db)
    except SettingsError as exc:
        print(f"rummikub play: {exc}", file=sys.stderr)
        return 2
    if not logging.getLogger().handlers:  # not already set up by ``rummikub run``
        from bot.logs import configure_logging

        chosen = "log_level" in config.model_fields_set  # else keep the game screen quiet
        configure_logging(
            config.log_level if chosen else "WARNING",
            http_level=config.http_log_level,
            secrets=config.secrets(),
        )
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
    return asyncio.run(_play(config, args, ai, settings))


async def _play(
    config: BotSettings, args: argparse.Namespace, ai: list[str], settings: list[str]
) -> int:
    from bot.manager import GameManager
    from bot.platforms.terminal import TerminalAdapter, stdin_reader
    from bot.presenter import Presenter
    from engine import Rules
    from storage import Database

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    db = Database(config.database_url)
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
        board = await _start_board(config, manager, db) if args.board else None
        terminal = TerminalAdapter(manager, name=args.name, save_png=args.save_png)
        if board is not None:
            links = board.links
            terminal.board_link = lambda: links.link(terminal.player, terminal.channel)
        try:
            if args.new and terminal.playing:
                await terminal.send("cancel")
            await terminal.setup(ai, settings)
            terminal.show_board_link()
            code = await terminal.loop(await stdin_reader(), stop=stop)
        finally:
            if board is not None:
                await board.stop()
        await manager.close()
        return code
    finally:
        await db.close()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)


async def _start_board(config: BotSettings, manager: GameManager, db: Database) -> BoardServer:
    """The web board of the terminal game, on this computer only (``WEB_PORT``; 0: any)."""
    from bot.web import BoardConfig, start_board

    local = BoardConfig(
        base_url=None,
        listen="127.0.0.1",
        port=config.web_port,
        link_seconds=config.web_link_seconds,
    )
    return await start_board(manager, db, local, config.secret("web_secret"))
