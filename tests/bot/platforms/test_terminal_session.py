"""The terminal game as a newcomer meets it (issue 21): leaving and coming back, the turn clock,
saved pictures, log lines, the screen's layout. Every test drives the real ``rummikub``
process through stdin; where time matters the real clock runs, and ``RUMMIKUB_TEST_CLOCK_SHIFT``
(README, Development) lets a process start as if hours had passed since the last one."""

from __future__ import annotations

import re
import shutil
import signal
from pathlib import Path

import pytest

from tests.bot.platforms.test_terminal import ROOT, SEED3, Session, db_args, rummikub

HOUR = "3600"


def left_in_status(out: str) -> int:
    """The seconds left that the last table view printed shows (``0:08 left``)."""
    minutes, seconds = re.findall(r"to play · ([0-9]+):([0-9]{2}) left", out)[-1]
    return int(minutes) * 60 + int(seconds)


# ----- defect 2: the command that continues ---------------------------------------------------


def test_quitting_a_game_started_with_new_says_to_continue_without_new(tmp_path: Path) -> None:
    for command in ("play", "run"):
        args = [command, *SEED3, *db_args(tmp_path, f"{command}.db")]
        first = rummikub([*args, "--new"], "help\nquit\n", tmp_path)
        assert first.returncode == 0, first.stderr[-2000:]
        assert "run the same command to continue" not in first.stdout
        assert "the same command continues it" not in first.stdout
        assert "to continue it, run the same command without --new." in first.stdout
        second = rummikub(args, "", tmp_path)
        assert "Continuing your unfinished game." in second.stdout
        assert "The game was cancelled" not in second.stdout
        assert "Bye - your game is saved" in second.stdout
        assert "run the same command to continue" in second.stdout


# ----- defects 3 and 7: the clock of a game nobody waits for ---------------------------------


@pytest.mark.slow
def test_quitting_stops_the_turn_clock_and_the_next_start_gives_the_time_back(
    tmp_path: Path,
) -> None:
    args = ["play", *SEED3, *db_args(tmp_path), "--timer", "10"]
    first = Session(args, tmp_path)
    first.wait_for("Player, it's your turn")
    first.type("play K3 K4")
    out = first.finish("table", "quit")
    before = left_in_status(out)
    assert "turn clock is stopped" in out
    second = Session(args, tmp_path, env={"RUMMIKUB_TEST_CLOCK_SHIFT": HOUR})
    shown = second.wait_for(r"Continuing your unfinished game\.[\s\S]*\n> ")
    assert "Time ran out" not in second.out
    assert before - 2 <= left_in_status(second.out) <= before
    assert "[K3] [K4]" in second.out[:shown]  # the draft is still there
    # The clock runs again from there: the unfinished change runs out within the time left.
    second.wait_for("Time ran out for Player in the middle of a change", seconds=before + 30)
    second.finish("quit")


def test_new_cancels_the_old_game_without_playing_its_overdue_timeout_or_ai_moves(
    tmp_path: Path,
) -> None:
    args = ["play", *SEED3, *db_args(tmp_path), "--timer", "10"]
    crashed = Session(args, tmp_path)  # killed: nothing is paused, the deadline stays stored
    crashed.wait_for("Player, it's your turn")
    crashed.type("play K3 K4")
    crashed.wait_for(r"\[K3\] \[K4\][\s\S]*\n> ")
    crashed.kill()
    pictures = tmp_path / "png"
    fresh = Session(
        [*args, "--new", "--save-png", str(pictures)],
        tmp_path,
        env={"RUMMIKUB_TEST_CLOCK_SHIFT": HOUR},
    )
    out = fresh.finish("quit")
    assert "Time ran out" not in out, out[:3000]
    old_game = out.split("Game 1 of 2 is dealt", 1)[0]
    assert "The game was cancelled by Player." in old_game
    assert "AI 1 played" not in old_game and "AI 1 drew" not in old_game, old_game
    assert out.count("is dealt") == 1
    assert min(p.name for p in pictures.glob("*.png")).startswith("0001-")


# ----- defect 6: saved pictures ---------------------------------------------------------------


