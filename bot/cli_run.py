"""``rummikub run``: every platform with a token, in one event loop; else the terminal game."""

from __future__ import annotations

import argparse
import asyncio
import logging


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None, help="database URL (overrides DATABASE_URL)")
    parser.add_argument(
        "--discord-guild",
        type=int,
        action="append",
        default=[],
        metavar="ID",
        help="register the slash commands on this server only (instant; repeatable)",
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        default=None,
        help="Discord shards in total (several processes share PostgreSQL)",
    )
    parser.add_argument(
        "--shard-ids", default=None, metavar="0,1", help="the Discord shards this process runs"
    )
    from bot import cli_play

    terminal = parser.add_argument_group("the terminal game (when no token is set)")
    cli_play.configure(terminal, with_db=False)


def main(args: argparse.Namespace) -> int:
    from bot.config import BotSettings

    config = BotSettings()
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if not config.discord_token and not config.telegram_token:
        from bot import cli_play

        print("No DISCORD_TOKEN or TELEGRAM_TOKEN set: starting a terminal game against AI seats.")
        return cli_play.main(args)
    return asyncio.run(_serve(config, args))


async def _serve(config: object, args: argparse.Namespace) -> int:
    from bot.config import BotSettings
    from bot.manager import GameManager
    from bot.presenter import Presenter
    from engine import Rules
    from storage import Database

    assert isinstance(config, BotSettings)
    db = Database(args.db or config.database_url)
    await db.start()
    manager = GameManager(
        db,
        presenter=Presenter(images=config.render_images, theme=config.theme),
        default_rules=Rules(turn_seconds=config.turn_seconds),
        default_language=config.language,
    )
    await manager.resume()
    await manager.presenter.warm_up()
    tasks = []
    try:
        if config.discord_token:
            from bot.discord_adapter import run_discord

            shard_ids = [int(x) for x in args.shard_ids.split(",")] if args.shard_ids else None
            tasks.append(
                asyncio.create_task(
                    run_discord(
                        manager,
                        config.discord_token,
                        guild_ids=args.discord_guild,
                        shard_count=args.shard_count,
                        shard_ids=shard_ids,
                    )
                )
            )
        if config.telegram_token:
            from bot.telegram import TelegramConfig, run_telegram

            telegram = TelegramConfig(
                token=config.telegram_token,
                api_base_url=config.telegram_api_base_url,
                webhook_url=config.telegram_webhook_url,
                webhook_listen=config.telegram_webhook_listen,
                webhook_port=config.telegram_webhook_port,
                webhook_secret=config.telegram_webhook_secret,
            )
            tasks.append(
                asyncio.create_task(run_telegram(manager, config.telegram_token, config=telegram))
            )
        await asyncio.gather(*tasks)
    finally:
        await manager.close()
        await db.close()
    return 0
