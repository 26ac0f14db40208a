"""The Discord adapter's rooms (issue 22): each under 500 lines, each importing only the rooms
before it (ids <- components <- sender <- lookups <- cog <- client), and a cog of at most 40
methods, one slash command each."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from bot.platforms.discord.cog import RummikubCog

ROOT = Path(__file__).resolve().parents[4]
ROOMS = ("ids", "components", "sender", "lookups", "cog", "client")
PACKAGE = ROOT / "bot" / "platforms" / "discord"


def rooms_imported(path: Path) -> set[str]:
    """The rooms of bot.platforms.discord that a file imports (lazily or not)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith("bot.platforms.discord."):
                found.add(name.removeprefix("bot.platforms.discord.").split(".")[0])
    return found


def test_the_package_holds_exactly_the_rooms() -> None:
    assert sorted(p.stem for p in PACKAGE.glob("*.py")) == sorted({*ROOMS, "__init__"})


def test_each_room_imports_only_the_rooms_before_it() -> None:
    for position, room in enumerate(ROOMS):
        imported = rooms_imported(PACKAGE / f"{room}.py")
        assert imported <= set(ROOMS[:position]), f"{room} imports {imported}"
    assert rooms_imported(PACKAGE / "__init__.py") == set()


def test_each_room_is_under_500_lines() -> None:
    for room in ROOMS:
        lines = len((PACKAGE / f"{room}.py").read_text().splitlines())
        assert lines < 500, f"{room}.py has {lines} lines"


def test_the_cog_has_at_most_40_methods() -> None:
    methods = [
        name
        for name, value in vars(RummikubCog).items()
        if inspect.isfunction(value) or hasattr(value, "callback")
    ]
    assert len(methods) <= 40, methods