def test_save_png_numbers_on_after_a_resume_and_overwrites_nothing(tmp_path: Path) -> None:
    pictures = tmp_path / "png"
    args = ["play", *SEED3, *db_args(tmp_path), "--save-png", str(pictures)]
    first = rummikub(args, "rack\n", tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    earlier = {p.name: p.read_bytes() for p in pictures.iterdir()}
    assert earlier and min(earlier).startswith("0001-")
    second = rummikub(args, "rack\n", tmp_path)
    assert second.returncode == 0, second.stderr[-2000:]
    for name, data in earlier.items():
        assert (pictures / name).read_bytes() == data, f"{name} was overwritten"
    numbers = sorted(int(p.name[:4]) for p in pictures.iterdir())
    assert numbers == list(range(1, len(numbers) + 1)), numbers  # one sequence, no repeats
    assert len(numbers) > len(earlier)
    saved = re.findall(r"\[image saved: .*?([0-9]{4})-", second.stdout)
    assert int(saved[0]) == len(earlier) + 1


# ----- defect 12: the screen is for the game ---------------------------------------------------


def test_a_dotenv_copied_from_the_example_puts_no_log_lines_on_the_game_screen(
    tmp_path: Path,
) -> None:
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    assert "LOG_LEVEL=INFO" in (tmp_path / ".env").read_text()
    for command in ("play", "run"):
        result = rummikub([command, *SEED3, *db_args(tmp_path, f"{command}.db")], "", tmp_path)
        assert result.returncode == 0, result.stderr[-2000:]
        screen = result.stdout + result.stderr
        assert " INFO " not in screen and "alembic" not in screen, screen[:2000]
        assert "deadline leases are off" not in screen


# ----- defect 18, and 19's quit ---------------------------------------------------------------


def test_hints_off_in_the_terminal_point_to_a_new_match_not_to_a_lobby(tmp_path: Path) -> None:
    result = rummikub(["play", *SEED3, *db_args(tmp_path)], "hint\n", tmp_path)
    answer = result.stdout.split("> ")[1]  # what hint printed
    assert "lobby" not in answer and "settings hints on" not in answer, answer
    assert "Hints are off in this match" in answer and "--new --hints" in answer


def test_a_typo_of_quit_or_exit_suggests_it(tmp_path: Path) -> None:
    result = rummikub(["play", *SEED3, *db_args(tmp_path)], "qiut\nexti\n", tmp_path)
    assert "I don't know the command 'qiut'. Did you mean 'quit'?" in result.stdout
    assert "I don't know the command 'exti'. Did you mean 'exit'?" in result.stdout
    polish = rummikub(
        ["play", *SEED3, *db_args(tmp_path, "pl.db"), "--lang", "pl"], "qiut\n", tmp_path
    )
    assert "Nie znam polecenia 'qiut'. Czy chodziło o 'quit'?" in polish.stdout


# ----- defect 13: numbers out of range ---------------------------------------------------------


def test_a_too_long_number_is_answered_with_the_range_of_that_value(tmp_path: Path) -> None:
    moves = "replay 99999\nsettings timer 99999999\nplay K3 to 99999\n"
    out = rummikub(["play", *SEED3, *db_args(tmp_path)], moves, tmp_path).stdout
    replay, timer, meld = (part.split("\n", 1)[0] for part in out.split("> ")[1:4])
    assert "at most 4" not in replay and "1 (the newest finished game)" in replay, replay
    assert "turn_seconds must be between 10 and 604800" in timer, timer
    assert "at most 4" in meld  # a meld number: four digits are plenty


# ----- defect 20: the screen's layout ----------------------------------------------------------


@pytest.mark.slow
def test_a_timeout_prints_on_a_fresh_line_and_the_prompt_is_drawn_again(tmp_path: Path) -> None:
    session = Session(["play", *SEED3, *db_args(tmp_path), "--timer", "10"], tmp_path)
    start = session.wait_for(r"Player, it's your turn[\s\S]*\n> ")
    session.type("play K3 K4 K5")
    typed = session.wait_for(r"\[K3\] \[K4\] \[K5\][\s\S]*\n> ", after=start)
    end = session.wait_for(r"Your turn[\s\S]*Your rack \(17 tiles[\s\S]*\n> $", after=typed)
    arrived = session.out[typed:end]
    assert arrived.startswith("\nTime ran out for Player in the middle of a change"), arrived
    assert "\r" not in arrived and arrived.count("> ") == 1, arrived  # one prompt, at the end
    session.finish("quit")


def test_pick_shows_the_selection_after_every_place_even_when_it_is_empty(tmp_path: Path) -> None:
    moves = "pick K3 K4 K5\nplace\npick\npick B1\npick B1\ntarget 1\n"
    out = rummikub(["play", *SEED3, *db_args(tmp_path)], moves, tmp_path).stdout
    answers = out.split("> ")[1:7]
    assert "Selected: K3 K4 K5; target: new." in answers[0]
    assert "Nothing is selected (pick R5 R6 selects tiles); target: new." in answers[2]
    assert "Selected: B1; target: new." in answers[3]
    assert "Nothing is selected" in answers[4] and "target: new" in answers[4]
    assert "Nothing is selected" in answers[5] and "target: 1." in answers[5]


def test_sighup_pauses_the_clock_like_quit(tmp_path: Path) -> None:
    """Closing the terminal window (SIGHUP) saves the game and stops its clock too."""
    args = ["play", *SEED3, *db_args(tmp_path), "--timer", "10"]
    first = Session(args, tmp_path)
    first.wait_for(r"Player, it's your turn[\s\S]*\n> ")
    first.proc.send_signal(signal.SIGHUP)
    assert first.proc.wait(timeout=60) == 0, first.errors()
    second = Session(args, tmp_path, env={"RUMMIKUB_TEST_CLOCK_SHIFT": HOUR})
    out = second.finish()
    assert "Time ran out" not in out and left_in_status(out) >= 5
