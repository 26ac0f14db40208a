"""Every sentence the engine (and the bot's own errors) can show a player has a Polish twin.

The source is read, not imported: each ``Msg(...)`` and each rules error built from a literal
English template is found with ``ast``, and ``bot/i18n/pl_engine.PL`` must hold that template with
the same blanks. A rules error built from an f-string (English baked in) fails the test; only the
programmer errors below may be English text, since a player never sees them (the manager turns
them into its "something went wrong" sentence).
"""

from __future__ import annotations

import ast
import string
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.i18n.pl_engine import PL

ROOT = Path(__file__).resolve().parents[3]
SCANNED = [
    *sorted((ROOT / "engine").glob("*.py")),
    *sorted((ROOT / "engine" / "solver").glob("*.py")),  # (not its generated _native copy)
    ROOT / "bot" / "commands.py",
    *sorted((ROOT / "bot" / "manager").glob("*.py")),
]
PROGRAMMER_ERRORS = {"ValueError", "RuntimeError", "TypeError", "KeyError"}
"""Bad use of the API, never a player's input: these may stay English plain strings."""


@dataclass(frozen=True, slots=True)
class Site:
    where: str
    call: str
    template: str
    names: frozenset[str] | None  # keyword names passed (None: **kwargs, unknown)


def blanks(template: str) -> set[str]:
    """The names a template fills in: ``{tile}`` and ``{text!r}`` give tile and text."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_message_call(name: str) -> bool:
    return name == "Msg" or (name.endswith("Error") and name not in PROGRAMMER_ERRORS)


def _is_built_text(node: ast.expr) -> bool:
    """English assembled in code: an f-string, ``"a" + b``, ``"...".format()``, ``"%s" % x``."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and any(
        isinstance(side, ast.JoinedStr)
        or (isinstance(side, ast.Constant) and isinstance(side.value, str))
        for side in (node.left, node.right)
    ):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and isinstance(node.func.value, ast.Constant)
    )


def scan() -> tuple[list[Site], list[str]]:
    """Literal templates found, and the places that build a player's sentence from code."""
    sites: list[Site] = []
    built: list[str] = []
    for path in SCANNED:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _call_name(node)
            if not _is_message_call(name) or not node.args:
                continue
            first = node.args[0]
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if _is_built_text(first):
                built.append(f"{where} {name}(...)")
            elif isinstance(first, ast.Constant) and isinstance(first.value, str):
                if not first.value:
                    continue
                has_star = any(k.arg is None for k in node.keywords)
                names = None if has_star else frozenset(k.arg for k in node.keywords if k.arg)
                sites.append(Site(where, name, first.value, names))
    return sites, built


SITES, BUILT = scan()


def test_the_scan_finds_the_engine_sentences() -> None:
    templates = {site.template for site in SITES}
    assert len(templates) > 60
    assert "Meld {number}: {reason}" in templates
    assert "{number} is missing" in templates
    assert any(site.where.startswith("bot/") for site in SITES)


def test_no_sentence_a_player_sees_is_built_from_an_f_string() -> None:
    assert BUILT == []


def test_the_scan_would_catch_an_f_string_error() -> None:
    tree = ast.parse('raise IllegalMoveError(f"There is no meld {n}.")')
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert _is_message_call(_call_name(call)) and _is_built_text(call.args[0])
    tree = ast.parse('raise ValueError(f"copy must be >= 0, not {n}")')
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert not _is_message_call(_call_name(call))


@pytest.mark.parametrize("site", SITES, ids=lambda site: site.where)
def test_each_template_is_filled_with_exactly_its_blanks(site: Site) -> None:
    if site.names is not None:
        assert blanks(site.template) == set(site.names), site


@pytest.mark.parametrize("site", SITES, ids=lambda site: site.where)
def test_each_template_has_polish_with_the_same_blanks(site: Site) -> None:
    assert site.template in PL, f"{site.where}: no Polish for {site.template!r}"
    assert blanks(PL[site.template]) == blanks(site.template), site.template
    assert PL[site.template] != site.template or not any(c.isalpha() for c in site.template)


def test_the_polish_table_holds_nothing_the_code_no_longer_says() -> None:
    templates = {site.template for site in SITES}
    assert sorted(set(PL) - templates) == []


def test_every_telegram_menu_entry_has_polish_that_fits() -> None:
    from bot.i18n import pl_menus
    from bot.platforms.telegram.app import GROUP_COMMANDS, PRIVATE_COMMANDS

    for _, text in (*GROUP_COMMANDS, *PRIVATE_COMMANDS):
        assert text in pl_menus.PL, text
    assert all(1 <= len(polish) <= 100 for polish in pl_menus.PL.values())  # Discord's limit
