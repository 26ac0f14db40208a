"""``rummikub db``: database maintenance. ``upgrade`` brings the schema up to date, ``current``
says where it is, ``forget PLATFORM:USER`` deletes a player's data on request (PRIVACY.md).

The bot also upgrades at start-up; ``upgrade`` is for deployments that migrate in a separate
step (for example before starting several bot processes against one PostgreSQL database).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage import Database


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    for name, help_text in (
        ("upgrade", "create the database or migrate it to the newest schema"),
        ("current", "print the schema revision the database is at"),
        (
            "forget",
            "delete a player's name and language: their games, matches and leaderboard rows "
            "get a neutral name and id (see PRIVACY.md)",
        ),
    ):
        action = sub.add_parser(name, help=help_text, description=help_text)
        if name == "forget":
            action.add_argument(
                "who",
                metavar="PLATFORM:USER",
                help="the player's platform and user id: discord:<id> (Discord's Copy User ID) "
                "or telegram:<numeric user id>",
            )
        action.add_argument(
            "--url",
            help="database URL (default: DATABASE_URL from the environment or .env, else "
            "sqlite+aiosqlite:///rummikub.db)",
        )
        action.add_argument("--schema", help="PostgreSQL schema to use (default: search_path)")


def main(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import SettingsError, load_settings
    from storage import Database, StorageError
    from storage.forget import PlayerAtTableError
    from storage.migrate import head_revision

    try:
        config = load_settings(database_url=args.url)
    except SettingsError as exc:
        print(f"rummikub db: {exc}", file=sys.stderr)
        return 2

    forget = None
    if args.db_command == "forget":
        platform, _, user = args.who.partition(":")
        if not platform or not user.strip() or not platform.isidentifier():
            print(
                f"rummikub db forget: name the player as PLATFORM:USER "
                f"(discord:123456789, telegram:42), not {args.who!r}.",
                file=sys.stderr,
            )
            return 2
        forget = (platform.lower(), user.strip())

    async def run() -> int:
        db = Database(config.database_url, schema=args.schema)
        where = db.url.render_as_string(hide_password=True)
        missing = db.sqlite_path is not None and not db.sqlite_path.exists()
        try:
            if missing and args.db_command in ("current", "forget"):
                print(f"{where} does not exist yet; rummikub db upgrade creates it.")
                return 1
            if forget is not None:
                return await _forget(db, *forget)
            if args.db_command == "upgrade":
                before = None if missing else await db.revision()
                await db.start()
                after = await db.revision()
                if before == after:
                    print(f"{where} is up to date (revision {after}).")
                else:
                    print(f"{where} upgraded from {before or 'nothing'} to revision {after}.")
            else:
                current = await db.revision()
                state = "up to date" if current == head_revision() else f"head is {head_revision()}"
                print(f"{where} is at revision {current or 'none'} ({state}).")
        finally:
            await db.close()
        return 0

    try:
        return asyncio.run(run())
    except PlayerAtTableError as exc:
        print(f"rummikub db forget: {exc}", file=sys.stderr)
        return 1
    except (ValueError, StorageError) as exc:
        print(f"rummikub db: {exc}")
        return 2
    except OSError as exc:
        print(f"rummikub db: cannot reach the database: {exc}.")
        return 1


async def _forget(db: Database, platform: str, user: str) -> int:
    from storage.forget import forget_player

    await db.start()  # the schema the forgetting expects
    done = await forget_player(db, platform, user)
    who = f"{platform}:{user}"
    if not done.anything:
        print(f"Nothing is stored about {who}.")
        return 0
    print(
        f"Forgot {who}: {_count(done.games, 'game')}, {_count(done.matches, 'match')} and "
        f"{_count(done.leaderboard_rows, 'leaderboard row')} now say {done.name!r}; deleted "
        f"their language ({done.languages}), {_count(done.message_ids, 'message id')} and "
        f"{_count(done.outbox_entries, 'stored announcement')}."
    )
    return 0


def _count(number: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("ch") else "s")
    return f"{number} {noun if number == 1 else plural}"
