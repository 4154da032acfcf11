"""glade installed as a user installs it: built into a wheel, installed into a fresh virtual
environment (not editable), once without extras and once with all of them, then each command's
smallest real use, run from a directory outside the checkout.

The distributions are built once for the module the way ``python -m build`` does it: an sdist of
the checkout, then wheels from that sdist in isolated build environments, one with the compiled
engines (mypyc) and RL kernels (Cython), and one with a C compiler that always fails: it installs
and runs the plain source, and says so. pip takes every
dependency from its configured indexes, as for any user.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

import glade
from glade.core import compiled
from tests.live_server import free_port

ROOT = Path(__file__).resolve().parents[2]
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "tests",
    "*.so",
    "_kernels.c",
    "compiled.json",
    "*.sqlite3",
)
BOARD = {"side": "A", "stacks": {"0,0": ["brown", "green"], "1,0": ["blue"], "0,1": ["gray"]}}

# A few steps of each RL environment from fixed seeds, digested: run inside each installed venv
# and in this process (the checkout), the digests must agree, compiled kernels or pure path.
RL_PROBE = """
import hashlib
import gymnasium
import numpy as np
import glade.rl
from glade.rl import harmonies_v0, kernels, living_forest_v0


def probe():
    digest = hashlib.sha256()
    for make in (harmonies_v0.env, living_forest_v0.env):
        env = make(players=2)
        env.reset(seed=7)
        for _ in range(12):
            obs, reward, terminated, truncated, info = env.last()
            digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    solo = gymnasium.make("glade/HarmoniesSolo-v0")
    obs, info = solo.reset(seed=7)
    for _ in range(12):
        digest.update(obs.tobytes() + info["action_mask"].tobytes())
        obs, reward, terminated, truncated, info = solo.step(
            int(np.flatnonzero(info["action_mask"])[0])
        )
    return {"compiled": kernels.COMPILED, "digest": digest.hexdigest()}
"""


def source_version() -> str:
    """``__version__`` as glade/__init__.py writes it (the one place), read without importing."""
    tree = ast.parse((ROOT / "glade" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and "__version__" in ast.unparse(node):
            assert node.value is not None
            return str(ast.literal_eval(node.value))
    raise AssertionError("glade/__init__.py has no __version__")


def user_env(**extra: str) -> dict[str, str]:
    """A user's shell environment: nothing that points at this checkout or its venv."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME") and not k.startswith("GLADE_")
    }
    env.update(extra)
    return env


def run(
    args: Sequence[object], cwd: Path, stdin: str | None = None, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=user_env(),
    )


def play_by_menu(args: Sequence[object], cwd: Path, timeout: float = 600) -> str:
    """Play a terminal game as a person who always picks the first move of the menu: at each
    prompt ask for the ``menu``, then type the first number it shows; skip the save question.
    Returns everything the game printed."""
    import pexpect

    cmd = [str(a) for a in args]
    child = pexpect.spawn(
        cmd[0],
        cmd[1:],
        cwd=str(cwd),
        env=user_env(),
        encoding="utf-8",
        timeout=120,
        dimensions=(48, 160),
    )
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if child.expect([r"> $", r"\(Enter to skip\): $", pexpect.EOF]) == 2:
                seen.append(child.before)
                break
            seen.append(child.before + child.after)
            if "Enter to skip" in child.after:
                child.sendline("")
                continue
            child.sendline("menu")
            child.expect(r"> $")
            menu = child.before
            seen.append(menu + child.after)
            first = re.search(r"(\d+)\)", menu)
            assert first, f"the menu shows no numbered move:\n{menu[-2000:]}"
            child.sendline(first.group(1))
    finally:
        child.close(force=True)
    return "".join(seen)


