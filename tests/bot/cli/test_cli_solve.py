"""``rummikub solve`` through the real console entry point, one position and batches."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_one_position_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--table", "R4 R5 R6 / K9 B9 O9", "--rack", "R7 K9 J")
    assert code == 0
    assert out.startswith("Places 2 tiles worth 37: R7 J")
    assert "R4 R5 R6 R7" in out


def test_one_position_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--table", "K7 B7 O7 R7 / K8 K9 K10", "--rack", "K5 K6 B1", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["tiles"] == 2 and data["placed"] == ["K5", "K6"]
    assert ["K5", "K6", "K7"] in data["table"]
    assert data["explain"] == "New set K5 K6 K7 with K7 from meld 1."


def test_value_objective_and_opening(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--rack", "K1 K2 K4 B13 O13 J", "--objective", "value", "--json")
    assert code == 0 and sorted(json.loads(out)["placed"]) == ["B13", "J", "O13"]
    code, out, _ = run(capsys, "--rack", "R10 R11 R12 K1", "--opening", "--threshold", "34")
    assert code == 1 and "No initial meld worth 34" in out
    code, out, _ = run(capsys, "--rack", "R10 R11 R12 J", "--opening", "--json")
    assert json.loads(out)["value"] == 46


def test_place_exactly_or_say_what_can(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--table", "R4 R5 R6", "--rack", "R7 K1 R3", "--place", "R7 R3")
    assert code == 0 and "R3 R4 R5 R6 R7" in out
    code, out, _ = run(capsys, "--table", "R4 R5 R6", "--rack", "R7 K1", "--place", "R7 K1")
    assert code == 1 and out.strip() == "Those tiles cannot all be placed; R7 can."


def test_bad_input_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--rack", "Q7")
    assert code == 2 and err.count("\n") == 1 and "is not a tile" in err
    code, _, err = run(capsys, "--table", "R4 R5", "--rack", "R7")
    assert code == 2 and "Table meld 1" in err


def test_batch_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        {"id": "a", "table": [["R4", "R5", "R6"], ["K9", "B9", "O9"]], "rack": ["R7", "K9", "J"]},
        {"id": 7, "table": [], "rack": ["R1", "K13"]},
        {"id": "j", "table": [["K5", "B5", "O5", "J"]], "rack": ["R7", "R8", "R9"]},
    ]
    path = tmp_path / "positions.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\nnot json\n")
    code, out, _ = run(capsys, "--batch", str(path))
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 1  # one unreadable line
    assert [r["id"] for r in results] == ["a", 7, "j", 5]
    assert results[0]["tiles"] == 2 and sorted(results[0]["placed"]) == ["J", "R7"]
    assert results[1] == {**results[1], "tiles": 0, "placed": [], "value": 0}
    assert results[2]["tiles"] == 3 and ["K5", "B5", "O5", "J=R5"] in results[2]["table"]
    assert results[3] == {"id": 5, "error": "Line 5: not a JSON object."}
    for r in results[:3]:
        assert set(r) == {"id", "tiles", "value", "table", "placed", "ms"}


def test_batch_from_stdin_through_the_console_script() -> None:
    line = json.dumps({"id": 1, "table": [["B5", "B6", "B7"]], "rack": ["B8", "B4"]})
    done = subprocess.run(
        [sys.executable, "-m", "bot", "solve", "--batch", "-"],
        input=line + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    result = json.loads(done.stdout)
    assert result["tiles"] == 2 and result["table"] == [["B4", "B5", "B6", "B7", "B8"]]
    assert io.StringIO(done.stderr).read() == ""


def test_more_copies_than_the_box_holds_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "--rack", "R1 R1 R1")
    assert code == 2 and out == ""
    assert err.strip() == (
        "The table and rack name 3 R1 tiles, but the classic box has only 2 "
        "(the xp box: --edition xp)."
    )
    code, _, err = run(capsys, "--table", "R1 R2 R3 / J K5 K6", "--rack", "R1 R1 J J")
    assert code == 2 and "3 R1 tiles" in err
    code, _, err = run(capsys, "--table", "K5 K6 J", "--rack", "J J")
    assert code == 2 and "3 jokers, but the classic box has only 2" in err
    code, out, _ = run(capsys, "--rack", "R1 R1 R1 K1", "--edition", "xp")
    assert code == 1 and "No rack tile can be placed" in out  # three R1 exist in the xp box
    path = tmp_path / "batch.jsonl"
    path.write_text(
        json.dumps({"id": "a", "rack": ["R1", "R1", "R1"]})
        + "\n"
        + json.dumps({"id": "b", "rack": ["R1", "R2", "R3", "R1", "R1"], "edition": "xp"})
        + "\n"
    )
    code, out, _ = run(capsys, "--batch", str(path))
    first, second = (json.loads(line) for line in out.splitlines())
    assert code == 1 and "only 2" in first["error"] and second["tiles"] == 3


def test_one_tile_placed_is_said_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--table", "R4 R5 R6", "--rack", "R7 K1")
    assert code == 0 and out.startswith("Places 1 tile worth 7: R7"), out
    assert "tile(s)" not in out


def test_batch_takes_table_and_rack_as_the_command_language_strings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = [
        {"id": "a", "table": "R4 R5 R6 / K9 B9 O9", "rack": "R7 K9 J"},
        {"id": "b", "table": ["R4 R5 R6", "K9 B9 O9"], "rack": ["R7", "K9", "J"]},
        {"id": "c", "table": [["R4", "R5", "R6"], ["K9", "B9", "O9"]], "rack": "R7 K9 J"},
    ]
    path = tmp_path / "strings.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    code, out, _ = run(capsys, "--batch", str(path))
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0, results
    assert [r["tiles"] for r in results] == [2, 2, 2]
    assert results[0]["table"] == results[1]["table"] == results[2]["table"]


def test_a_batch_line_in_the_wrong_shape_says_the_format_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = [
        {"id": "n", "table": 5, "rack": "R7"},
        {"id": "m", "table": [["R4", "R5", "R6"], 7], "rack": "R7"},
        {"id": "r", "rack": {"R7": 1}},
        {"id": "t", "rack": "R7 R8 R9", "threshold": "lots"},
        {"id": "o", "rack": "R7 R8 R9", "objective": "fun"},
    ]
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    code, out, _ = run(capsys, "--batch", str(path))
    errors = [json.loads(line)["error"] for line in out.splitlines()]
    assert code == 1 and len(errors) == 5
    assert errors[0] == (
        'Line 1: "table" is melds in one string ("R4 R5 R6 / K9 B9 O9") or a list of melds, '
        'each a string ("R4 R5 R6") or a list of tiles (["R4", "R5", "R6"]).'
    )
    assert errors[1].startswith('Line 2: "table" is melds in one string')
    assert errors[2] == (
        'Line 3: "rack" is tiles in one string ("R7 K9 J") or a list of tiles (["R7", "K9", "J"]).'
    )
    assert errors[3] == "Line 4: \"threshold\" is a whole number from 0 to 100, not 'lots'."
    assert errors[4] == 'Line 5: "objective" is "tiles" or "value", not \'fun\'.'
    assert all("character" not in e for e in errors)


def test_solve_help_shows_the_batch_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert '{"id": "a", "table": "R4 R5 R6 / K9 B9 O9", "rack": "R7 K9 J"}' in out
