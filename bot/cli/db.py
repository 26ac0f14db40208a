"""``rummikub db``: database maintenance. ``upgrade`` brings the schema up to date.

The bot also upgrades at start-up; this command is for deployments that migrate in a separate
step (for example before starting several bot processes against one PostgreSQL database).
"""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    for name, help_text in (
        ("upgrade", "create the database or migrate it to the newest schema"),
        ("current", "print the schema revision the database is at"),
    ):
        action = sub.add_parser(name, help=help_text, description=help_text)
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
    from storage.migrate import head_revision

    try:
        config = load_settings(database_url=args.url)
    except SettingsError as exc:
        print(f"rummikub db: {exc}", file=sys.stderr)
        return 2

    async def run() -> int:
        db = Database(config.database_url, schema=args.schema)
        where = db.url.render_as_string(hide_password=True)
        missing = db.sqlite_path is not None and not db.sqlite_path.exists()
        try:
            if missing and args.db_command == "current":
                print(f"{where} does not exist yet; rummikub db upgrade creates it.")
                return 1
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
    except (ValueError, StorageError) as exc:
        print(f"rummikub db: {exc}")
        return 2
    except OSError as exc:
        print(f"rummikub db: cannot reach the database: {exc}.")
        return 1
