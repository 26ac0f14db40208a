"""A child process for the rating concurrency test (run with ``python -m``): finishes seeded
games in its own channel of a server shared with another process, as fast as it can, once
the parent says go; the games share players and an AI level with the other process's."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from pathlib import Path

from storage import Database
from tests.storage.rating_games import ai, finish_game, person


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--schema")
    parser.add_argument("--channel", required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--go", required=True)
    args = parser.parse_args()
    db = Database(args.url, schema=args.schema)
    await db.start()
    rng = random.Random(args.seed)
    everyone = [person("ann"), person("bob"), person("cleo"), person("dan")]
    print("ready", flush=True)
    go = Path(args.go)
    while not go.exists():
        time.sleep(0.01)
    finished = []
    try:
        for _ in range(args.games):
            seats = [everyone[0], rng.choice(everyone[1:]), ai(2, "hard")]
            rng.shuffle(seats)
            racks = [rng.choice((4, 9, 9, 20)) for _ in seats]
            finished.append(await finish_game(db, args.channel, seats, rng.randrange(3), racks))
    finally:
        await db.close()
    print(json.dumps({"games": finished}), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
