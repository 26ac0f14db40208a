"""The house's size limits (CONTRIBUTING.md): no class in ``bot/`` with more than 40 methods,
no source file of ours over 600 lines (generated code aside), so a room stays readable."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("engine", "renderers", "storage", "bot", "tests", "benchmarks", "scripts")
GENERATED = ("_native", "migrations")  # mypyc's output; Alembic's revision files


def sources() -> list[Path]:
    files = [p for top in SOURCES for p in (ROOT / top).rglob("*.py")]
    return sorted(p for p in files if not set(GENERATED) & set(p.relative_to(ROOT).parts))


def test_the_sources_are_found() -> None:
    found = {p.relative_to(ROOT).as_posix() for p in sources()}
    assert {"bot/manager/service.py", "engine/game.py", "tests/test_sizes.py"} <= found
    assert not any(name.startswith("engine/solver/_native/") for name in found)


def test_no_source_file_is_over_600_lines() -> None:
    long = {
        p.relative_to(ROOT).as_posix(): n
        for p in sources()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert long == {}, f"split these by job: {long}"


def test_no_class_in_bot_has_more_than_40_methods() -> None:
    big: dict[str, int] = {}
    for path in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                methods = [
                    n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                ]
                if len(methods) > 40:
                    big[f"{path.relative_to(ROOT).as_posix()}:{node.name}"] = len(methods)
    assert big == {}, f"compose these of parts: {big}"
