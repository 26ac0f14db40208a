"""Web board benchmark: loading a board and one action's round trip, with many boards open.

    .venv/bin/python benchmarks/bench_board.py [--games 100] [--actions 600] [--no-images]

A server process runs the bot's own parts: the game manager on a SQLite file and the board's
aiohttp server on 127.0.0.1, with ``--games`` dealt games of two people (two boards each: 200
by default). This process is the browsers: every board keeps its change stream open and reads
its state again on each change, as the page does. Then, paced like people dragging tiles
(each player to move acts every ``--think`` seconds on average), the players to move send
draft steps (``play <tile>`` and ``undo`` in turn, each stored and answered with the new
state, the chat's panel drawn as the bot draws it), while a board load (the page and its
state) and a bare request to the same server (``/board/ping``) are timed beside them. Prints
p50 and p99 of each; the bare request is the reference measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]


# --- the server process ------------------------------------------------------------------------


async def serve(games: int, images: bool, db_path: Path) -> None:
    from bot.api import ChannelRef, PlayerRef
    from bot.manager import GameManager
    from bot.presenter import Presenter
    from bot.web import BoardConfig, BoardServer
    from storage import Database

    db = Database(f"sqlite+aiosqlite:///{db_path}")
    await db.start()
    presenter = Presenter(images=images)
    await presenter.warm_up()
    manager = GameManager(db, presenter=presenter, rng=random.Random(1))
    boards = []
    for index in range(games):
        channel = ChannelRef("bench", f"c{index}")
        a = PlayerRef("bench", f"a{index}", f"A{index}")
        b = PlayerRef("bench", f"b{index}", f"B{index}")
        await manager.handle(a, channel, "start timer=86400")
        await manager.handle(b, channel, "join")
        await manager.handle(a, channel, "deal")
        boards.append((a, channel))
        boards.append((b, channel))
    server = BoardServer(manager, BoardConfig(port=0), b"bench-secret-" + b"x" * 32)
    await server.start()
    tokens = [server.signer.sign(player, channel) for player, channel in boards]
    print(json.dumps({"base": server.links.page, "tokens": tokens}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until EOF
    await server.stop()
    await manager.close()
    await db.close()


# --- the browsers ------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"{name:<34} n={len(ms):>5}  p50 {statistics.median(ms):7.1f} ms"
        f"  p99 {percentile(ms, 0.99):7.1f} ms  max {max(ms):7.1f} ms"
    )


class Board:
    """One open board: its token, its change stream, and a read of its state on each change."""

    def __init__(self, http: aiohttp.ClientSession, base: str, token: str) -> None:
        self.http = http
        self.base = base
        self.token = token
        self.state: dict[str, Any] = {}
        self.reads = 0
        self.acting = False  # as the page: an action's answer brings the state
        self.heard = -1

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def read(self) -> dict[str, Any]:
        async with self.http.get(self.base + "/api/state", headers=self.headers) as response:
            body = await response.json()
        assert response.status == 200, body
        self.token, self.state = body["token"], body["state"]
        self.reads += 1
        return self.state

    async def follow(self, ready: asyncio.Event) -> None:
        async with self.http.get(self.base + "/api/events", headers=self.headers) as stream:
            assert stream.status == 200
            await self.read()
            ready.set()
            async for chunk in stream.content:
                # as the page does: a change its own action's answer brings is not read again
                if chunk.startswith(b"data:"):
                    self.heard = int(chunk[5:])
                    if not self.acting and self.heard != self.state.get("step"):
                        await self.read()

    async def act(self, command: str) -> dict[str, Any]:
        body = {"command": command}
        self.acting = True
        try:
            async with self.http.post(
                self.base + "/api/command", headers=self.headers, json=body
            ) as response:
                answer = await response.json()
        finally:
            self.acting = False
        assert response.status == 200, answer
        self.token, self.state = answer["token"], answer["state"]
        if self.heard > self.state["step"]:
            await self.read()
        return answer


async def drive(base: str, tokens: list[str], actions: int, think: float) -> None:
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        boards = [Board(http, base, token) for token in tokens]
        readies = [asyncio.Event() for _ in boards]
        streams = [asyncio.create_task(b.follow(r)) for b, r in zip(boards, readies, strict=True)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        print(f"{len(boards)} boards open, each following its channel's changes")

        bare: list[float] = []
        loads: list[float] = []
        steps: list[float] = []
        rng = random.Random(2)
        movers = [b for b in boards if b.state["can_act"]]
        done = asyncio.Event()

        async def player(board: Board) -> None:
            placed = False
            while not done.is_set():
                await asyncio.sleep(rng.expovariate(1 / think))
                if done.is_set():
                    return
                rack = board.state["rack"] or []
                command = "undo" if placed else f"play {rack[0]['code']}"
                started = time.perf_counter()
                await board.act(command)
                steps.append(time.perf_counter() - started)
                placed = not placed
                if len(steps) >= actions:
                    done.set()

        async def reference() -> None:
            others = itertools.cycle(b for b in boards if not b.state["can_act"])
            while not done.is_set():
                page = next(others)  # a different viewer each time, as many people would be
                await asyncio.sleep(0.05)
                started = time.perf_counter()
                async with http.get(base + "/ping") as response:
                    await response.read()
                bare.append(time.perf_counter() - started)
                started = time.perf_counter()
                async with http.get(base) as response:
                    await response.read()
                await page.read()
                loads.append(time.perf_counter() - started)

        started = time.perf_counter()
        await asyncio.gather(reference(), *(player(b) for b in movers))
        elapsed = time.perf_counter() - started
        for stream in streams:
            stream.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
            await asyncio.gather(*streams, return_exceptions=True)
        reads = sum(b.reads for b in boards)
        print(f"{len(steps)} actions in {elapsed:.1f} s by {len(movers)} players to move; ")
        print(f"{reads} state reads by the open boards following their changes")
        print(line("bare request (/board/ping)", bare))
        print(line("board load (page + state)", loads))
        print(line("action round trip (command)", steps))
        ratio = percentile(steps, 0.99) / percentile(bare, 0.99)
        verdict = "met" if percentile(steps, 0.99) < 0.100 else "MISSED"
        print(f"action p99 / bare p99 = {ratio:.1f}x; target p99 < 100 ms: {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games (two boards each)")
    parser.add_argument("--actions", type=int, default=600, help="actions to time")
    parser.add_argument("--think", type=float, default=5.0, help="mean seconds between actions")
    parser.add_argument("--no-images", action="store_true", help="text-only panels")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.games, not args.no_images, args.db))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, __file__, "--serve", "--games", str(args.games)]
        command += ["--db", str(Path(folder) / "bench.db")]
        if args.no_images:
            command.append("--no-images")
        server = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        assert server.stdout is not None and server.stdin is not None
        ready = json.loads(server.stdout.readline())
        images = "off" if args.no_images else "on (the chat's panel drawn, as by default)"
        print(f"server: {args.games} games on SQLite, images {images}")
        try:
            asyncio.run(drive(ready["base"], ready["tokens"], args.actions, args.think))
        finally:
            server.stdin.close()
            server.wait(60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
