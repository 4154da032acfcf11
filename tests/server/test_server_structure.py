"""The server's layers hold: every import goes down (or sideways without a circle), no import hides
inside a function to dodge a circle, and no private name crosses a module.

The layers, bottom to top (docs/server.md draws them):

0. ``config``, ``errors``, ``refusals``, ``names``: settings, error answers, sentences, name rules
1. ``storage``: the database engine and one repository per aggregate
2. ``domain``: tables, their live state and their events
3. ``features``: bots, analysis, clocks, social, ratings, reviews, accounts
4. ``api``: dependencies, one router per feature, the socket, the guard
5. ``app``: the wiring
6. ``cli``, ``__main__``, ``__init__``: the entry points
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "glade" / "server"
PACKAGE = "glade.server"
LAYERS = {
    "config": 0,
    "errors": 0,
    "refusals": 0,
    "names": 0,
    "storage": 1,
    "domain": 2,
    "features": 3,
    "api": 4,
    "app": 5,
    "cli": 6,
    "__main__": 6,
    "__init__": 6,
}
# entry points that import the app only when they serve (``glade --help`` loads no FastAPI)
DEFERRED_OK = {f"{PACKAGE}.cli", PACKAGE}


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts == ["__init__"]:
        return PACKAGE
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def modules(root: Path) -> dict[str, Path]:
    return {module_name(root, p): p for p in sorted(root.rglob("*.py"))}


def layer_of(module: str) -> int:
    if module == PACKAGE:
        return LAYERS["__init__"]
    first = module[len(PACKAGE) + 1 :].split(".")[0]
    return LAYERS[first]


def resolve(
    known: set[str], module: str, path: Path, node: ast.ImportFrom | ast.Import
) -> list[str]:
    """The glade.server modules an import statement names (``from . import x`` names x)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.startswith(PACKAGE)]
    if node.level:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    if not base.startswith(PACKAGE):
        return []
    out = []
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        out.append(candidate if candidate in known else base)
    return out


def imports(root: Path, module: str, path: Path) -> list[tuple[str, bool, int]]:
    """(imported module, inside a function, line) of every import of a glade.server module."""
    known = set(modules(root))
    tree = ast.parse(path.read_text("utf-8"))
    found: list[tuple[str, bool, int]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in resolve(known, module, path, child):
                    found.append((target, nested, child.lineno))
            visit(child, inside)

    visit(tree, False)
    return found


def upward(root: Path) -> list[str]:
    return [
        f"{path.relative_to(root)}:{line} imports {target} (upward)"
        for name, path in modules(root).items()
        for target, _, line in imports(root, name, path)
        if layer_of(target) > layer_of(name)
    ]


def hidden(root: Path) -> list[str]:
    return [
        f"{path.relative_to(root)}:{line} imports {target} inside a function"
        for name, path in modules(root).items()
        if name not in DEFERRED_OK
        for target, nested, line in imports(root, name, path)
        if nested
    ]


def circles(root: Path) -> list[str]:
    graph = {
        name: {t for t, nested, _ in imports(root, name, path) if not nested and t != name}
        for name, path in modules(root).items()
    }
    state: dict[str, int] = {}
    found: list[str] = []

    def walk(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append("import circle: " + " -> ".join([*trail, node, nxt]))
            elif nxt not in state:
                walk(nxt, [*trail, node])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [])
    return found


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def defined_privates(root: Path) -> set[str]:
    """The private names the server's own modules define (functions, classes, variables and
    ``self._x`` attributes)."""
    names: set[str] = set()
    for path in modules(root).values():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return {n for n in names if is_private(n)}


def privates(root: Path) -> list[str]:
    """Uses of a private name of the server's outside its own object: imported, or reached as
    an attribute of anything but ``self``/``cls`` (a library's own, such as ``os._exit``, is
    not the server's)."""
    ours = defined_privates(root)
    wrong = []
    for path in modules(root).values():
        tree = ast.parse(path.read_text("utf-8"))
        where = path.relative_to(root)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                wrong += [
                    f"{where}:{node.lineno} imports {a.name}"
                    for a in node.names
                    if is_private(a.name)
                    and (node.level or (node.module or "").startswith(PACKAGE))
                ]
            if isinstance(node, ast.Attribute) and node.attr in ours:
                owner = node.value.id if isinstance(node.value, ast.Name) else None
                if owner not in ("self", "cls"):
                    wrong.append(f"{where}:{node.lineno} uses .{node.attr}")
    return wrong


def test_every_module_has_a_layer() -> None:
    found = modules(SERVER)
    assert len(found) > 40
    for name in found:
        layer_of(name)  # a KeyError names a module outside every layer


def test_imports_go_down_the_layers() -> None:
    assert not upward(SERVER), "\n".join(upward(SERVER))


def test_no_import_hides_in_a_function() -> None:
    assert not hidden(SERVER), "\n".join(hidden(SERVER))


def test_no_circle_between_modules() -> None:
    assert not circles(SERVER), "\n".join(circles(SERVER))


def test_no_private_name_crosses_a_module() -> None:
    assert not privates(SERVER), "\n".join(privates(SERVER))


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """Each check finds what it looks for in a small tree of modules written here."""
    root = tmp_path / "server"
    for folder in ("storage", "domain", "features"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("", "utf-8")
    (root / "__init__.py").write_text("", "utf-8")
    (root / "domain" / "tables.py").write_text("from . import events\n", "utf-8")
    (root / "domain" / "events.py").write_text("from . import tables\n", "utf-8")
    (root / "features" / "bots.py").write_text("_hidden = 1\n", "utf-8")
    (root / "storage" / "bad.py").write_text(
        "from ..domain import tables\n"
        "def f():\n"
        "    from ..features import bots\n"
        "    return tables, bots, bots._hidden, os._exit\n",
        "utf-8",
    )
    assert [u.split(" imports ")[1] for u in upward(root)] == [
        f"{PACKAGE}.domain.tables (upward)",
        f"{PACKAGE}.features.bots (upward)",
    ]
    assert hidden(root) == [f"storage/bad.py:3 imports {PACKAGE}.features.bots inside a function"]
    assert privates(root) == ["storage/bad.py:4 uses ._hidden"]
    assert len(circles(root)) == 1 and "domain.events" in circles(root)[0]
    assert not upward(SERVER) and not hidden(SERVER) and not privates(SERVER)
