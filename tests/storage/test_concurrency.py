"""Two processes commit turns on the same games: the version check must lose no update."""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Rules
from storage import Database, Seat
from tests.kills import ROOT, backend_url, command


def target_db(target: list[str]) -> Database:
    options = dict(zip(target[::2], target[1::2], strict=True))
    return Database(options["--url"], schema=options.get("--schema"))


@pytest.mark.slow
@pytest.mark.parametrize(
    "backend", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
async def test_two_processes_on_the_same_games_lose_no_update(backend: str, tmp_path: Path) -> None:
    async with backend_url(backend, tmp_path) as target:
        db = target_db(target)
        await db.start()
        try:
            ids = []
            for seed in (11, 12):
                game = Game.new(4, seed, Rules())
                stored = await db.games.create(
                    platform="race",
                    channel_id=f"table-{seed}",
                    seats=[Seat(f"p{i}", f"P{i}") for i in range(4)],
                    seed=seed,
                    setup=Rules().to_text(),
                    snapshot=game.to_text(),
                )
                ids.append(stored.id)
            go = tmp_path / "go"
            journals = [tmp_path / f"racer{i}.jsonl" for i in range(2)]
            racers = [
                subprocess.Popen(
                    command(
                        "tests.storage.crash_worker",
                        "race",
                        *target,
                        "--journal",
                        str(journal),
                        "--seed",
                        str(i),
                        "--game-ids",
                        ",".join(map(str, ids)),
                        "--turns",
                        "30",
                        "--go",
                        str(go),
                    ),
                    cwd=ROOT,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                for i, journal in enumerate(journals)
            ]
            for racer in racers:
                assert racer.stdout is not None and racer.stdout.readline().strip() == "ready"
            go.touch()  # both are connected and migrated: start together
            reports = []
            for racer in racers:
                out, err = racer.communicate(timeout=120)
                assert racer.returncode == 0, err
                reports.append(json.loads(out.strip().splitlines()[-1]))

            saves: dict[int, list[dict[str, Any]]] = defaultdict(list)
            for journal in journals:
                for line in journal.read_text().splitlines():
                    entry = json.loads(line)
                    saves[entry["game"]].append(entry)
            assert sum(r["commits"] for r in reports) == sum(len(s) for s in saves.values())
            assert sum(r["conflicts"] for r in reports) > 0, "the racers never collided"
            for game_id in ids:
                stored = await db.games.load(game_id)
                mine = sorted(saves[game_id], key=lambda e: e["version"])
                # every acknowledged save produced its own version: none was overwritten
                assert [e["version"] for e in mine] == list(range(2, stored.version + 1))
                log: list[str] = []
                for entry in mine:
                    assert entry["first_seq"] == len(log)
                    log.extend(entry["actions"])
                assert list(stored.actions or ()) == log
                replayed = Game.replay(4, stored.seed, Rules.from_text(stored.setup), log)
                assert replayed.to_text() == stored.snapshot
                replayed.check_conservation()
                assert {e["pid"] for e in mine} == {r.pid for r in racers}
        finally:
            await db.close()
