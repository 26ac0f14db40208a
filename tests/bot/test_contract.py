"""The one declared contract between the adapters and the game manager (issue 22).

``bot.api.GameService`` is everything an adapter may use of the manager. This reads the
adapters' source (``bot/platforms/``) and fails on a ``getattr`` of the service, and on any
member of the service they use that the contract does not declare; and it checks that
``GameManager`` implements every member the contract declares, and that the tests' stand-in
does too (so an adapter test cannot lean on a member the contract lacks)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.api import GameService
from bot.manager import GameManager
from tests.bot.doubles import StandIn

ROOT = Path(__file__).resolve().parents[2]
PLATFORMS = ROOT / "bot" / "platforms"
SERVICE_NAMES = {"service", "manager"}
"""What adapters call the game service they hold (``self.service``, ``manager``...)."""


def contract() -> set[str]:
    """The members ``GameService`` declares."""
    return {
        name
        for name, _ in inspect.getmembers(GameService)
        if not name.startswith("_") and name in GameService.__dict__
    }


def _is_service(node: ast.AST) -> bool:
    """``service``, ``self.service``, ``self.manager``, ``self.client.service``..."""
    if isinstance(node, ast.Name):
        return node.id in SERVICE_NAMES
    return isinstance(node, ast.Attribute) and node.attr in SERVICE_NAMES


def service_uses(path: Path) -> tuple[list[str], list[tuple[int, str]]]:
    """In one adapter file: the ``getattr`` calls on the service (as source lines), and every
    member read of it (line, name)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    getattrs: list[str] = []
    members: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and node.args
            and _is_service(node.args[0])
        ):
            getattrs.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
        if isinstance(node, ast.Attribute) and _is_service(node.value):
            members.append((node.lineno, node.attr))
    return getattrs, members


ADAPTER_FILES = sorted(PLATFORMS.rglob("*.py"))


def test_the_contract_declares_what_adapters_need() -> None:
    assert {"handle", "set_outbox", "report", "language_for", "completions"} <= contract()


@pytest.mark.parametrize("path", ADAPTER_FILES, ids=lambda p: str(p.relative_to(PLATFORMS)))
def test_no_adapter_uses_the_service_beyond_the_contract(path: Path) -> None:
    getattrs, members = service_uses(path)
    assert getattrs == [], "adapters call what the contract declares, never getattr"
    declared = contract()
    undeclared = [f"line {line}: .{name}" for line, name in members if name not in declared]
    assert undeclared == [], f"{path.name} uses members GameService does not declare"


def test_the_finder_sees_getattr_and_undeclared_members(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text(
        "def f(self, service):\n"
        "    getattr(self.service, 'db', None)\n"
        "    service.tables\n"
        "    self.manager.handle\n"
    )
    getattrs, members = service_uses(source)
    assert getattrs == ["probe.py:2 getattr(self.service, 'db', None)"]
    assert sorted(name for _, name in members) == ["handle", "tables"]


@pytest.mark.parametrize("implementation", [GameManager, StandIn])
def test_every_declared_member_is_implemented(implementation: type) -> None:
    missing = [name for name in sorted(contract()) if not hasattr(implementation, name)]
    assert missing == [], f"{implementation.__name__} lacks {missing}"
    for name in contract():
        declared = inspect.getattr_static(GameService, name)
        implemented = inspect.getattr_static(implementation, name)
        assert isinstance(declared, property) == isinstance(implemented, property), name
        if callable(declared) and not isinstance(declared, property):
            assert inspect.iscoroutinefunction(declared) == inspect.iscoroutinefunction(
                implemented
            ), f"{implementation.__name__}.{name}: async as declared"
