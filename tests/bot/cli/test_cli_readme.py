"""README's ``rummikub`` command table and examples are promises: every flag they name is an
option of that subcommand, every option is documented, and every example runs as written."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import build_parser

ROOT = Path(__file__).resolve().parents[3]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def options_of(parser: argparse.ArgumentParser) -> set[str]:
    names: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):  # rummikub db upgrade|current
            for sub in action.choices.values():
                names |= options_of(sub)
        names.update(o for o in action.option_strings if o.startswith("--"))
    return names - {"--help"}


def table_rows() -> list[tuple[str, str]]:
    """(subcommand, row) for each row of README's ``rummikub`` command table."""
    rows = re.findall(r"^\| `rummikub ([a-z]+)[^\n]*", README, flags=re.MULTILINE)
    lines = [line for line in README.splitlines() if line.startswith("| `rummikub ")]
    return list(zip(rows, lines, strict=True))


def test_every_flag_in_the_readme_command_table_is_an_option_of_its_subcommand() -> None:
    parsers = subcommands()
    rows = table_rows()
    assert {name for name, _ in rows} == set(parsers), "a subcommand without a row"
    for name, row in rows:
        documented = set(FLAG.findall(row))
        assert documented, row
        unknown = documented - options_of(parsers[name])
        assert not unknown, f"README documents {sorted(unknown)} for rummikub {name}"


def test_every_option_of_every_subcommand_is_documented_in_the_readme() -> None:
    documented = set(FLAG.findall(README))
    for name, parser in subcommands().items():
        missing = options_of(parser) - documented
        assert not missing, f"rummikub {name} {sorted(missing)} is not in README.md"


def examples() -> list[str]:
    blocks = re.findall(r"^```sh\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL)
    return [
        line.split("  #", 1)[0].strip()
        for block in blocks
        for line in block.splitlines()
        if re.search(r"(^|\| )rummikub ", line)
    ]


@pytest.mark.parametrize("line", examples())
def test_a_readme_example_runs_as_written(line: str, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-c", line], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300
    )
    assert done.returncode == 0, done.stdout[-1000:] + done.stderr[-1000:]
    assert done.stderr == "" and done.stdout.strip()
