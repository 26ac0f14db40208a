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

from bot.cli import options
from bot.i18n import LANGUAGES

if TYPE_CHECKING:
    from bot.config import BotSettings
    from bot.manager import GameManager
    from bot.scheduler import Scheduler
    from bot.web import BoardServer
    from storage import Database

LEVELS = ("easy", "medium", "hard")


def configure(parser: argparse._ActionsContainer, *, with_db: bool = True) -> None:
    """The options of a terminal game; ``rummikub run`` adds them too (it has its own --db).

    Every value is checked while the command line is read (``bot.cli.options``), so a bad one
    stops the command before any game is opened, continued or cancelled."""
    parser.add_argument(
        "--players",
        type=options.seats,
        default=None,
        metavar="N",
        help="seats at the table, you included: {} to {} (default 3, or one more than --ai "
        "levels)".format(*options.SEATS),
    )
    parser.add_argument(
        "--ai",
        nargs="+",
        type=options.level(LEVELS),
        default=None,
        metavar="LEVEL",
        help="AI strength per AI seat, or one for all (easy, medium, hard); default medium",
    )
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="deal the same games every time"
    )
    parser.add_argument(
        "--timer",
        type=options.setting("timer"),
        default=None,
        metavar="S",
        help=f"seconds per turn, {options.span('timer')} (default TURN_SECONDS, 60)",
    )
    parser.add_argument(
        "--threshold",
        type=options.setting("threshold"),
        default=None,
        metavar="N",
        help=f"initial meld total, {options.span('threshold')} (default 30)",
    )
    parser.add_argument(
        "--games",
        type=options.setting("games"),
        default=None,
        metavar="N",
        help=f"games in the match, {options.span('games')} (default one per player)",
    )
    parser.add_argument("--hints", action="store_true", help="allow the hint command")
    parser.add_argument(
        "--name",
        type=options.name,
        default="Player",
        help=f"your name at the table (1 to {options.NAME_LENGTH} characters)",
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="the bot's language (default: LANGUAGE, en)"
    )
    parser.add_argument(
        "--save-png",
        type=Path,
        default=None,
        metavar="DIR",
        help="save every rendered image (table, rack, draft) into DIR, numbered on from the "
        "images already there",
    )
    if with_db:
        parser.add_argument(
            "--db",
            default=None,
            metavar="URL",
            help="database URL (default: DATABASE_URL or sqlite file rummikub.db)",
        )
    parser.add_argument(
        "--board",
        action="store_true",
        help="also serve your turn as a drag-and-drop web board on 127.0.0.1 and print its link",
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="cancel an unfinished terminal game and deal a new match",
    )
    parser.add_argument("--no-color", action="store_true", help="plain text without colours")


def seats_and_levels(args: argparse.Namespace) -> tuple[int, list[str]] | str:
    """The number of seats and each AI seat's level, or why the options do not fit."""
    given = list(args.ai or [])
    players = args.players if args.players is not None else (len(given) + 1 if given else 3)
    if not given:
        return players, ["medium"] * (players - 1)
    if len(given) == 1:
        return players, given * (players - 1)
    if len(given) != players - 1:
        need = players - 1
        return (
            f"{players} seats need {need} AI level{'' if need == 1 else 's'} (or one for all), "
            f"not {len(given)}: --ai {' '.join(given)}."
        )
    return players, given


def save_folder(folder: Path) -> str | None:
    """Make the ``--save-png`` folder; None when images can be saved there, else why not."""
    import os
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        reason = err.strerror or type(err).__name__
        if isinstance(err, FileExistsError) or (folder.exists() and not folder.is_dir()):
            reason = "it is a file, not a folder"
        return f"--save-png {folder}: cannot save images there ({reason.lower()})."
    if not os.access(folder, os.W_OK):  # pragma: no cover - a temporary file was written
        return f"--save-png {folder}: cannot save images there (permission denied)."
    return None


def main(args: argparse.Namespace) -> int:
    from bot.config import SettingsError, load_settings

    prog = f"rummikub {args.command or 'run'}"
    fitted = seats_and_levels(args)
    if isinstance(fitted, str):
        return options.say_error(prog, fitted)
    players, ai = fitted
    if args.save_png is not None:
        problem = save_folder(args.save_png)
        if problem is not None:
            return options.say_error(prog, problem)
    try:
        config = load_settings(database_url=args.db)
        shift = clock_shift()
    except (SettingsError, ValueError) as exc:
        return options.say_error(prog, str(exc))
    if not logging.getLogger().handlers:  # else a host process (a test) keeps its own
        _quiet_logging(config)
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
    return asyncio.run(_play(config, args, ai, settings, shift))


