"""The browser client's lint (`make lint` runs it): eslint with the import rules of
eslint.config.js. It passes on glade/web/js as it is and fails on an import cycle, on a module that
imports a layer above it or the router, on a page that imports another page, on a fetch outside
net/api.js and on a hook set on window."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from web_support import ROOT

ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ESLINT), "--no-warn-ignored", "glade/web/js"],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the client and the lint's configuration (the installed eslint beside it)."""
    assert ESLINT.exists(), "eslint is not installed: `make lint` installs it (npm ci)"
    tree = tmp_path_factory.mktemp("lint")
    shutil.copytree(ROOT / "glade" / "web" / "js", tree / "glade" / "web" / "js")
    for name in ("eslint.config.js", "package.json"):
        shutil.copy(ROOT / name, tree / name)
    (tree / "node_modules").symlink_to(ROOT / "node_modules")
    return tree


def edited(tree: Path, path: str, add: str) -> tuple[Path, str]:
    """Append ``add`` to a module of the copy; the module and its old text (to put back)."""
    file = tree / "glade" / "web" / "js" / path
    old = file.read_text("utf-8")
    file.write_text(old + add, "utf-8")
    return file, old


def test_the_client_passes_its_lint() -> None:
    assert ESLINT.exists(), "eslint is not installed: `make lint` installs it (npm ci)"
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("path", "add", "rule"),
    [
        # i18n -> format -> i18n: a cycle of two helpers at the bottom
        ("base/i18n.js", 'import { fmt } from "./format.js";\nexport const f = fmt;\n', "cycle"),
        # api -> session -> api
        ("net/api.js", 'import { me } from "./session.js";\nexport const m = me;\n', "cycle"),
        ("base/format.js", 'import { api } from "../net/api.js";\nexport const a = api;\n', "zone"),
        (
            "games/harmonies.js",
            'import { api } from "../net/api.js";\nexport const a = api;\n',
            "zone",
        ),
        (
            "parts/social.js",
            'import { showTable } from "../pages/table.js";\nexport const s = showTable;\n',
            "zone",
        ),
        (
            "pages/lobby.js",
            'import { showTable } from "./table.js";\nexport const s = showTable;\n',
            "page",
        ),
        ("pages/table.js", 'import "../main.js";\n', "zone"),
        ("pages/lobby.js", 'export const get = () => fetch("/api/lobby");\n', "fetch"),
        ("pages/table.js", "window.gladeTable = {};\n", "window"),
    ],
)
def test_the_lint_fails_on_a_broken_rule(copy: Path, path: str, add: str, rule: str) -> None:
    file, old = edited(copy, path, add)
    try:
        done = lint(copy)
    finally:
        file.write_text(old, "utf-8")
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    expected = {
        "cycle": "Dependency cycle detected",
        "zone": "import/no-restricted-paths",
        "page": "a page imports no other page",
        "fetch": "talk to the server through net/api.js",
        "window": "no hooks on window",
    }[rule]
    assert expected in said, said


def test_the_pages_cell_names_are_the_lessons(tmp_path: Path) -> None:
    """A hint's lesson names Harmonies cells as the page's board does (``C1``): hex.js's
    ``cellLabel`` and glade.learn's ``harmonies_page_cell`` agree on every cell of both sides."""
    from glade.harmonies.data import LAYOUTS
    from glade.learn.gains import harmonies_page_cell

    cells = sorted({name for layout in LAYOUTS.values() for name in layout.names})
    hex_js = (ROOT / "glade" / "web" / "js" / "games" / "hex.js").as_uri()
    script = tmp_path / "labels.mjs"
    script.write_text(
        f"import {{ cellLabel }} from {json.dumps(hex_js)};\n"
        f"console.log(JSON.stringify({json.dumps(cells)}.map(cellLabel)));\n",
        encoding="utf-8",
    )
    node = shutil.which("node")
    assert node, "node is missing (make lint installs eslint with it)"
    out = subprocess.run(
        [node, str(script)], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert json.loads(out) == [harmonies_page_cell(c) for c in cells]
    assert len(set(json.loads(out))) == len(cells)  # one name per cell
