"""The documented sample command writes every picture, in both themes."""

from __future__ import annotations

from pathlib import Path

from bot.cli.samples import SAMPLES, main, sample_file_name
from tests.renderers.pixels import decode


def test_samples_command_writes_every_image(tmp_path: Path, capsys: object) -> None:
    assert main([str(tmp_path), "--theme", "light", "--theme", "dark"]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) == 2 * len(SAMPLES)
    assert "table-opening.png" in written and "table-opening-dark.png" in written
    for path in tmp_path.iterdir():
        image = decode(path.read_bytes())
        assert 300 <= image.width <= 1280 and image.height <= 1600


def test_docs_show_every_sample_in_both_themes() -> None:
    folder = Path(__file__).resolve().parents[2] / "docs" / "images"
    for name in SAMPLES:
        stem = name.removesuffix(".png")
        for file in (name, f"{stem}-dark.png"):
            assert decode((folder / file).read_bytes()).width >= 300, file


def test_docs_show_every_sample_in_polish_beside_the_english_one() -> None:
    folder = Path(__file__).resolve().parents[2] / "docs" / "images"
    for name in SAMPLES:
        polish = folder / sample_file_name(name, lang="pl")
        assert polish.name.endswith("-pl.png")
        assert decode(polish.read_bytes()).width >= 300, polish.name
