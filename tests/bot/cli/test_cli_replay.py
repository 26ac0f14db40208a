"""``rummikub replay``, ``rummikub render --replay`` and ``rummikub export`` as real processes."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine import Game
from engine.record import GameRecord, parse_record, record_from_game
from engine.scoring import GameResult
from storage import Database
from tests.engine.test_record import simulate
from tests.storage.test_replays import cancel, store

ROOT = Path(__file__).resolve().parents[3]


def rummikub(
    *args: str | Path, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *map(str, args)],
        cwd=ROOT,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return record_from_game(simulate(3, 3), ["Ann", "Ben", "Cy"], ai=[None, "easy", "medium"])


@pytest.fixture
def record_file(tmp_path: Path, record: GameRecord) -> Path:
    path = tmp_path / "game.rkr"
    path.write_text(record.to_text(), encoding="utf-8")
    return path


def test_replay_plays_every_turn_through_and_ends_with_the_result(
    record_file: Path, record: GameRecord
) -> None:
    run = rummikub("replay", record_file, "--racks")
    assert run.returncode == 0, run.stderr
    total = len(record.turns)
    assert run.stdout.startswith("== The deal: Ann, Ben (AI easy), Cy (AI medium); seed 3")
    assert [f"== {n}/{total}" in run.stdout for n in (1, total // 2, total)] == [True] * 3
    assert run.stdout.count("\n== ") == total
    assert record.result is not None
    winner = record.names[GameResult.from_text(record.result).winner]
    assert f"\n1. {winner}, " in run.stdout.split(f"== {total}/{total}")[1]
    assert "Ann, seat 0: " in run.stdout


def test_replay_in_a_terminal_waits_for_enter_and_q_stops(record_file: Path) -> None:
    master, slave = os.openpty()
    try:
        os.write(master, b"\n\nq\n")
        run = rummikub("replay", record_file, stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    assert run.returncode == 0, run.stderr
    assert "Enter: next turn" in run.stdout
    assert "== 2/" in run.stdout and "== 3/" not in run.stdout


def test_replay_with_a_delay_needs_no_key(record_file: Path, record: GameRecord) -> None:
    run = rummikub("replay", record_file, "--delay", "0.001")
    assert run.returncode == 0 and run.stdout.count("\n== ") == len(record.turns)


def test_a_tampered_record_stops_at_the_turn_with_one_line(
    tmp_path: Path, record: GameRecord
) -> None:
    turn = next(t for t in record.turns if t.number > 6 and t.command == "draw")
    text = record.to_text().replace(turn.to_text(), f"{turn.number}. {turn.seat} play K1 K2 K4")
    bad = tmp_path / "bad.rkr"
    bad.write_text(text, encoding="utf-8")
    run = rummikub("replay", bad)
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"rummikub replay: {bad}: Turn {turn.number} (")
    assert f"== {turn.number - 1}/" in run.stdout and f"== {turn.number}/" not in run.stdout
    check = rummikub("replay", bad, "--check")
    assert check.returncode == 1 and f"Turn {turn.number} (" in check.stderr


def test_check_prints_a_summary_and_unreadable_files_get_one_sentence(
    record_file: Path, record: GameRecord, tmp_path: Path
) -> None:
    run = rummikub("replay", record_file, "--check")
    assert run.returncode == 0
    assert f"{len(record.turns)} turns, every one legal; it ends: {record.result}." in run.stdout
    junk = tmp_path / "junk.rkr"
    junk.write_bytes(b"\xff\xfe not text")
    for path in (junk, tmp_path / "missing.rkr"):
        bad = rummikub("replay", path)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
        assert "Traceback" not in bad.stderr


@pytest.mark.slow
def test_render_replay_writes_an_animation_with_a_frame_per_turn_and_one(
    record_file: Path, record: GameRecord, tmp_path: Path
) -> None:
    out = tmp_path / "game.gif"
    run = rummikub("render", "--replay", record_file, "--out", out)
    assert run.returncode == 0, run.stderr
    image = Image.open(io.BytesIO(out.read_bytes()))
    assert image.format == "GIF" and image.n_frames == len(record.turns) + 1
    assert image.width == 800
    png = tmp_path / "game.png"
    run = rummikub("render", "--replay", record_file, "--out", png, "--theme", "dark")
    assert run.returncode == 0, run.stderr
    assert Image.open(png).n_frames == len(record.turns) + 1
    wrong = rummikub("render", "--replay", record_file, "--out", tmp_path / "game.jpg")
    assert wrong.returncode == 2 and "--out FILE.gif or --out FILE.png" in wrong.stderr


@pytest.mark.slow
def test_export_lists_and_writes_the_channel_record(tmp_path: Path) -> None:
    db_path = tmp_path / "bot.db"
    url = f"sqlite+aiosqlite:///{db_path}"
    game = simulate(31, 2)

    async def fill() -> int:
        db = Database(url)
        await db.start()
        try:
            return await store(db, game, channel="c1")
        finally:
            await db.close()

    game_id = asyncio.run(fill())
    listed = rummikub("export", "--url", url, "--channel", "discord:c1", "--list")
    assert listed.returncode == 0, listed.stderr
    assert str(game_id) in listed.stdout and "Ann, Robo" in listed.stdout
    out = tmp_path / "last.rkr"
    run = rummikub("export", "--url", url, "--channel", "discord:c1", "--out", out)
    assert run.returncode == 0, run.stderr
    assert parse_record(out.read_text(encoding="utf-8")).tag("Game") == str(game_id)
    assert rummikub("replay", out, "--check").returncode == 0
    printed = rummikub("export", "--url", url, "--channel", "discord:c1", "--game", str(game_id))
    assert printed.stdout == out.read_text(encoding="utf-8")
    other = rummikub("export", "--url", url, "--channel", "discord:c2")
    assert other.returncode == 2 and "no finished game yet" in other.stderr
    bad = rummikub("export", "--url", url, "--channel", "c1")
    assert bad.returncode == 2 and "PLATFORM:CHAT" in bad.stderr
    missing = rummikub(
        "export", "--url", f"sqlite+aiosqlite:///{tmp_path / 'no.db'}", "--channel", "discord:c1"
    )
    assert missing.returncode == 2 and "no database" in missing.stderr
    assert not (tmp_path / "no.db").exists()


@pytest.mark.slow
def test_export_lists_and_writes_only_finished_games_numbered_as_replay(tmp_path: Path) -> None:
    """Issue 21, defect 8: a cancelled game is not in ``--list``, has no record by its id,
    and is not "the last finished game"; ``--list`` numbers the rest as ``replay N``."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"

    async def fill() -> tuple[int, int, int]:
        db = Database(url)
        await db.start()
        try:
            older = await store(db, simulate(33, 2), channel="c1")
            newer = await store(db, simulate(34, 2), channel="c1")
            stopped = Game.new(2, 35)
            stopped.draw()
            cancelled = await cancel(db, stopped)
            return older, newer, cancelled
        finally:
            await db.close()

    older, newer, cancelled = asyncio.run(fill())
    listed = rummikub("export", "--url", url, "--channel", "discord:c1", "--list")
    assert listed.returncode == 0, listed.stderr
    header, *rows = listed.stdout.splitlines()
    assert header.split() == ["replay", "id", "finished", "turns", "seats"]
    assert [row.split()[:2] for row in rows] == [["1", str(newer)], ["2", str(older)]]
    last = rummikub("export", "--url", url, "--channel", "discord:c1")
    assert last.returncode == 0 and parse_record(last.stdout).tag("Game") == str(newer)
    refused = rummikub("export", "--url", url, "--channel", "discord:c1", "--game", str(cancelled))
    assert refused.returncode == 2 and refused.stdout == ""
    assert f"Game {cancelled} was cancelled, not played to its end" in refused.stderr
