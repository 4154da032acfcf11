"""Which build of the engines runs: the compiled one or the plain source.

The engines' hot modules (``MODULES``: the rules of both games, the bots' search, the benchmark
loop) are compiled once into C extensions by mypyc when glade is installed (``setup.py``), from
the same Python source that stays beside them. The plain source runs instead, module for module,
when

* nothing was compiled (an install without a C compiler: the build warns and goes on);
* ``GLADE_PURE`` is set in the environment (the tests' oracle: the plain source against the
  compiled build, ``tests/core/test_builds.py``);
* a compiled module's source changed since it was compiled (an editable install being edited):
  the build records each source's digest in ``compiled.json`` beside this module, and a module
  whose source no longer has that digest would run stale code.

``glade --version`` and ``glade bench`` say which build runs (``status``). This module is plain
Python (never compiled) and imports only the standard library: ``glade.core`` runs ``activate``
before it imports anything that may be compiled.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

# the modules setup.py compiles (all or none), in dependency order
MODULES: Final[tuple[str, ...]] = (
    "glade.core.chance",
    "glade.core.game",
    "glade.core.bench",
    "glade.harmonies.data",
    "glade.harmonies.scoring",
    "glade.harmonies.moves",
    "glade.harmonies.game",
    "glade.living_forest.data",
    "glade.living_forest.space",
    "glade.living_forest.state",
    "glade.living_forest.score",
    "glade.living_forest.draw",
    "glade.living_forest.attract",
    "glade.living_forest.extinguish",
    "glade.living_forest.move",
    "glade.living_forest.plant",
    "glade.living_forest.steal",
    "glade.living_forest.round_end",
    "glade.living_forest.choose",
    "glade.living_forest.turn",
    "glade.living_forest.rules",
    "glade.living_forest.snapshot",
    "glade.living_forest.hidden",
    "glade.living_forest.save",
    "glade.living_forest.view",
    "glade.living_forest.game",
    "glade.bots.adapter",
    "glade.bots.mcts",
    "glade.bots.harmonies_eval",
    "glade.bots.harmonies_greedy",
    "glade.bots.harmonies_search",
)
MANIFEST: Final = "compiled.json"  # {module: sha256 of its source}, written by the build
ENV: Final = "GLADE_PURE"
PACKAGE_ROOT: Final = Path(__file__).resolve().parents[1]  # the folder of the glade package


def source_path(module: str, root: Path = PACKAGE_ROOT) -> Path:
    """The source file of one of ``MODULES`` under the glade package folder ``root``."""
    parts = module.split(".")
    return root.joinpath(*parts[1:]).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def why_plain(root: Path = PACKAGE_ROOT) -> str | None:
    """Why the plain source must run although modules may be compiled (None: nothing stops the
    compiled modules; whether they exist is ``status``'s business)."""
    if os.environ.get(ENV):
        return f"{ENV} is set"
    manifest = root / "core" / MANIFEST
    if not manifest.exists():
        return None
    recorded: dict[str, str] = json.loads(manifest.read_text("utf-8"))
    for module, known in recorded.items():
        path = source_path(module, root)
        if not path.exists() or digest(path) != known:
            return f"{module} changed since it was compiled"
    return None


class SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the listed modules as their ``.py`` source, never as a compiled extension."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules or not path:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, loader).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


REASON: str | None = None  # why the plain source runs, once ``activate`` decided it must


def activate() -> None:
    """Put the plain source first for every compiled module when it must run (``why_plain``).
    Called by ``glade.core`` before anything compiled is imported; a second call does nothing."""
    global REASON
    if any(isinstance(f, SourceFirst) for f in sys.meta_path):
        return
    REASON = why_plain()
    if REASON is not None:
        sys.meta_path.insert(0, SourceFirst(MODULES))


def compiled() -> bool:
    """Whether the engines run compiled: ``glade.core.game`` (compiled with all the others, or
    with none) was loaded from an extension module."""
    module = sys.modules.get("glade.core.game")
    origin = getattr(module, "__file__", None) or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def status() -> str:
    """One line: which build of the engines runs, and why the plain source if it does."""
    if compiled():
        return "compiled (mypyc)"
    return f"plain source ({REASON or 'not compiled'})"


__all__ = [
    "ENV",
    "MANIFEST",
    "MODULES",
    "SourceFirst",
    "activate",
    "compiled",
    "digest",
    "source_path",
    "status",
    "why_plain",
]