def ok(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, (
        f"{' '.join(map(str, proc.args))} exited {proc.returncode}:\n"
        f"{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    )
    return proc.stdout


def start_wheel_build(
    source: Path, outdir: Path, isolated: bool = True, **env: str
) -> subprocess.Popen[bytes]:
    """``python -m build --wheel`` of ``source``, in an isolated build environment as for a
    user, or in this venv (which has the build requirements: the dev extra)."""
    outdir.mkdir()
    flags = [] if isolated else ["--no-isolation"]
    with open(outdir / "build.log", "wb") as log:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "build",
                "--wheel",
                *flags,
                "--outdir",
                str(outdir),
                str(source),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=user_env(**env),
        )


def warnings_in(log: str) -> list[str]:
    """The warning lines of a build log (byte-compiling is off in this environment; the compiler's
    command lines name warning options, e.g. -Wno-unknown-warning-option, and are no warning)."""
    return [
        line
        for line in log.splitlines()
        if "warning" in line.lower()
        and "byte-compiling is disabled" not in line
        and not re.match(r"\S*(gcc|cc|clang)\s", line)
    ]


def wheel_of(proc: subprocess.Popen[bytes], outdir: Path) -> Path:
    code = proc.wait(timeout=1200)
    log = (outdir / "build.log").read_text(encoding="utf-8", errors="replace")
    assert code == 0, f"the wheel build failed:\n{log[-3000:]}"
    (wheel,) = outdir.glob("glade-*.whl")
    return wheel


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist of the checkout and two wheels built from it: compiled and pure."""
    work = tmp_path_factory.mktemp("dist")
    tree = work / "checkout"
    shutil.copytree(ROOT, tree, ignore=NOT_SOURCE)
    # the sdist's content does not depend on the build environment: this venv's will do
    sdist_build = [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", work]
    made = run([*sdist_build, tree], work)
    ok(made)
    assert not warnings_in(made.stdout + made.stderr)
    (sdist,) = work.glob("glade-*.tar.gz")
    sources = {}
    for kind in ("compiled", "pure"):  # one unpacked copy each: both builds write build/ in it
        with tarfile.open(sdist) as tar:
            tar.extractall(work / f"src-{kind}", filter="data")
        (sources[kind],) = (work / f"src-{kind}").iterdir()
    compiled = start_wheel_build(sources["compiled"], work / "compiled")
    # no working C compiler: the kernels fail to build and the wheel goes without them
    pure = start_wheel_build(sources["pure"], work / "pure", isolated=False, CC="/bin/false")
    pure_log = work / "pure" / "build.log"
    found = {
        "sdist": sdist,
        "compiled": wheel_of(compiled, work / "compiled"),
        "pure": wheel_of(pure, work / "pure"),
    }
    log = pure_log.read_text(encoding="utf-8", errors="replace")
    assert re.search(r"glade.rl._kernels.*failed", log), log[-3000:]
    assert "the engines were not compiled; glade runs their plain source" in log, log[-3000:]
    # the compiler and setuptools have nothing to say about glade's own files
    log = (work / "compiled" / "build.log").read_text(encoding="utf-8", errors="replace")
    assert not [line for line in warnings_in(log) if "glade" in line]
    return found


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The user's working directory: outside the checkout, so only the install is importable."""
    return tmp_path_factory.mktemp("home")


@contextmanager
def fresh_venv(where: Path, wheel: Path, extras: str = "") -> Iterator[Path]:
    """A fresh virtual environment with ``wheel`` and its ``extras`` installed by pip; removed
    afterwards (with every extra it holds 1.3 GB)."""
    try:
        ok(run([sys.executable, "-m", "venv", where], where.parent))
        # bytecode is compiled on first import, not for each of torch's and ray's files now
        spec = f"{wheel}[{extras}]" if extras else str(wheel)
        ok(run([where / "bin" / "pip", "install", "--no-compile", spec], where.parent))
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


def site_packages(env: Path) -> Path:
    (site,) = (env / "lib").glob("python3*/site-packages")
    return site


def assert_installed_from_wheel(env: Path, home: Path) -> None:
    """glade is imported from the venv's site-packages, installed by pip from a wheel file."""
    probe = (
        "import glade, json, importlib.metadata as m; d = m.distribution('glade'); "
        "print(json.dumps([glade.__file__, d.version, d.read_text('direct_url.json')]))"
    )
    path, version, direct_url = json.loads(ok(run([env / "bin" / "python", "-c", probe], home)))
    site = site_packages(env)
    assert Path(path).is_relative_to(site), path
    assert version == source_version() == glade.__version__
    url = json.loads(direct_url)
    assert url["url"].endswith(".whl"), url
    assert not url.get("dir_info", {}).get("editable", False), url
    assert not list(site.glob("__editable__*")), "glade is installed editable"
    lines = ok(run([env / "bin" / "glade", "--version"], home)).splitlines()
    assert lines[0] == f"glade {version}" and lines[1].startswith("engines: "), lines


def assert_extra_refusal(proc: subprocess.CompletedProcess[str], extra: str) -> None:
    """Exit code 2 and one sentence naming the extra to install, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"pip install 'glade[{extra}]'" in lines[0], lines[0]


def final_scores(out: str, seats: int) -> list[int]:
    """The final score of each seat from a terminal game's end screen: the numbers of the
    "Total" row of the breakdown printed after "game over" (colours stripped)."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    ends = [m.end() for m in re.finditer(r"game over", plain, flags=re.I)]
    assert ends, f"the game did not end:\n{plain[-3000:]}"
    for line in plain[ends[-1] :].splitlines():
        if re.match(r"\s*total\b", line, flags=re.I):
            scores = [int(x) for x in re.findall(r"\d+", line)]
            assert len(scores) == seats, f"not one total per seat: {line!r}"
            return scores
    raise AssertionError(f"no Total row after game over:\n{plain[-3000:]}")


def rl_probe(env: Path, home: Path) -> dict[str, Any]:
    script = RL_PROBE + "\nimport json\nprint(json.dumps(probe()))\n"
    found: dict[str, Any] = json.loads(ok(run([env / "bin" / "python", "-c", script], home)))
    return found


@pytest.fixture(scope="module")
def expected_rl_digest() -> str:
    """The RL probe's digest computed by this checkout's glade.rl."""
    namespace: dict[str, Any] = {}
    exec(RL_PROBE, namespace)  # noqa: S102 - our own probe, run here as in the venvs
    digest: str = namespace["probe"]()["digest"]
    return digest


@contextmanager
def serving(env: Path, home: Path) -> Iterator[str]:
    """``glade serve`` of ``env`` on a free loopback port, until its page answers; then stopped."""
    port = free_port()
    proc = subprocess.Popen(
        [str(env / "bin" / "glade"), "serve", "--port", str(port)]
        + ["--db", f"sqlite:///{home / 'glade.sqlite3'}"],
        cwd=home,
        env=user_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise AssertionError(f"glade serve exited {proc.returncode}: {err}")
            try:
                if httpx.get(base + "/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "glade serve did not answer within 120 s"
            time.sleep(0.2)
        yield base
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def test_the_distributions_carry_what_they_need(dists: dict[str, Path]) -> None:
    with tarfile.open(dists["sdist"]) as tar:
        sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for needed in (
        "setup.py",
        "pyproject.toml",
        "README.md",
        "glade/rl/_kernels.pyx",
        "glade/rl/_kernels.pyi",
        "glade/harmonies/data/harmonies-cards.json",
        "glade/web/index.html",
    ):
        assert needed in sdist, f"the sdist lacks {needed}"
    assert "glade/rl/_kernels.c" not in sdist, "the sdist carries a generated C file"

    wheels = {k: set(zipfile.ZipFile(dists[k]).namelist()) for k in ("compiled", "pure")}
    for names in wheels.values():
        for needed in (
            "glade/py.typed",
            "glade/rl/_kernels.pyi",
            "glade/harmonies/data/harmonies-cards.json",
            "glade/living_forest/data/living-forest-cards.json",
            "glade/web/index.html",
            "glade/web/js/main.js",
            "glade/web/js/pages/table.js",  # the client's modules in their layers
            "glade/web/js/base/i18n.js",
            "glade/web/i18n/en.json",
        ):
            assert needed in names, f"a wheel lacks {needed}"
        assert not any(n.endswith((".pyx", ".c")) for n in names)
    assert any(re.fullmatch(r"glade/rl/_kernels\..*\.so", n) for n in wheels["compiled"])
    assert not any(n.endswith(".so") for n in wheels["pure"]), "CC=/bin/false built a kernel"
    # the engines compiled, all of them, beside their source and its digests
    for module in compiled.MODULES:
        path = module.replace(".", "/")
        assert any(re.fullmatch(rf"{path}\..*\.so", n) for n in wheels["compiled"]), module
        assert f"{path}.py" in wheels["compiled"] and f"{path}.py" in wheels["pure"], module
    assert any(re.fullmatch(r"glade/engines__mypyc\..*\.so", n) for n in wheels["compiled"])
    assert "glade/core/compiled.json" in wheels["compiled"]
    assert "glade/core/compiled.json" not in wheels["pure"] | sdist


@pytest.fixture
def plain(dists: dict[str, Path], tmp_path: Path) -> Iterator[Path]:
    """``pip install`` of the pure wheel, no extras."""
    with fresh_venv(tmp_path / "plain", dists["pure"]) as env:
        yield env


@pytest.fixture
def full(dists: dict[str, Path], tmp_path: Path) -> Iterator[Path]:
    """``pip install 'glade[all]'`` of the compiled wheel."""
    with fresh_venv(tmp_path / "all", dists["compiled"], "all") as env:
        yield env


def test_without_extras(
    plain: Path, dists: dict[str, Path], home: Path, expected_rl_digest: str
) -> None:
    """A plain install of the pure wheel: every command works or names its extra; adding the rl
    extra afterwards runs glade.rl on its pure-Python path."""
    env = plain
    glade_ = env / "bin" / "glade"
    python = env / "bin" / "python"
    assert_installed_from_wheel(env, home)
    engines = ok(run([glade_, "--version"], home)).splitlines()[1]
    assert engines == "engines: plain source (not compiled)"

    board = home / "board.json"
    board.write_text(json.dumps(BOARD), encoding="utf-8")
    scored = json.loads(ok(run([glade_, "harmonies", "score", board], home)))
    assert scored == json.loads(json.dumps(glade.score_board(BOARD)))
    assert scored["total"] > 0

    for game, games in (("harmonies", 3), ("living-forest", 2)):
        out = ok(run([glade_, "bench", game, "--games", games], home))
        report = json.loads(out.strip().splitlines()[-1])
        assert (report["games"], report["engines"]) == (games, "plain source (not compiled)")

    report = home / "arena.json"
    arena = [glade_, "arena", "harmonies", "--bots", "random,greedy", "--games", "2"]
    ok(run([*arena, "--quiet", "--json", report], home))
    played = json.loads(report.read_text(encoding="utf-8"))
    assert (played["games"], len(played["results"]["scores"])) == (2, 2)
    ok(run([glade_, "arena", "pool", report, "--json", home / "pooled.json"], home))
    assert (home / "pooled.json").exists()

    # a person at seat 0 who always answers with the first listed move, against a random bot
    human = play_by_menu(
        [glade_, "play", "harmonies", "--seats", "you,random", "--seed", "3"], home
    )
    assert all(score >= 0 for score in final_scores(human, 2))
    bots = run([glade_, "play", "living-forest", "--seats", "random,greedy", "--seed", "2"], home)
    final_scores(ok(bots), 2)

    assert_extra_refusal(run([glade_, "serve", "--port", "1"], home), "server")
    assert_extra_refusal(run([python, "-m", "glade.server", "--port", "1"], home), "server")
    assert_extra_refusal(run([*arena, "--quiet", "--ray", "local"], home), "ray")
    ok(run([python, "-c", "import glade.server, glade.bots, glade.arena"], home))
    no_rl = run([python, "-c", "import glade.rl"], home)
    assert no_rl.returncode != 0
    assert no_rl.stderr.strip().splitlines()[-1] == (
        "glade.extras.MissingExtra: glade.rl needs the rl extra, which is not installed "
        "(no gymnasium): pip install 'glade[rl]'"
    )

    ok(run([env / "bin" / "pip", "install", "--no-compile", f"{dists['pure']}[rl]"], home))
    assert rl_probe(env, home) == {"compiled": False, "digest": expected_rl_digest}


def test_with_all_extras(full: Path, home: Path, expected_rl_digest: str) -> None:
    """``pip install 'glade[all]'`` of the compiled wheel: the server, RL on the compiled
    kernels, the arena on Ray, PyTorch."""
    env = full
    glade_ = env / "bin" / "glade"
    assert_installed_from_wheel(env, home)
    assert ok(run([glade_, "--version"], home)).splitlines()[1] == "engines: compiled (mypyc)"
    bench = ok(run([glade_, "bench", "harmonies", "--games", "3"], home)).splitlines()[-1]
    assert json.loads(bench)["engines"] == "compiled (mypyc)"
    assert rl_probe(env, home) == {"compiled": True, "digest": expected_rl_digest}

    with serving(env, home) as base:
        page = httpx.get(base + "/", timeout=10)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assets = re.findall(r'(?:src|href)="(?!data:|https?:)([^"]+)"', page.text)
        assert assets, page.text[:500]
        for asset in assets:
            assert httpx.get(f"{base}/{asset.lstrip('/')}", timeout=10).status_code == 200, asset
        api = httpx.get(base + "/openapi.json", timeout=10)
        assert api.status_code == 200 and api.json()["paths"], api.text[:500]

    report = home / "ray.json"
    ok(
        run(
            [glade_, "arena", "harmonies", "--bots", "random,greedy", "--games", "2"]
            + ["--ray", "local", "--quiet", "--json", report],
            home,
        )
    )
    on_ray = json.loads(report.read_text(encoding="utf-8"))
    assert (on_ray["games"], on_ray["timing"]["backend"]) == (2, "ray")
    torch_sum = "import torch; print(int(torch.arange(5).sum()))"
    assert ok(run([env / "bin" / "python", "-c", torch_sum], home)).strip() == "10"


def test_versions_agree() -> None:
    """One version: glade/__init__.py, read by setuptools (pyproject.toml) and printed by
    ``glade --version``."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dynamic = \["version"\]', pyproject, flags=re.M)
    assert 'version = { attr = "glade.__version__" }' in pyproject
    assert not re.search(r'^version = "', pyproject, flags=re.M)
    assert glade.__version__ == source_version()
