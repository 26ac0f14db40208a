"""The terminal game driven as a person would: the real command, stdin and stdout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.presenter import Presenter
from engine import Game, Meld, Tile
from renderers import draft_text, rack_text
from renderers.views import draft_view_from_draft, rack_view_from_game

ROOT = Path(__file__).resolve().parents[3]


class Session:
    """A running ``rummikub`` process: type lines into it, wait for what it prints (the raw
    characters, prompts without a newline included)."""

    def __init__(self, args: list[str], cwd: Path, *, env: dict[str, str] | None = None) -> None:
        full = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
        full.update(PYTHONPATH=str(ROOT), **(env or {}))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=full,
        )
        self._chunks: list[bytes] = []
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._pump, daemon=True)
        self._reader.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while chunk := os.read(fd, 4096):
            with self._lock:
                self._chunks.append(chunk)

    @property
    def out(self) -> str:
        with self._lock:
            return b"".join(self._chunks).decode(errors="replace")

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def wait_for(self, pattern: str, *, after: int = 0, seconds: float = 60) -> int:
        """Wait until ``pattern`` (a regular expression) is printed after character
        ``after``; returns where it ends. A safety net for a broken build, not a measure."""
        give_up = time.monotonic() + seconds
        wanted = re.compile(pattern)
        while True:
            ended = self.proc.poll() is not None
            if ended:
                self._reader.join(timeout=10)  # everything it printed is read
            found = wanted.search(self.out, after)
            if found is not None:
                return found.end()
            assert not ended, f"the process ended before {pattern!r}: {self.out[-2000:]}"
            assert time.monotonic() < give_up, f"never saw {pattern!r}: {self.out[-2000:]}"
            time.sleep(0.05)

    def finish(self, *lines: str) -> str:
        """Type ``lines``, close stdin and wait for the process to end; returns all it printed."""
        for line in lines:
            self.type(line)
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(timeout=120) == 0, self.errors()
        self._reader.join(timeout=10)  # the reader thread takes the last chunk
        return self.out

    def errors(self) -> str:
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=60)


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
    assert out.count("The match is over") == 1
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


# ----- what a newcomer meets (issue 16) -------------------------------------------------------

SEED3 = ["--players", "2", "--seed", "3", "--no-color"]  # Player's rack: K3 K4 K5 K13 B1 ...


def db_args(tmp_path: Path, name: str = "t.db") -> list[str]:
    return ["--db", f"sqlite+aiosqlite:///{tmp_path / name}"]


def test_scripts_run_installs_only_when_pyproject_changes_and_passes_arguments_on(
    tmp_path: Path,
) -> None:
    """scripts/run in a copy of the project whose .venv logs what it is asked to do: the
    locked packages (hashes checked), then the project, only when the lock or pyproject.toml
    changed; its arguments go on to ``rummikub run``."""
    (tmp_path / "scripts").mkdir()
    for name in ("run", "venv.sh"):
        (tmp_path / "scripts" / name).write_bytes((ROOT / "scripts" / name).read_bytes())
    (tmp_path / "requirements").mkdir()
    lock = tmp_path / "requirements" / "run.txt"
    lock.write_text("x==1 \\\n    --hash=sha256:00\n")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "calls.log"
    for name in ("python", "rummikub"):
        tool = bin_dir / name
        tool.write_text(f'#!/usr/bin/env bash\necho "{name} $*" >> "{log}"\n')
        tool.chmod(0o755)
    install = [
        "python -m pip install -q --disable-pip-version-check --require-hashes -r "
        "requirements/run.txt",
        "python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .",
    ]

    def start(*args: str) -> list[str]:
        log.write_text("")
        done = subprocess.run(
            ["bash", str(tmp_path / "scripts" / "run"), *args], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        calls = log.read_text().splitlines()
        return [call for call in calls if not call.startswith("python -c")]  # version checks

    assert start("--new", "--timer", "300") == [*install, "rummikub run --new --timer 300"]
    assert start("--hints") == ["rummikub run --hints"]  # nothing changed: no install
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\nversion = '2'\n")
    assert start() == [*install, "rummikub run"]
    assert start() == ["rummikub run"]
    lock.write_text("x==2 \\\n    --hash=sha256:01\n")  # bash scripts/lock moved a version
    assert start() == [*install, "rummikub run"]


def test_run_passes_the_terminal_game_options_on(tmp_path: Path) -> None:
    args = ["run", *SEED3, *db_args(tmp_path), "--timer", "300", "--hints"]
    first = rummikub(args, "hint\n", tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "timer 5m 00s" in first.stdout and "hints on" in first.stdout
    assert "Hint:" in first.stdout
    again = rummikub(["run", *SEED3, *db_args(tmp_path), "--new"], "", tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "The game was cancelled by Player" in again.stdout
    assert "Continuing your unfinished game." not in again.stdout
    assert "Game 1 of 2 is dealt" in again.stdout and "timer 1m 00s" in again.stdout


def test_the_terminal_game_prints_no_log_lines(tmp_path: Path) -> None:
    result = rummikub(["run", *SEED3, *db_args(tmp_path)], "rack\n", tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert " INFO " not in result.stdout + result.stderr
    assert "alembic" not in result.stdout + result.stderr


def test_a_restart_mid_turn_shows_the_draft(tmp_path: Path) -> None:
    args = ["play", *SEED3, *db_args(tmp_path)]
    first = rummikub(args, "play K3 K4 K5\n", tmp_path)
    assert " 1. [K3] [K4] [K5]" in first.stdout
    second = rummikub(args, "", tmp_path)
    resumed = second.stdout.split("Continuing your unfinished game.", 1)[1]
    assert " 1. [K3] [K4] [K5]" in resumed  # the draft, without typing panel
    assert "Your rack (11 tiles" in resumed
    assert "Your rack (14" not in resumed


def test_the_terminal_says_how_to_change_the_timer_and_hints(tmp_path: Path) -> None:
    result = rummikub(["play", *SEED3, *db_args(tmp_path)], "hint\nsettings timer 300\n", tmp_path)
    out = result.stdout
    assert "Turn timer: 1m 00s; hints: off." in out
    assert "--timer 300 --hints" in out
    after_hint = out.split("> Hints are off", 1)[1]
    assert "start again with --new and e.g. --timer 300 --hints" in after_hint
    assert "Hints are off in this channel (settings hints on)" not in out


def test_sort_number_applies_to_the_turn_view_and_rack_matches_the_draft(tmp_path: Path) -> None:
    moves = "sort number\npanel\nplay K3 K4 K5\nrack\n"
    out = rummikub(["play", *SEED3, *db_args(tmp_path)], moves, tmp_path).stdout
    by_number = "B1 K3 K4 B4 K5 O6 B7 B9 R9 R11 R12 K13 B13 J"
    panel = out.split("> Your rack (14): " + by_number, 1)[1]
    assert "Your rack (14 tiles, 127 points):\n" + by_number in panel  # the turn view too
    assert "Your rack (11 tiles, 115 points):\nB1 B4 O6 B7 B9 R9 R11 R12 K13 B13 J" in panel
    assert "> Your rack (11; 3 more are in your draft on the table): B1 B4 O6 B7" in panel


def test_labels_are_not_stale_and_a_bad_target_is_refused_at_once(tmp_path: Path) -> None:
    moves = "draw\nrack\ntarget 9\nplay K3 K4 K5\ntarget 9\ntarget 1\n"
    out = rummikub(["play", *SEED3, *db_args(tmp_path)], moves, tmp_path).stdout
    assert "Your rack (15): K3 K4 K5 K13 B1 B4 B7 B9 B13 O1 O6 R9 R11 R12 J New: O1." in out
    later = out.split("> Your rack (15)", 1)[1]
    assert "New:" not in later.split("\n", 1)[0]  # a turn later the draw is no longer new
    assert "> There is no meld 9; the table is empty." in out
    assert "> There is no meld 9; the melds are numbered 1 to 1." in out
    assert "Selected" not in out or "target: 9" not in out
    resumed = rummikub(["play", *SEED3, *db_args(tmp_path)], "rack\n", tmp_path).stdout
    assert "New:" not in resumed


def test_every_command_answers(tmp_path: Path) -> None:
    moves = "history\nleaderboard\nhistory\naddbot hard\ndeal\ndeal\n"
    out = rummikub(["play", *SEED3, *db_args(tmp_path)], moves, tmp_path).stdout
    answers = out.split("> ")[1:-1]  # what each command printed before the next prompt
    assert len(answers) == 6 and all(a.strip() for a in answers), answers
    assert answers[3].strip() == "That works only in the lobby, before the deal."
    assert answers[5].strip() == "That works only in the lobby, before the deal."


def test_two_ai_seats_are_announced_twice(tmp_path: Path) -> None:
    args = ["play", "--players", "3", "--seed", "5", "--no-color", *db_args(tmp_path)]
    out = rummikub(args, "", tmp_path).stdout
    assert "Added an AI seat (medium) as seat 2." in out
    assert "Added an AI seat (medium) as seat 3." in out
    assert "games one per player" in out and "games players" not in out


def test_the_lobby_in_polish_names_the_settings(tmp_path: Path) -> None:
    args = ["play", "--seed", "5", "--lang", "pl", "--no-color", *db_args(tmp_path)]
    out = rummikub(args, "", tmp_path).stdout
    assert "gry (games): po jednej na gracza" in out
    assert "podpowiedzi (hints): wyłączone" in out
    assert "games tyle" not in out and "hints off" not in out


def test_cancel_asks_first_and_quit_is_in_help(tmp_path: Path) -> None:
    """The manager's question, as on every platform: the terminal shows its typed answer."""
    moves = "help\ncancel\ncancel no\nrack\nstop\ncancel yes\n"
    out = rummikub(["play", *SEED3, *db_args(tmp_path)], moves, tmp_path).stdout
    assert "quit (or exit, or Ctrl-D) leaves" in out
    assert out.count("Cancelling ends this game for everyone at the table") == 2
    assert out.count("type cancel yes, within 2m 00s") == 2
    kept, cancelled = out.split("Nothing was changed; the game goes on.", 1)
    assert "cancelled" not in kept and "> Your rack (14)" in cancelled
    assert "The game was cancelled by Player." in cancelled
    assert cancelled.rstrip().endswith("Thanks for playing!")