def _quiet_logging(config: BotSettings) -> None:
    """The screen is the game's: only warnings and errors are logged (to stderr), whatever
    LOG_LEVEL says (a .env copied from .env.example says INFO)."""
    from bot.logs import configure_logging

    levels = logging.getLevelNamesMapping()
    level = max(logging.WARNING, levels[config.log_level])
    http_level = max(level, levels[config.http_log_level])
    configure_logging(
        logging.getLevelName(level),
        http_level=logging.getLevelName(http_level),
        secrets=config.secrets(),
    )


CLOCK_SHIFT = "RUMMIKUB_TEST_CLOCK_SHIFT"


def clock_shift() -> float:
    """``RUMMIKUB_TEST_CLOCK_SHIFT`` (seconds, environment only; for tests): the terminal game's
    clock runs that far ahead of the wall clock, so a test can start a game as if that long
    had passed since it was last closed."""
    import math
    import os

    text = os.environ.get(CLOCK_SHIFT, "").strip()
    try:
        shift = float(text) if text else 0.0
    except ValueError:
        shift = math.nan
    if not math.isfinite(shift) or abs(shift) > 10 * 365 * 86400:
        raise ValueError(f"{CLOCK_SHIFT}={text!r} is not valid: use a number of seconds.")
    return shift


def _clock(shift: float) -> Scheduler:
    from bot.scheduler import AsyncioScheduler

    class ShiftedClock(AsyncioScheduler):
        """The event loop's timers on a clock ``shift`` seconds ahead of the wall clock."""

        def now(self) -> float:
            return super().now() + shift

    return ShiftedClock() if shift else AsyncioScheduler()


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # SIGHUP: the window closed


async def _play(
    config: BotSettings,
    args: argparse.Namespace,
    ai: list[str],
    settings: list[str],
    shift: float = 0.0,
) -> int:
    """The match in this terminal. Its turn clock runs only while the game is open: the game
    is loaded with the clock held (so ``--new`` cancels it before an overdue timeout or AI
    move plays out), the clock starts once the game is continued, and stops again, with the
    time left stored, when the player leaves (``quit``, Ctrl-D, Ctrl-C, a closed window)."""
    from bot.manager import GameManager
    from bot.platforms.terminal import TerminalAdapter, stdin_reader, terminal_channel
    from bot.presenter import Presenter
    from engine import Rules
    from storage import Database

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, stop.set)
    db = Database(config.database_url)
    await db.start()
    try:
        rng = random.Random(args.seed)
        ansi = sys.stdout.isatty() and not args.no_color
        presenter = Presenter(images=args.save_png is not None, ansi=ansi, theme=config.theme)
        manager = GameManager(
            db,
            scheduler=_clock(shift),
            presenter=presenter,
            rng=rng,
            default_rules=Rules(turn_seconds=config.turn_seconds),
            default_language=args.lang or config.language,
        )
        channel = terminal_channel()
        manager.hold_clock(channel)
        await manager.resume()
        board: BoardServer | None = None
        try:
            await manager.presenter.warm_up()
            terminal = TerminalAdapter(
                manager, name=args.name, save_png=args.save_png, started_new=args.new
            )
            if args.board:
                board = await _start_board(config, manager, db)
                links = board.links
                terminal.board_link = lambda: links.link(terminal.player, terminal.channel)
            if args.new and terminal.playing:
                # --new is the operator's yes to the question cancel asks about a game under
                # way (a lobby closes at once)
                await manager.handle(terminal.player, terminal.channel, "cancel", admin=True)
                if terminal.playing:
                    await terminal.send("cancel yes")
            await terminal.setup(ai, settings)
            await terminal.show_board_link()
            return await terminal.loop(await stdin_reader(), stop=stop)
        finally:
            try:
                if board is not None:
                    await board.stop()
                await manager.pause_clock(channel)
            finally:
                await manager.close()
    finally:
        await db.close()
        for number in STOP_SIGNALS:
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
