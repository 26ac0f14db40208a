"""``rummikub run``: every platform with a token, in one event loop; else the terminal game.

SIGINT (Ctrl+C) and SIGTERM (``docker stop``, systemd) stop the bot the same way: no new
updates or interactions are taken, the commands being handled finish, the Telegram updater
confirms what it handled and stops, the Discord gateway closes, then the game manager's timers
and the database. The exit status is 0.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.cli import options

if TYPE_CHECKING:
    from bot.config import BotSettings
    from bot.manager import GameManager
    from bot.web import BoardServer
    from storage import Database

log = logging.getLogger("rummikub")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", default=None, metavar="URL", help="database URL (overrides DATABASE_URL)"
    )
    parser.add_argument(
        "--discord-guild",
        type=options.positive("--discord-guild"),
        action="append",
        default=[],
        metavar="ID",
        help="register the slash commands on this server only (instant; repeatable)",
    )
    parser.add_argument(
        "--shard-count",
        type=options.positive("--shard-count"),
        default=None,
        metavar="N",
        help="Discord shards in total (several processes share PostgreSQL)",
    )
    parser.add_argument(
        "--shard-ids",
        type=options.shard_ids,
        default=None,
        metavar="0,1",
        help="the Discord shards this process runs",
    )
    from bot.cli import play as cli_play

    terminal = parser.add_argument_group("the terminal game (when no token is set)")
    cli_play.configure(terminal, with_db=False)


def _stopped_early(number: int, _frame: object) -> None:
    """A stop signal before the event loop took over: nothing is open yet, so just exit."""
    print(f"{signal.Signals(number).name} during start-up: stopped.", file=sys.stderr)
    raise SystemExit(0)


def main(args: argparse.Namespace) -> int:
    for number in STOP_SIGNALS:  # until _serve installs the real handlers
        signal.signal(number, _stopped_early)
    from bot.config import SettingsError, load_settings
    from bot.logs import configure_logging

    try:
        config = load_settings(database_url=args.db)
    except SettingsError as exc:
        return options.say_error("rummikub run", str(exc))
    shard_ids: list[int] | None = args.shard_ids
    if not config.discord_token and not config.telegram_token:
        from bot.cli import play as cli_play

        print("No DISCORD_TOKEN or TELEGRAM_TOKEN set: starting a terminal game against AI seats.")
        return cli_play.main(args)  # it sets up its own (quiet) logging
    configure_logging(
        config.log_level,
        http_level=config.http_log_level,
        secrets=config.secrets(),
        log_format=config.log_format,
    )
    return asyncio.run(_serve(config, args, shard_ids))


async def _serve(config: BotSettings, args: argparse.Namespace, shard_ids: list[int] | None) -> int:
    from bot.manager import GameManager
    from bot.operations import OperationsServer, start_operations
    from bot.presenter import Presenter
    from engine import Rules
    from storage import Database

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_signal(number: signal.Signals) -> None:
        if stop.is_set():
            log.info("%s again: still finishing the commands in progress", number.name)
            return
        log.info("%s received: finishing the commands in progress, then stopping", number.name)
        stop.set()

    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, on_signal, number)

    db = Database(config.database_url)
    await db.start()
    manager = GameManager(
        db,
        presenter=Presenter(images=config.render_images, theme=config.theme),
        default_rules=Rules(turn_seconds=config.turn_seconds),
        default_language=config.language,
        outbox_lease=config.outbox_lease_seconds,
    )
    tasks: list[asyncio.Task[None]] = []
    board: BoardServer | None = None
    operations: OperationsServer | None = None
    try:
        operations = await start_operations(
            manager.metrics,
            listen=config.metrics_listen or "127.0.0.1",
            port=config.metrics_port,
            platforms=[name for name in ("discord", "telegram") if config.secret(f"{name}_token")],
        )
        # What is loaded by now (modules, libraries) lives as long as the process: frozen, no
        # full garbage collection walks it again, so none holds the event loop long (about
        # 70 ms for these 130,000 objects on a busy machine; issue 26).
        gc.freeze()
        await manager.resume()
        await manager.presenter.warm_up()
        board = await _start_board(config, manager, db)
        links = board.links if board is not None else None
        discord_token = config.secret("discord_token")
        if discord_token:
            import discord

            from bot.platforms.discord.client import run_discord

            if config.discord_api_base_url:
                discord.http.Route.BASE = config.discord_api_base_url.rstrip("/")
            runner = run_discord(
                manager,
                discord_token,
                guild_ids=args.discord_guild,
                shard_count=args.shard_count,
                shard_ids=shard_ids,
                stop=stop,
                board=links,
            )
            tasks.append(asyncio.create_task(runner, name="discord"))
        telegram_token = config.secret("telegram_token")
        if telegram_token:
            from bot.platforms.telegram import TelegramConfig, run_telegram

            telegram = TelegramConfig(
                token=telegram_token,
                api_base_url=config.telegram_api_base_url,
                webhook_url=config.telegram_webhook_url,
                webhook_listen=config.telegram_webhook_listen,
                webhook_port=config.telegram_webhook_port,
                webhook_secret=config.secret("telegram_webhook_secret"),
            )
            runner = run_telegram(manager, telegram_token, config=telegram, stop=stop, board=links)
            tasks.append(asyncio.create_task(runner, name="telegram"))
        waiting = asyncio.create_task(stop.wait())
        await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        stop.set()  # one platform ended on its own (an error): stop the others too
        if board is not None:  # open boards let go; their last actions reach the chat
            await board.stop()
            board = None
        results = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        stop.set()
        for task in tasks:
            if not task.done():
                task.cancel()
        if board is not None:
            await board.stop()
        if operations is not None:
            await operations.stop()
        await manager.close()
        await db.close()
        for number in STOP_SIGNALS:
            loop.remove_signal_handler(number)
    failures = [r for r in results if isinstance(r, BaseException)]
    for failure in failures:
        log.error("a platform stopped with an error", exc_info=failure)
    log.info("stopped")
    return 1 if failures else 0


async def _start_board(
    config: BotSettings, manager: GameManager, db: Database
) -> BoardServer | None:
    """The web board, when ``WEB_BASE_URL`` says where people reach it (else nothing)."""
    if not config.web_base_url:
        return None
    from bot.web import BoardConfig, start_board

    web = BoardConfig(
        base_url=config.web_base_url,
        listen=config.web_listen,
        port=config.web_port,
        link_seconds=config.web_link_seconds,
        init_data_seconds=config.web_init_data_seconds,
        telegram_token=config.secret("telegram_token"),
    )
    return await start_board(manager, db, web, config.secret("web_secret"))
