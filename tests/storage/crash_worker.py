"""Child processes for the crash and concurrency tests (run with ``python -m``).

``play``: plays seeded games against the database forever, saving every draft step and every
turn the way the bot does; before each write it journals what it is about to write ("intent")
and after the commit that it did ("done"). The parent kills it with SIGKILL at random moments.

``verify``: a fresh process loads every game and checks it is exactly the last committed state
(the last "done", or the "intent" after it if the kill fell between commit and journal), that
seed + action log replay to the stored snapshot, that every tile is in exactly one place, and
that the stored draft still applies.

``race``: commits turns on shared games while another process does the same; every successful
save is journaled with the version it produced, for the parent to check that none was lost.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any, TextIO

from engine import Draft, Game, IllegalMoveError, Rules, Tile
from storage import ConflictError, Database, Seat, StoredGame

PLATFORM = "crash"


def digest(snapshot: str, draft: Sequence[str], action_count: int, finished: bool) -> str:
    text = "\x1e".join([snapshot, "\x1f".join(draft), str(action_count), str(finished)])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def stored_digest(game: StoredGame) -> str:
    return digest(game.snapshot, game.draft, game.action_count, not game.active)


def find_melds(rack: Sequence[Tile]) -> list[list[Tile]]:
    """Disjoint groups and runs of three real tiles, most valuable first (a simple player)."""
    real = [t for t in rack if not t.is_joker]
    candidates: list[list[Tile]] = []
    for trio in combinations(real, 3):
        numbers = sorted(t.number for t in trio)
        colors = {t.color for t in trio}
        if len(set(numbers)) == 1 and len(colors) == 3:
            candidates.append(list(trio))
        elif len(colors) == 1 and numbers == list(range(numbers[0], numbers[0] + 3)):
            candidates.append(sorted(trio, key=lambda t: t.number))
    candidates.sort(key=lambda m: -sum(t.number for t in m))
    used: set[Tile] = set()
    chosen = []
    for meld in candidates:
        if not used.intersection(meld):
            chosen.append(meld)
            used.update(meld)
    return chosen


def next_steps(game: Game, draft: Draft) -> list[str]:
    """Draft steps this simple player would type now (empty: it will end the turn)."""
    melds = find_melds(draft.rack)
    if not melds:
        return []
    if not draft.melded_before and not draft.changed:
        total = 0
        steps = []
        for meld in melds:
            steps.append("play " + " ".join(str(t) for t in meld))
            total += sum(t.number for t in meld)
            if total >= game.rules.opening_threshold:
                return steps
        return steps[:1]  # not enough to open: a draft that will time out as a penalty
    return ["play " + " ".join(str(t) for t in melds[0])]


def end_turn(game: Game, draft: Draft) -> None:
    """Commit a legal draft, draw with an unchanged one, else the timeout penalty.

    (A timed-out commit or draw is logged like a voluntary one, so it would not replay to the
    same ``last`` line; the worker only lets the timer fire on an illegal draft.)
    """
    if draft.changed and draft.is_legal:
        game.commit(draft)
    elif not draft.changed:
        game.draw()
    else:
        game.timeout(draft)


def rebuild_draft(game: Game, steps: Sequence[str]) -> Draft:
    draft = game.draft()
    for step in steps:
        draft.apply_text(step)
    return draft


class Journal:
    def __init__(self, path: Path) -> None:
        self._file: TextIO = path.open("a", buffering=1)  # line-buffered: each line one write()

    def write(self, **entry: Any) -> None:
        self._file.write(json.dumps(entry) + "\n")


async def new_game(db: Database, journal: Journal, channel: str, rng: random.Random) -> None:
    players = rng.choice([2, 3, 4])
    seed = rng.getrandbits(62)
    rules = Rules()
    game = Game.new(players, seed, rules)
    snapshot = game.to_text()
    journal.write(
        kind="intent", channel=channel, game=None, version=1, digest=digest(snapshot, [], 0, False)
    )
    stored = await db.games.create(
        platform=PLATFORM,
        channel_id=channel,
        seats=[Seat(f"p{i}", f"Player {i}") for i in range(players)],
        seed=seed,
        setup=rules.to_text(),
        snapshot=snapshot,
        status=game.status,
        turn=game.turn,
    )
    journal.write(
        kind="done", channel=channel, game=stored.id, version=1, digest=stored_digest(stored)
    )


async def play_step(db: Database, journal: Journal, stored: StoredGame, rng: random.Random) -> None:
    """One draft step or one whole turn of ``stored``, saved like the bot saves it."""
    game = Game.from_text(stored.snapshot)
    draft = rebuild_draft(game, stored.draft)
    steps = next_steps(game, draft)
    version = stored.version + 1
    if steps and rng.random() < 0.7:
        draft_steps = [*stored.draft, steps[0]]
        try:
            draft.apply_text(steps[0])
        except IllegalMoveError:
            return
        want = digest(stored.snapshot, draft_steps, stored.action_count, False)
        journal.write(kind="intent", game=stored.id, version=version, digest=want)
        await db.games.save_draft(stored.id, expected_version=stored.version, draft=draft_steps)
        journal.write(kind="done", game=stored.id, version=version, digest=want)
        return
    end_turn(game, draft)
    snapshot = game.to_text()
    count = stored.action_count + len(game.log)
    want = digest(snapshot, [], count, game.finished)
    journal.write(kind="intent", game=stored.id, version=version, digest=want)
    if game.result is not None:
        await db.games.finish(
            stored.id,
            expected_version=stored.version,
            snapshot=snapshot,
            new_actions=game.log,
            status=game.status,
            result={"text": game.result.to_text()},
            scores=list(game.result.scores),
            winner=game.result.winner,
        )
    else:
        await db.games.save_turn(
            stored.id,
            expected_version=stored.version,
            snapshot=snapshot,
            new_actions=game.log,
            deadline=datetime.now(UTC) + timedelta(seconds=60),
            turn=game.turn,
            status=game.status,
        )
    journal.write(kind="done", game=stored.id, version=version, digest=want)


async def play(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    journal = Journal(Path(args.journal))
    db = Database(args.url, schema=args.schema)
    await db.start()
    print("ready", flush=True)
    channels = [f"table-{i}" for i in range(args.games)]
    try:
        while True:
            channel = rng.choice(channels)
            stored = await db.games.load_active(PLATFORM, channel, with_actions=False)
            if stored is None:
                await new_game(db, journal, channel, rng)
            else:
                await play_step(db, journal, stored, rng)
    finally:
        await db.close()


def check_game(game: StoredGame) -> list[str]:
    """What is wrong with a stored game (empty: replay, conservation and draft all hold)."""
    problems = []
    assert game.actions is not None
    replayed = Game.replay(
        len(game.seats), game.seed, Rules.from_text(game.setup), list(game.actions)
    )
    if replayed.to_text() != game.snapshot:
        problems.append(f"game {game.id}: seed + action log do not replay to the snapshot")
    loaded = Game.from_text(game.snapshot)
    problem = loaded.conservation_problem()
    if problem:
        problems.append(f"game {game.id}: {problem}")
    if game.draft:
        try:
            draft = rebuild_draft(loaded, game.draft)
        except IllegalMoveError as exc:
            problems.append(f"game {game.id}: stored draft does not apply: {exc}")
        else:
            tiles = [t for slot in draft.slots for t in slot.tiles] + list(draft.rack)
            tiles += list(loaded.pool) + [
                t for seat, p in enumerate(loaded.players) if seat != draft.seat for t in p.rack
            ]
            if sorted(map(str, tiles)) != sorted(map(str, loaded.rules.edition.all_tiles())):
                problems.append(f"game {game.id}: the draft loses or doubles a tile")
    if not game.active and loaded.result is None:
        problems.append(f"game {game.id}: finished in storage but not in its snapshot")
    return problems


def read_journal(path: Path) -> list[dict[str, Any]]:
    entries = []
    for line in path.read_text().splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut by the kill: it is the last one anyway
    return entries


async def verify(args: argparse.Namespace) -> int:
    entries = read_journal(Path(args.journal))
    db = Database(args.url, schema=args.schema)
    await db.start()
    problems: list[str] = []
    try:
        last_done: dict[int, dict[str, Any]] = {}
        pending: dict[int, dict[str, Any]] = {}
        pending_creates: dict[str, dict[str, Any]] = {}
        for entry in entries:
            if entry["game"] is None:
                pending_creates[entry["channel"]] = entry
            elif entry["kind"] == "done":
                last_done[entry["game"]] = entry
                pending.pop(entry["game"], None)
                if "channel" in entry:
                    pending_creates.pop(entry["channel"], None)
            else:
                pending[entry["game"]] = entry
        seen = set()
        ids = [g.id for g in await db.games.list_active()]
        ids += [
            g.id
            for c in range(args.games)
            for g in await db.games.history(PLATFORM, f"table-{c}", limit=10**6)
        ]
        for game_id in sorted(set(ids)):
            game = await db.games.load(game_id)
            seen.add(game_id)
            state = (game.version, stored_digest(game))
            allowed = []
            if game_id in last_done:
                allowed.append((last_done[game_id]["version"], last_done[game_id]["digest"]))
            if game_id in pending:
                allowed.append((pending[game_id]["version"], pending[game_id]["digest"]))
            if game_id not in last_done:
                create = pending_creates.get(game.channel_id)
                if create is not None:
                    allowed.append((create["version"], create["digest"]))
            if state not in allowed:
                problems.append(f"game {game_id}: stored {state} is none of {allowed}")
            problems.extend(check_game(game))
        lost = sorted(set(last_done) - seen)
        if lost:
            problems.append(f"games committed but missing: {lost}")
        print(
            json.dumps(
                {
                    "games": len(seen),
                    "done": sum(e["kind"] == "done" for e in entries),
                    "pending_at_kill": len(pending) + len(pending_creates),
                    "problems": problems,
                }
            )
        )
    finally:
        await db.close()
    return 1 if problems else 0


async def race(args: argparse.Namespace) -> int:
    """Commit ``--turns`` turns on the shared games, reloading and retrying on conflicts."""
    rng = random.Random(args.seed)
    journal = Journal(Path(args.journal))
    db = Database(args.url, schema=args.schema)
    await db.start()
    print("ready", flush=True)
    go = Path(args.go)
    while not go.exists():  # both racers start together
        await asyncio.sleep(0.01)
    ids = [int(i) for i in args.game_ids.split(",")]
    conflicts = commits = 0
    try:
        while commits < args.turns:
            game_id = rng.choice(ids)
            stored = await db.games.load(game_id, with_actions=False)
            if not stored.active:
                ids.remove(game_id)
                if not ids:
                    break
                continue
            game = Game.from_text(stored.snapshot)
            draft = game.draft()
            for step in next_steps(game, draft):
                draft.apply_text(step)
            end_turn(game, draft)
            try:
                if game.result is not None:
                    version = await db.games.finish(
                        game_id,
                        expected_version=stored.version,
                        snapshot=game.to_text(),
                        new_actions=game.log,
                        scores=list(game.result.scores),
                        winner=game.result.winner,
                    )
                else:
                    version = await db.games.save_turn(
                        game_id,
                        expected_version=stored.version,
                        snapshot=game.to_text(),
                        new_actions=game.log,
                        deadline=None,
                        turn=game.turn,
                    )
            except ConflictError:
                conflicts += 1
                continue
            commits += 1
            journal.write(
                game=game_id,
                version=version,
                first_seq=stored.action_count,
                actions=game.log,
                pid=os.getpid(),
            )
    finally:
        await db.close()
    print(json.dumps({"commits": commits, "conflicts": conflicts}))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.storage.crash_worker")
    parser.add_argument("command", choices=["play", "verify", "race"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--schema")
    parser.add_argument("--journal", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--game-ids", default="")
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--go", default="")
    args = parser.parse_args(argv)
    command = {"play": play, "verify": verify, "race": race}[args.command]
    return asyncio.run(command(args))


if __name__ == "__main__":
    sys.exit(main())