def test_leave_mid_game_in_the_terminal_asks_before_it_ends_the_match(tmp_path: Path) -> None:
    """The terminal's one person against AI seats: leave says what it would do and waits for
    leave yes; then it says what happened (no lobby is left, no "cancelled by")."""
    moves = "leave\nrack\nleave yes\n"
    out = rummikub(["play", *SEED3, *db_args(tmp_path)], moves, tmp_path).stdout
    asked, ended = out.split("type leave yes, within 2m 00s.", 1)
    assert "You are the last person at this table, so leaving ends the game" in asked
    assert "> Your rack (14)" in ended  # the game went on until the answer
    assert "Player left, the last person at the table: the game is over, with no result." in ended
    assert "lobby" not in out and "cancelled by" not in out


def _take(game: Game, code: str) -> Tile:
    """Take a tile with this face out of the pool or a rack (to build a position); every
    tile stays in one place."""
    for place in (game.pool, *(p.rack for p in game.players)):
        for tile in place:
            if str(tile) == code:
                place.remove(tile)
                return tile
    raise AssertionError(f"no {code} left")


def test_a_timeout_penalty_marks_every_tile_it_drew() -> None:
    game = Game.new(2, seed=3)
    seat = game.current
    draft = game.draft()
    draft.apply_text(f"play {game.players[seat].rack[0]} {game.players[seat].rack[1]}")
    outcome = game.timeout(draft)  # an unfinished change: the table goes back, draw 3
    assert outcome.kind == "penalty" and len(outcome.drawn) == 3
    line = Presenter(images=False).rack_line(game, seat, "color")
    drawn = line.split("New: ", 1)[1].rstrip(".").split()
    assert sorted(drawn) == sorted(str(t) for t in outcome.drawn)
    text = rack_text(rack_view_from_game(game, seat))
    assert text.splitlines()[1].count("[") == 3
    game.draw()  # the other seat moves: the penalty tiles are no longer new
    assert "New:" not in Presenter(images=False).rack_line(game, seat, "color")


