"""The ``rummikub`` command's options as a user types them: bad values, the default
subcommand, folders that cannot be written (issue 21: defects 5, 10, 11, 13 and 19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.bot.platforms.test_terminal import SEED3, db_args, rummikub

BAD_VALUES = [
    (["--timer", "5"], "--timer 5 is not valid: the turn timer is 10 to 604800 seconds"),
    (["--timer", "99999999"], "--timer 99999999 is not valid: the turn timer is 10 to 604800"),
    (["--threshold", "500"], "--threshold 500 is not valid: the initial meld total is 0 to 100"),
    (["--threshold", "-5"], "--threshold -5 is not valid: the initial meld total is 0 to 100"),
    (["--games", "0"], "--games 0 is not valid: a match is 1 to 20 games"),
    (["--timer", "soon"], "--timer 'soon' is not valid: the turn timer is 10 to 604800"),
    (["--players", "7"], "--players 7 is not valid: a table has 2 to 6 seats"),
    (["--ai", "genius"], "--ai 'genius' is not valid: use easy, medium or hard"),
    (["--name", " "], "--name ' ' is not valid: use 1 to 32 characters"),
]


@pytest.mark.slow
def test_a_bad_option_value_stops_the_command_before_the_saved_game_is_touched(
    tmp_path: Path,
) -> None:
    args = ["play", *SEED3, *db_args(tmp_path)]
    first = rummikub(args, "play K3 K4 K5\n", tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    for extra, said in BAD_VALUES:
        for command in ("play", "run"):
            bad = rummikub([command, *args[1:], "--new", *extra], "", tmp_path)
            assert bad.returncode == 2, (extra, bad.stdout[-500:])
            assert bad.stdout == "", extra
            lines = bad.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"rummikub {command}: {said}"), lines
    resumed = rummikub(args, "", tmp_path)
    assert "Continuing your unfinished game." in resumed.stdout
    assert " 1. [K3] [K4] [K5]" in resumed.stdout  # the draft too: nothing was cancelled


def test_ai_levels_that_do_not_fit_the_seats_are_counted_in_the_singular(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "--players", "2", "--ai", "easy", "hard", "medium"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "rummikub play: 2 seats need 1 AI level (or one for all), not 3: --ai easy hard medium.\n"
    )
    assert main(["play", "--players", "4", "--ai", "easy", "hard"]) == 2
    assert "4 seats need 3 AI levels (or one for all), not 2" in capsys.readouterr().err


@pytest.mark.slow
def test_rummikub_with_options_and_no_subcommand_is_rummikub_run(tmp_path: Path) -> None:
    first = rummikub([*SEED3, *db_args(tmp_path), "--timer", "300", "--hints"], "", tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "No DISCORD_TOKEN or TELEGRAM_TOKEN set" in first.stdout
    assert "Turn timer: 5m 00s; hints: on." in first.stdout
    again = rummikub(["--new", *SEED3, *db_args(tmp_path)], "", tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "The game was cancelled by Player" in again.stdout
    assert "Turn timer: 1m 00s; hints: off." in again.stdout
    assert "invalid choice" not in again.stderr


def test_rummikub_help_still_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert "    run " in out and "    play " in out and "    solve " in out


def test_save_png_into_a_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    for folder in ("/proc/nope", str(blocked), str(blocked / "below")):
        result = rummikub(["play", *SEED3, *db_args(tmp_path), "--save-png", folder], "", tmp_path)
        assert result.returncode == 2, result.stdout[-500:]
        assert result.stdout == ""
        assert "Traceback" not in result.stderr and "CRITICAL" not in result.stderr
        line = result.stderr.strip()
        assert "\n" not in line, result.stderr
        assert line.startswith(f"rummikub play: --save-png {folder}: cannot save images there ")
    assert not (tmp_path / "t.db").exists()  # no game was opened


def test_unknown_options_and_choices_are_one_line_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv, said in (
        (["play", "--lang", "de"], "rummikub play: --lang: invalid choice: 'de'"),
        (["play", "--bogus"], "rummikub: unrecognized arguments: --bogus"),
        (["solve", "--objective", "fun"], "rummikub solve: --objective: invalid choice"),
    ):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(said), err
