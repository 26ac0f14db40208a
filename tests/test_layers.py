"""Imports point one way: engine <- renderers <- storage <- bot core <- platforms <- cli.

engine is the rules alone; renderers draw engine values; storage keeps engine text forms; the
bot core (manager, commands, i18n, presenter, ...) uses all three but knows no platform; each
platform adapter talks to the core only; the command line wires everything together.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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


# ----- no import circles (issue 22) --------------------------------------------------------


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_names(path: Path, here: str, *, typing_too: bool = True) -> set[str]:
    """Every name a module imports, at module level or inside functions, relative imports
    made absolute; those under ``if TYPE_CHECKING:`` too unless ``typing_too`` is False (a
    circle of type names is still a circle a reader must untangle: declare a Protocol)."""
    found: set[str] = set()
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child) and not typing_too:
                for other in child.orelse:
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        else:
            visit(node)

    visit(ast.parse(path.read_text(), filename=str(path)))
    return found


def import_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports (a name inside a module counts
    as that module; a package's own ``__init__`` is not counted for its submodules)."""
    modules = {module_name(path): path for path in sources()}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for imported in _imported_names(path, name):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a circle (the strongly
    connected components of more than one module, by Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return circles


def _circles_in(package: str) -> list[list[str]]:
    return [
        circle
        for circle in import_circles(import_graph())
        if any(m == package or m.startswith(package + ".") for m in circle)
    ]


def test_the_circle_finder_sees_lazy_imports_and_skips_type_checking_ones(tmp_path: Path) -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_circles(graph) == [["a", "b", "c"]]
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n"
        "    from engine.game import Game\n"
        "def later():\n"
        "    from engine.hints import best_final\n"
        "    import engine.solver\n"
    )
    names = _imported_names(source, "engine.mod", typing_too=False)
    assert {"engine.sibling", "engine.hints.best_final", "engine.solver"} <= names
    assert not any(name.startswith("engine.game") for name in names)
    assert "engine.game.Game" in _imported_names(source, "engine.mod")


@pytest.mark.parametrize("package", ["engine", "renderers", "storage", "bot"])
def test_no_import_circles(package: str) -> None:
    assert _circles_in(package) == []
