"""The solver's research probes still run against the search they patch (issue 27): a change
to ``Search.best``'s signature broke ``benchmarks/probe_prices.py`` once without a test noticing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("prices", ["aimed", "first"])
def test_probe_prices_bounds_searches_and_keeps_their_answers(prices: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "probe_prices.py"),
            "--count",
            "12",
            "--seed",
            "2026",
            "--prices",
            prices,
            "--steps",
            "5",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "same answer on 2 of 2", done.stdout
    # Each position's line: its nodes without and with the bound.
    counted = [line for line in lines if line.startswith("m2026-") and " -> " in line]
    assert len(counted) == 2, done.stdout
