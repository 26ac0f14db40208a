"""The terminal game driven as a person would: the real command, stdin and stdout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def rummikub(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=600,
    )


def test_a_whole_match_in_the_terminal(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'term.db'}"
    moves = "plya R5\nplay R99\n" + "auto\ndone\n" * 500
    result = rummikub(
        [
            "play",
            "--players",
            "2",
            "--seed",
            "3",
            "--games",
            "1",
            "--db",
            db,
            "--no-color",
            "--save-png",
            str(tmp_path / "png"),
        ],
        moves,
        tmp_path,
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Game 1 of 1 is dealt" in out
    assert "I don't know the command 'plya'. Did you mean 'play'?" in out
    assert "'R99' (tile 1) has number 99; tiles run from 1 to 13." in out
    assert "Player played" in out
    assert "Rummikub!" in out or "nobody could play" in out
    assert "The match is over. Winner:" in out
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert any("table" in p.name for p in pngs) and any("rack" in p.name for p in pngs)
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


def test_the_terminal_game_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'term.db'}"
    args = ["play", "--players", "3", "--seed", "5", "--db", db, "--no-color"]
    first = rummikub(args, "rack\n", tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "your game is saved" in first.stdout
    rack_line = next(line for line in first.stdout.splitlines() if line.startswith("Your rack ("))
    second = rummikub(args, "rack\n", tmp_path)
    assert second.returncode == 0, second.stderr[-2000:]
    assert "Continuing your unfinished game." in second.stdout
    assert rack_line in second.stdout


def test_run_without_tokens_falls_back_to_the_terminal_game(tmp_path: Path) -> None:
    result = rummikub(["run", "--db", f"sqlite+aiosqlite:///{tmp_path / 'r.db'}"], "", tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "No DISCORD_TOKEN or TELEGRAM_TOKEN set" in result.stdout
    assert "Game 1 of 3 is dealt" in result.stdout


def test_the_terminal_game_in_polish(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'pl.db'}"
    args = ["play", "--seed", "5", "--lang", "pl", "--db", db, "--no-color"]
    result = rummikub(args, "play R5 R6 R8\n", tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Rozdano grę 1 z 3." in result.stdout
    assert "Twój stojak (14):" in result.stdout
    assert "Do zobaczenia - gra jest zapisana" in result.stdout
    assert "Your rack" not in result.stdout