def test_a_joker_taken_from_the_table_is_not_called_just_drawn() -> None:
    game = Game.new(2, seed=3)
    seat = game.current
    meld = [_take(game, "R5"), _take(game, "R6"), _take(game, "J")]
    game.table = [Meld.build(meld)]
    game.players[seat].melded = True
    game.players[seat].rack.append(_take(game, "R7"))
    game.check_conservation()
    draft = game.draft()
    draft.apply_text("swap J in 1 with R7")
    text = draft_text(draft_view_from_draft(draft))
    assert "just drawn" not in text
    assert "[ ] = taken from the table, to play this turn: J" in text
    line = Presenter(images=False).rack_line(game, seat, "color", draft=draft)
    assert line.endswith("Taken from the table, to play this turn: J.")


@pytest.mark.slow
def test_a_timeout_penalty_in_the_terminal_names_all_three_tiles(tmp_path: Path) -> None:
    """A real 10-second turn runs out on an unfinished change while the player waits."""
    session = Session(["play", *SEED3, *db_args(tmp_path), "--timer", "10"], tmp_path)
    session.wait_for("Player, it's your turn")
    session.type("play K3 K4 K5")
    session.wait_for("Time ran out for Player in the middle of a change")
    end = session.wait_for(r"Your rack \(17\)[^\n]*\n")
    out = session.finish("quit")
    rack = out[:end].splitlines()[-1]
    assert "draws 3" in out
    assert len(rack.split("New: ", 1)[1].rstrip(".\n").split()) == 3, rack


def test_dealing_does_not_print_the_final_lobby_twice(tmp_path: Path) -> None:
    args = ["play", "--players", "3", "--seed", "5", "--no-color", *db_args(tmp_path)]
    out = rummikub(args, "", tmp_path).stdout
    full = [line for line in out.splitlines() if line.startswith("Lobby") and "3. AI 2" in line]
    assert len(full) == 1, out[:2000]
    assert "is dealt" in out
