"""``rummikub render``: the command users and the docs use to draw a table, a rack or a game."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.cli import render as cli_render
from bot.cli.samples import SAMPLES
from engine import Game
from tests.renderers.pixels import decode


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="rummikub render")
    cli_render.configure(parser)
    return cli_render.main(parser.parse_args(list(argv)))


def test_table_and_rack_to_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "table.png"
    code = run(
        "--table", "R4 R5 R6 / K9 B9 O9", "--rack", "R7 J", "--theme", "dark", "--out", str(out)
    )
    assert code == 0
    image = decode(out.read_bytes())
    assert image.width == 1200
    assert f"wrote {out}" in capsys.readouterr().out


def test_table_only_prints_text_without_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--table", "R4 R5 R6 / K9 B9 O9 / J R8 R9", "--highlight", "R8 R9", "--emoji") == 0
    text = capsys.readouterr().out
    assert " 1. 🟥R4 🟥R5 🟥R6" in text
    assert " 3. 🃏J=R7 🟥[R8] 🟥[R9]" in text


def test_rack_only(tmp_path: Path) -> None:
    out = tmp_path / "rack.png"
    assert run("--rack", "R7 K1 B5 J", "--sort", "number", "--positions", "--out", str(out)) == 0
    assert decode(out.read_bytes()).height > 100


def test_snapshot_table_rack_and_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(3, seed=7)
    game.draw()
    snap = tmp_path / "game.txt"
    snap.write_text(game.to_text(), encoding="utf-8")
    out = tmp_path / "snap.png"
    assert run("--snapshot", str(snap), "--names", "Ann,Ben", "--out", str(out), "--text") == 0
    text = capsys.readouterr().out
    assert "Rummikub · turn 2" in text and "Player 3" in text
    assert decode(out.read_bytes()).width == 1200
    assert run("--snapshot", str(snap), "--seat", "1", "--out", str(tmp_path / "r.png")) == 0
    assert run("--snapshot", str(snap), "--result") == 2
    assert "not over yet" in capsys.readouterr().err


def test_bad_input_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--table", "R4 X5 R6") == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rummikub render: Meld 1: 'X5'")
    assert err.count("\n") == 0
    assert run() == 2
    assert "Say what to draw" in capsys.readouterr().err
    assert run("--table", "R4 R5 R6", "--highlight", "K1") == 2
    assert "not on the table" in capsys.readouterr().err


def test_samples_of_two_languages_share_a_folder(tmp_path: Path) -> None:
    assert run("--samples", str(tmp_path)) == 0
    assert run("--samples", str(tmp_path), "--lang", "pl") == 0
    assert run("--samples", str(tmp_path), "--lang", "pl", "--theme", "dark") == 0
    names = {p.name for p in tmp_path.iterdir()}
    assert len(names) == 3 * len(SAMPLES)
    for name in SAMPLES:
        stem = name.removesuffix(".png")
        english = decode((tmp_path / name).read_bytes())
        polish = decode((tmp_path / f"{stem}-pl.png").read_bytes())
        assert english.tobytes() != polish.tobytes(), name  # nothing overwritten
        assert (tmp_path / f"{stem}-dark-pl.png").exists()


def test_more_copies_of_a_tile_than_the_edition_has_is_said_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("--table", "K9 K9 K9", "--text") == 2
    err = capsys.readouterr().err.strip()
    assert "appears twice" not in err
    assert err == (
        "rummikub render: The table and rack name 3 K9 tiles, but the classic box has only 2 "
        "(the xp box: --edition xp)."
    )
    assert run("--table", "K9 K10 K11", "--rack", "K1 J J J", "--text") == 2
    assert "3 jokers, but the classic box has only 2" in capsys.readouterr().err
    assert run("--table", "K9 K9 K9", "--edition", "xp", "--text") == 0
    assert "K9 appears twice" in capsys.readouterr().out  # three exist: the group is wrong


def test_names_without_a_snapshot_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("--table", "R4 R5 R6", "--names", "Ann,Ben", "--text") == 2
    err = capsys.readouterr().err
    assert err == (
        "rummikub render: --names names the seats of a saved game, so it needs --snapshot.\n"
    )


def test_an_out_file_that_cannot_be_written_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    assert run("--table", "R4 R5 R6", "--out", str(blocked / "table.png")) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rummikub render: cannot write {blocked / 'table.png'}: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_options_that_do_not_apply_are_refused_not_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    snap = tmp_path / "game.txt"
    snap.write_text(Game.new(2, seed=7).to_text(), encoding="utf-8")
    for argv, said in (
        (["--table", "R4 R5 R6", "--positions"], "--positions numbers a rack drawn alone"),
        (["--snapshot", str(snap), "--edition", "xp"], "a saved game knows its box"),
        (["--snapshot", str(snap), "--positions"], "give --seat N"),
    ):
        assert run(*argv) == 2, argv
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
