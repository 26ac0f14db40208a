"""Which build of the solver to use: the same source compiled with mypyc, when the install
built it from exactly these files, else the pure-Python modules (docs/solver.md, "Speed").

``setup.py`` compiles a copy of this package as ``engine.solver._native`` (imports rewritten)
and records ``source_hash`` of the files it was made from. A copy built from other files (an
edited checkout, an editable install) is never used, and ``RUMMIKUB_SOLVER=pure`` turns it
off."""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType, SimpleNamespace

# Modules that are not compiled: the package's own entry point and this chooser.
NOT_COMPILED = ("__init__.py", "native.py")


def source_hash(folder: Path) -> str:
    """A hash of the solver's compiled modules as they are in ``folder``."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        if path.name not in NOT_COMPILED:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled() -> SimpleNamespace | None:
    """The compiled ``api``, ``explain`` and ``model`` modules, or None (not built, built from
    other sources, or turned off)."""
    if os.environ.get("RUMMIKUB_SOLVER", "") == "pure":
        return None
    try:
        source, api, explain, model = (
            importlib.import_module(f"engine.solver._native.{name}")
            for name in ("_source", "api", "explain", "model")
        )
    except ImportError:
        return None
    modules: tuple[ModuleType, ...] = (api, explain, model)
    if any((m.__file__ or "").endswith(".py") for m in modules):
        return None
    if source_hash(Path(__file__).parent) != source.SOURCE_HASH:
        return None
    return SimpleNamespace(api=api, explain=explain, model=model)
