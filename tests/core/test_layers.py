"""The package layers, checked on the source (an AST walk over glade/):

* ``glade.core`` imports nothing above it (no ``glade`` or ``glade.<other package>``; the game
  registry names the engines as data and imports them on first use);
* no package reads another package's private names: a name with a leading underscore is never
  imported from another glade package, nor read as an attribute (``x._name``, ``getattr(x,
  "_name")``) in a package that does not define it when another glade package does.

A package is a first-level folder of glade/ (core, harmonies, living_forest, bots, rl, ...); the
top-level modules (glade/__init__.py, cli.py, ...) are the package "glade".
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import glade

ROOT = Path(glade.__file__).parent


def package_of(root: Path, path: Path) -> str:
    parts = path.relative_to(root).parts
    return parts[0] if len(parts) > 1 else "glade"


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def parse_tree(root: Path) -> dict[Path, ast.Module]:
    return {
        path: ast.parse(path.read_text("utf-8"), str(path)) for path in sorted(root.rglob("*.py"))
    }


def imported_modules(tree: ast.Module, path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a module, wherever it stands."""
    here = list(path.relative_to(root.parent).with_suffix("").parts)
    if here[-1] == "__init__":
        here.pop()
    package = here[:-1] if path.name != "__init__.py" else here
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            # ``from glade.x import y`` may import the module glade.x.y
            out += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
    return out


def upward_imports(root: Path) -> list[str]:
    """Imports in the core package of something of the root package outside core."""
    top = root.name
    found = []
    for path, tree in parse_tree(root).items():
        if package_of(root, path) != "core":
            continue
        for line, name in imported_modules(tree, path, root):
            parts = name.split(".")
            if parts[0] != top:
                continue
            if len(parts) == 1 or parts[1] != "core":  # "glade" itself, or another package
                found.append(f"{path.relative_to(root.parent)}:{line} imports {name}")
    return sorted(set(found))


def defined_names(tree: ast.Module) -> set[str]:
    """Every name a module defines: functions, classes, assigned names and attributes, slots,
    names set through setattr with a literal name."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            out |= {
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            }
        elif isinstance(node, ast.Call) and len(node.args) > 1:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            arg = node.args[1]
            if name in ("setattr", "__setattr__") and isinstance(arg, ast.Constant):
                out.add(str(arg.value))
    return out


def private_reads(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, name) of every private attribute read: ``x._name`` and getattr/hasattr literals."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            out.append((node.lineno, node.attr))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and is_private(node.args[1].value)
        ):
            out.append((node.lineno, node.args[1].value))
    return out


def private_crossings(root: Path) -> list[str]:
    """Every place a package imports or reads a private name of another package."""
    trees = parse_tree(root)
    top = root.name
    defined: dict[str, set[str]] = defaultdict(set)
    for path, tree in trees.items():
        defined[package_of(root, path)] |= defined_names(tree)
    everywhere = set().union(*defined.values()) if defined else set()
    found = []
    for path, tree in trees.items():
        pkg = package_of(root, path)
        where = path.relative_to(root.parent)
        for line, name in imported_modules(tree, path, root):
            parts = name.split(".")
            if parts[0] != top or len(parts) < 2:
                continue
            other = parts[1] if len(parts) > 2 or (root / parts[1]).is_dir() else top
            if other != pkg and any(is_private(p) for p in parts[1:]):
                found.append(f"{where}:{line} imports {name}")
        for line, name in private_reads(tree):
            if name not in defined[pkg] and name in everywhere:
                owners = sorted(p for p, names in defined.items() if name in names)
                found.append(f"{where}:{line} reads {name} of {', '.join(owners)}")
    return sorted(set(found))


def test_core_imports_nothing_above_it() -> None:
    assert upward_imports(ROOT) == []


def test_no_package_reads_another_packages_private_names() -> None:
    assert private_crossings(ROOT) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """Each kind of breach, planted in a small package tree, is reported (and nothing else)."""
    root = tmp_path / "glade"
    files = {
        "__init__.py": "from .core import thing\n",
        "core/__init__.py": "from .game import thing\n",
        "core/game.py": (
            "import json\nfrom glade.core.errors import E\n"
            "class Game:\n    __slots__ = ('_log',)\n    def _check(self): pass\n"
            "def thing(): from glade import registry\n"
        ),
        "core/bench.py": "from ..rules import play\nimport glade.server\n",
        "core/errors.py": "class E(Exception): pass\n",
        "rules/__init__.py": "from glade.core.game import Game, _hidden\nfrom glade.core import _x\n",
        "rules/play.py": (
            "from glade.core.game import Game\nclass G(Game):\n"
            "    def go(self, other):\n        self._check()\n        return other._log, "
            "getattr(other, '_log'), self._own, other._unknown_elsewhere\n"
            "    def __init__(self): self._own = 1\n"
        ),
        "rl/env.py": "from glade.rules import _private_module\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "rl" / "__init__.py").write_text("")
    assert upward_imports(root) == [
        "glade/core/bench.py:1 imports glade.rules",
        "glade/core/bench.py:1 imports glade.rules.play",
        "glade/core/bench.py:2 imports glade.server",
        "glade/core/game.py:6 imports glade",
        "glade/core/game.py:6 imports glade.registry",
    ]
    assert private_crossings(root) == [
        "glade/rl/env.py:1 imports glade.rules._private_module",
        "glade/rules/__init__.py:1 imports glade.core.game._hidden",
        "glade/rules/__init__.py:2 imports glade.core._x",
        "glade/rules/play.py:4 reads _check of core",
        "glade/rules/play.py:5 reads _log of core",
    ]
