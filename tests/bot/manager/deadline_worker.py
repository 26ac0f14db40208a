"""A bot process for the several-processes deadline test (``-m tests.bot.manager.deadline_worker``).

Resumes every game in the database with real timers, in shared mode (leases), prints every
reply its timers and AI turns send as a JSON line, and stops after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from bot.api import Reply
from bot.manager import GameManager
from bot.presenter import Presenter
from storage import Database


async def run(args: argparse.Namespace) -> int:
    db = Database(args.url, schema=args.schema)
    await db.start()
    manager = GameManager(
        db, presenter=Presenter(images=False), shared=True, warn_before=3.0, lease_seconds=5.0
    )

    async def outbox(reply: Reply) -> None:
        print(json.dumps({"text": reply.text, "private": reply.is_private}), flush=True)

    manager.set_outbox(outbox)
    await manager.resume()
    print(json.dumps({"ready": True}), flush=True)
    try:
        await asyncio.sleep(args.seconds)
    finally:
        await manager.close()
        await db.close()
    print(json.dumps({"internal_errors": manager.internal_errors}), flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--schema", default=None)
    parser.add_argument("--seconds", type=float, default=20.0)
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
