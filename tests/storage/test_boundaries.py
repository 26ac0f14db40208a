from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATABASE_LIBRARIES = {"sqlmodel", "sqlalchemy", "alembic", "aiosqlite", "asyncpg"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_only_storage_talks_to_the_database_libraries() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path) & DATABASE_LIBRARIES)
        for package in ("engine", "renderers", "bot")
        for path in sorted((ROOT / package).rglob("*.py"))
        if imported_roots(path) & DATABASE_LIBRARIES
    }
    assert offenders == {}


def test_storage_depends_on_nothing_above_it() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path) & {"bot", "renderers"})
        for path in sorted((ROOT / "storage").rglob("*.py"))
        if imported_roots(path) & {"bot", "renderers"}
    }
    assert offenders == {}
