"""Imports point one way: engine <- renderers <- storage <- bot core <- platforms <- cli.

engine is the rules alone; renderers draw engine values; storage keeps engine text forms; the
bot core (manager, commands, i18n, presenter, ...) uses all three but knows no platform; each
platform adapter talks to the core only; the command line wires everything together.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports_of(path: Path) -> set[str]:
    """Every module a file imports by absolute name (inside functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def room_of(module: str) -> str | None:
    """The layer a module of this project belongs to (None: a library)."""
    parts = module.split(".")
    if parts[0] in ("engine", "renderers", "storage"):
        return parts[0]
    if parts[0] != "bot":
        return None
    if len(parts) > 1 and parts[1] in ("cli", "__main__"):
        return "cli"
    if len(parts) > 2 and parts[1] == "platforms":
        return "platforms." + parts[2].removesuffix(".py")
    if len(parts) > 1 and parts[1] == "platforms":
        return "platforms"
    return "core"


ALLOWED = {
    "engine": {"engine"},
    "renderers": {"engine", "renderers"},
    "storage": {"engine", "storage"},
    "core": {"engine", "renderers", "storage", "core"},
    "platforms": {"engine", "renderers", "storage", "core"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> list[Path]:
    return [
        path
        for package in ("engine", "renderers", "storage", "bot")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def allowed_for(here: str) -> set[str] | None:
    """The layers a layer may import (None: the command line, which wires them all)."""
    if here == "cli":
        return None
    if here.startswith("platforms."):  # one platform: the core, itself, never another
        return {"engine", "renderers", "storage", "core", "platforms", here}
    return ALLOWED[here]


def test_imports_point_one_way() -> None:
    wrong = {}
    for path in sources():
        here = room_of(module_name(path))
        assert here is not None
        allowed = allowed_for(here)
        if allowed is None:
            continue
        rooms = {room_of(name) for name in imports_of(path)} - {None}
        bad = sorted(str(room) for room in rooms if room not in allowed)
        if bad:
            wrong[str(path.relative_to(ROOT))] = bad
    assert wrong == {}


def test_the_layout_a_newcomer_expects() -> None:
    bot = ROOT / "bot"
    for room in ("cli", "i18n", "manager", "platforms/discord", "platforms/telegram"):
        assert (bot / room / "__init__.py").is_file(), room
    assert (bot / "platforms" / "terminal.py").is_file()
    flat = sorted(p.name for p in bot.glob("*.py"))
    assert not [name for name in flat if name.startswith(("cli_", "i18n_"))], flat
    for path in (bot / "manager").glob("*.py"):
        text = path.read_text()
        assert text.startswith('"""'), path
        assert len(text.splitlines()) < 700, path
