"""The documented sample command writes every picture, in both themes."""

from __future__ import annotations

from pathlib import Path

from renderers.samples import SAMPLES, main
from tests.renderers.pixels import decode


def test_samples_command_writes_every_image(tmp_path: Path, capsys: object) -> None:
    assert main([str(tmp_path), "--theme", "light", "--theme", "dark"]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) == 2 * len(SAMPLES)
    assert "table-opening.png" in written and "table-opening-dark.png" in written
    for path in tmp_path.iterdir():
        image = decode(path.read_bytes())
        assert 300 <= image.width <= 1280 and image.height <= 1600
