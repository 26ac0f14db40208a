"""``rummikub export``: write the record of a channel's finished game from the database.

Examples::

    rummikub export --channel discord:123456789 --list          # its finished games, with ids
    rummikub export --channel discord:123456789 --out last.rkr   # its last finished game
    rummikub export --channel telegram:-100123 --game 17 --out game17.rkr
    rummikub export --channel terminal:local --game 17 | rummikub replay /dev/stdin

Only finished games are exported (a record shows every rack; a cancelled game has none), and
only the channel's own. ``--list`` numbers them as the chat's ``replay N`` and ``history`` do
(1 is the newest) and gives each one's id for ``--game``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage import Database


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--channel",
        required=True,
        metavar="PLATFORM:CHAT",
        help="the channel, e.g. discord:123456789, telegram:-100123, terminal:local",
    )
    parser.add_argument("--game", type=int, metavar="ID", help="a finished game's id, from --list")
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the channel's finished games, newest first: the number replay N uses, "
        "the id for --game, date, turns, seats",
    )
    parser.add_argument("--out", type=Path, metavar="FILE", help="write here (default: print)")
    parser.add_argument(
        "--url", help="database URL (default: $DATABASE_URL, else sqlite+aiosqlite:///rummikub.db)"
    )
    parser.add_argument("--schema", help="PostgreSQL schema to use (default: search_path)")


def _split_channel(text: str) -> tuple[str, str]:
    platform, sep, chat = text.partition(":")
    if not sep or not platform.strip() or not chat.strip():
        raise ValueError(f"--channel is PLATFORM:CHAT, like discord:123456789, not {text!r}.")
    return platform.strip().lower(), chat.strip()


def main(args: argparse.Namespace) -> int:
    import asyncio

    from storage import StorageError

    try:
        platform, chat = _split_channel(args.channel)
        text = asyncio.run(_run(args, platform, chat))
    except (ValueError, StorageError) as exc:
        print(f"rummikub export: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"rummikub export: cannot reach the database: {exc}.", file=sys.stderr)
        return 1
    if args.out is not None and not args.list:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out} ({len(text.splitlines())} lines)")
    else:
        sys.stdout.write(text)
    return 0


async def _run(args: argparse.Namespace, platform: str, chat: str) -> str:
    from storage import Database
    from storage.replays import record_for_channel

    db = Database(args.url, schema=args.schema)
    try:
        path = db.sqlite_path
        if path is not None and not path.exists():
            raise ValueError(f"There is no database at {path}.")
        await db.start()
        if args.list:
            return await _history(db, platform, chat)
        return await record_for_channel(db, platform, chat, args.game)
    finally:
        await db.close()


async def _history(db: Database, platform: str, chat: str) -> str:
    """The finished games, newest first, numbered as ``replay N`` numbers them."""
    from storage.replays import finished_games

    games = await finished_games(db, platform, chat, limit=50)
    if not games:
        return f"{platform}:{chat} has no finished game yet.\n"
    lines = [f"{'replay':>6}  {'id':>6}  {'finished':<16}  {'turns':>5}  seats"]
    for number, g in enumerate(games, start=1):
        when = g.finished_at.strftime("%Y-%m-%d %H:%M") if g.finished_at else "?"
        names = ", ".join(s.name for s in g.seats)
        lines.append(f"{number:>6}  {g.id:>6}  {when:<16}  {g.action_count:>5}  {names}")
    return "\n".join(lines) + "\n"
