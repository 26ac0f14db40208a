"""Find the message templates in source files by reading their syntax tree (no imports run).

A template is the literal first argument of ``Msg(...)``, the two literal forms of
``Plural(count, one, other)`` (one id: ``one|other``) or a literal passed to ``translate(...)``
(either branch of ``translate("a" if x else "b")`` too).
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRANSLATE_NAMES = {"translate", "tr"}


def blanks(template: str) -> set[str]:
    """The ``{names}`` a template fills in."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _literals(node: ast.expr) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def templates(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, template id)`` for every template written in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = _callee(node)
        if name == "Msg" or name in TRANSLATE_NAMES:
            for literal in _literals(node.args[0]):
                yield node.lineno, literal
        elif name == "Plural" and len(node.args) >= 3:
            one, other = node.args[1], node.args[2]
            if isinstance(one, ast.Constant) and isinstance(other, ast.Constant):
                yield node.lineno, f"{one.value}|{other.value}"


def template_ids(paths: list[Path]) -> dict[str, str]:
    """Every template id in ``paths`` and where it is first written (``file:line``)."""
    found: dict[str, str] = {}
    for path in paths:
        for line, template in templates(path):
            found.setdefault(template, f"{path.relative_to(ROOT)}:{line}")
    return found
