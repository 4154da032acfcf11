"""The compiled engines against their plain source (glade/core/compiled.py).

The plain source is the oracle: random games of both games, played in this process on the build
the install made (compiled where a C compiler was there, as ``make`` installs it) and in a
subprocess with ``GLADE_PURE=1`` (the plain source), must give the same legal moves, refusals,
states and results at every step; the rules' own tests pass on the plain build as they do here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import glade
from glade.core import compiled

ROOT = Path(__file__).resolve().parents[2]
PURE = bool(os.environ.get(compiled.ENV))

# Random games of every mode; at every step the legal ids, a sample of refusals (code, params)
# and, now and then, the state's full JSON and the view go into one digest.
PLAY = """
import hashlib, json, random
import glade

def digest():
    out = hashlib.sha256()
    modes = [("harmonies", {"players": p, "side": s, "spirits": sp})
             for p in (1, 2, 3, 4) for s in ("A", "B") for sp in (False, True)]
    modes += [("living-forest", {"players": p}) for p in (2, 3, 4)]
    for name, options in modes:
        for seed in range(3):
            game = glade.new_game(name, seed=seed, **options)
            rng = random.Random(seed)
            size = len(game.action_table())
            step = 0
            while not game.is_over:
                seat = rng.choice(game.to_act)
                ids = game.legal_action_ids(seat) or game.legal_action_ids(game.to_act[0])
                seat = seat if game.legal_action_ids(seat) else game.to_act[0]
                out.update(repr((seat, ids)).encode())
                for code in rng.sample(range(size), 6):
                    why = game.why_illegal(seat, code)
                    out.update(repr(None if why is None else (why.code, why.params)).encode())
                if step % 17 == 0:
                    out.update(game.fingerprint().encode())
                    out.update(json.dumps(game.view(seat), sort_keys=True).encode())
                    game = game.copy()
                game.apply_action_id(seat, rng.choice(ids))
                step += 1
            out.update(json.dumps(game.result(), sort_keys=True).encode())
            out.update(game.fingerprint().encode())
    return out.hexdigest()
"""


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k != compiled.ENV}
    out.update(extra)
    return out


def run_python(code: str, **extra: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
        env=env(**extra),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_this_checkout_runs_the_compiled_engines() -> None:
    """``make`` installs glade compiled: a plain build here would make the comparison moot."""
    if PURE:
        pytest.skip(f"{compiled.ENV} is set: this run is the plain build")
    assert compiled.compiled(), compiled.status()
    assert compiled.status() == "compiled (mypyc)"
    for module in compiled.MODULES:
        loaded = sys.modules.get(module) or __import__(module, fromlist=["x"])
        assert not str(loaded.__file__).endswith(".py"), module


def test_glade_pure_imports_every_compiled_module_as_its_source() -> None:
    code = (
        "import importlib, json, glade\nfrom glade.core import compiled\n"
        "print(json.dumps([compiled.status()] + "
        "[importlib.import_module(m).__file__ for m in compiled.MODULES]))"
    )
    status, *files = json.loads(run_python(code, **{compiled.ENV: "1"}))
    assert status == f"plain source ({compiled.ENV} is set)"
    assert [Path(f).suffix for f in files] == [".py"] * len(compiled.MODULES)


def test_both_builds_play_the_same_games() -> None:
    namespace: dict[str, object] = {}
    exec(PLAY, namespace)  # noqa: S102 - the same script as the subprocess runs
    here = namespace["digest"]()  # type: ignore[operator]
    plain = run_python(PLAY + "\nprint(digest())", **{compiled.ENV: "1"}).strip()
    assert here == plain


def test_an_edited_source_runs_as_plain_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module whose source changed since it was compiled would run stale code: the digests
    the build recorded say so, and the plain source runs instead."""
    # the plain build's run of these tests sets it
    monkeypatch.delenv(compiled.ENV, raising=False)
    root = tmp_path / "glade"
    (root / "core").mkdir(parents=True)
    for module in compiled.MODULES:
        path = compiled.source_path(module, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {module}\n", encoding="utf-8")
    assert compiled.why_plain(root) is None  # no digests recorded: nothing to compare
    digests = {m: compiled.digest(compiled.source_path(m, root)) for m in compiled.MODULES}
    (root / "core" / compiled.MANIFEST).write_text(json.dumps(digests), encoding="utf-8")
    assert compiled.why_plain(root) is None
    edited = compiled.MODULES[-1]
    compiled.source_path(edited, root).write_text("# edited\n", encoding="utf-8")
    assert compiled.why_plain(root) == f"{edited} changed since it was compiled"
    os.environ[compiled.ENV] = "1"
    try:
        assert compiled.why_plain(root) == f"{compiled.ENV} is set"
    finally:
        del os.environ[compiled.ENV]


def test_the_rules_tests_pass_on_the_plain_build() -> None:
    """The conformance suite, the scoring oracle and every rules test, on the plain source."""
    if PURE:
        pytest.skip(f"{compiled.ENV} is set: this run is the plain build already")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-p", "no:cacheprovider"]
        + ["tests/harmonies", "tests/living_forest", "tests/core"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
        env=env(**{compiled.ENV: "1"}),
    )
    assert proc.returncode == 0, proc.stdout[-4000:]
    # pyproject's addopts give one -q, so the summary line says "N passed".
    assert " passed" in proc.stdout and "failed" not in proc.stdout, proc.stdout[-4000:]


def test_version_and_bench_say_which_build_runs() -> None:
    for extra in ({}, {compiled.ENV: "1"}):
        status = json.loads(
            run_python(
                "import json; from glade.core import compiled; import glade.harmonies.game;"
                " print(json.dumps(compiled.status()))",
                **extra,
            )
        )
        proc = subprocess.run(
            [sys.executable, "-m", "glade.cli", "--version"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env=env(**extra),
        )
        assert proc.stdout.splitlines() == [f"glade {glade.__version__}", f"engines: {status}"]
        proc = subprocess.run(
            [sys.executable, "-m", "glade.cli", "bench", "harmonies", "--games", "2"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env=env(**extra),
        )
        assert json.loads(proc.stdout.splitlines()[-1])["engines"] == status
    assert (
        json.loads(
            run_python(
                "import json; from glade.core import compiled; import glade;"
                " print(json.dumps(compiled.status()))",
                **{compiled.ENV: "1"},
            )
        )
        == f"plain source ({compiled.ENV} is set)"
    )


def test_make_compiles_an_edited_module_again() -> None:
    """The Makefile's install stamp (the editable install, which compiles) depends on the source
    of every compiled module and on their list, so `make` compiles an edited one again rather
    than leave it to run as plain source."""
    proc = subprocess.run(
        ["make", "--print-data-base", "--question", ".venv/.installed-dev"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    rules = [line for line in proc.stdout.splitlines() if line.startswith(".venv/.installed-dev:")]
    assert len(rules) == 1, proc.stdout[-2000:] + proc.stderr
    needs = set(rules[0].split(":", 1)[1].split("|")[0].split())
    sources = {
        compiled.source_path(m, ROOT / "glade").relative_to(ROOT).as_posix()
        for m in compiled.MODULES
    }
    assert len(sources) == len(compiled.MODULES) > 20
    assert sources | {"glade/core/compiled.py", "glade/rl/_kernels.pyx"} <= needs
