"""The locked install: requirements/run.txt and requirements/dev.txt pin every package with its
hashes, agree with each other and with pyproject.toml, and are what the two README commands
install, on a fresh clone too."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def pins(lock: Path) -> dict[str, tuple[str, int]]:
    """Each package's pinned version and how many hashes it has."""
    found: dict[str, tuple[str, int]] = {}
    current = ""
    for line in lock.read_text().splitlines():
        match = PIN.match(line)
        if match:
            current = str(canonicalize_name(match.group(1)))
            found[current] = (match.group(2), 0)
        elif line.strip().startswith("--hash=sha256:") and current:
            version, hashes = found[current]
            found[current] = (version, hashes + 1)
        elif line and not line.startswith((" ", "#")):
            raise AssertionError(f"{lock.name}: not a pinned requirement: {line!r}")
    return found


def project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]  # type: ignore[no-any-return]


def test_every_locked_package_is_pinned_with_hashes_and_both_locks_agree() -> None:
    run, dev = pins(ROOT / "requirements/run.txt"), pins(ROOT / "requirements/dev.txt")
    assert run and dev
    assert all(hashes > 0 for _, hashes in [*run.values(), *dev.values()])
    mismatched = {
        name: (v, dev.get(name)) for name, (v, _) in run.items() if dev.get(name, ("",))[0] != v
    }
    assert not mismatched, f"run.txt and dev.txt disagree: {mismatched}"
    # the build tools are locked too: the project is built without build isolation
    assert {"setuptools", "wheel", "mypy"} <= set(run)


def test_the_locks_satisfy_pyproject_so_they_are_not_stale() -> None:
    run, dev = pins(ROOT / "requirements/run.txt"), pins(ROOT / "requirements/dev.txt")
    meta = project()
    wanted = [(Requirement(r), run) for r in meta["dependencies"]]  # type: ignore[attr-defined]
    extras = meta["optional-dependencies"]["dev"]  # type: ignore[index]
    wanted += [(Requirement(r), dev) for r in extras]
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    wanted += [(Requirement(r), run) for r in build]  # built without isolation, from the lock
    for requirement, lock in wanted:
        name = str(canonicalize_name(requirement.name))
        assert name in lock, f"{name} is in pyproject.toml but not locked: run bash scripts/lock"
        assert requirement.specifier.contains(lock[name][0], prereleases=True), requirement


def test_this_venv_holds_exactly_the_locked_versions() -> None:
    """scripts/test installed .venv from requirements/dev.txt: what the tests run with is the
    locked set (a venv set up some other way is not checked)."""
    stamp = ROOT / ".venv" / ".scripts-test-stamp"
    if not stamp.exists() or Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        pytest.skip("this .venv was not set up by scripts/test")
    installed = {
        str(canonicalize_name(d.metadata["Name"])): d.version for d in metadata.distributions()
    }
    locked = pins(ROOT / "requirements/dev.txt")
    different = {
        name: (version, installed.get(name))
        for name, (version, _) in locked.items()
        if installed.get(name) != version
    }
    assert not different, different


@pytest.mark.slow
def test_the_first_scripts_run_on_a_fresh_clone_says_what_it_installs_and_for_how_long(
    tmp_path: Path,
) -> None:
    """Issue 21, defect 21: the first start looked hung (a minute and a half of installing with
    no line of its own). It installs from the lock, and says so."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH"))}
    env["RUMMIKUB_SOLVER"] = "pure"  # the compile is not what this checks
    result = subprocess.run(
        ["bash", "scripts/run", "--help"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    said = [line for line in result.stderr.splitlines() if line.startswith("scripts/run:")]
    assert said[0].startswith("scripts/run: creating .venv"), said
    assert said[1].startswith("scripts/run: installing the ")
    assert "locked packages of requirements/run.txt" in said[1] and "about a minute" in said[1]
    assert said[-1].startswith("scripts/run: .venv is ready (")
    assert "usage: rummikub run" in result.stdout
    listed = subprocess.run(
        [str(clone / ".venv/bin/python"), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    installed = {
        str(canonicalize_name(line.split("==")[0])): line.split("==")[1]
        for line in listed.splitlines()
        if "==" in line
    }
    locked = pins(clone / "requirements/run.txt")
    assert {n: v for n, (v, _) in locked.items()} == {
        n: v for n, v in installed.items() if n not in ("pip", "rummikub-bot")
    }
    # a second start installs nothing and says nothing about it
    again = subprocess.run(
        ["bash", "scripts/run", "--help"], cwd=clone, env=env, capture_output=True, text=True
    )
    assert again.returncode == 0
    assert not [line for line in again.stderr.splitlines() if line.startswith("scripts/run:")]
