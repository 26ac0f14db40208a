"""Renderers depend only on the standard library, Pillow and the engine (never on bot/ or
storage/), so they can run anywhere a snapshot can be read."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ALLOWED = {"PIL", "engine", "renderers"}


def test_renderers_import_only_pillow_engine_and_stdlib() -> None:
    folder = Path(__file__).resolve().parents[2] / "renderers"
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in ALLOWED or top in sys.stdlib_module_names, f"{path.name}: {name}"
