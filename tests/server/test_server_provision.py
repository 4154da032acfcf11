"""The one provisioning step (``make system``, ``.ci/provision.sh``): it runs no apt-get at all
when every system package is there (a held dpkg lock once failed a CI run before any test), and
one update and one install of exactly what is missing otherwise.

The script runs on a made-up system: ``GLADE_SYSROOT`` holds its files (chromium, PostgreSQL's
initdb) and a PATH of stand-ins holds its commands (``fc-list``, ``caddy``, ``id``, and an
``apt-get`` that writes down how it was called).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "provision.sh"
EVERYTHING = {"chromium", "fonts", "caddy", "postgresql"}


def system(tmp_path: Path, present: set[str], uid: int = 0) -> tuple[Path, Path, Path]:
    """A system holding ``present``: its root, its PATH folder, and apt-get's call record."""
    root, bin_, calls = tmp_path / "root", tmp_path / "bin", tmp_path / "apt-get.calls"
    bin_.mkdir()
    for tool in ("grep",):
        found = shutil.which(tool)
        assert found is not None
        (bin_ / tool).symlink_to(found)

    def command(name: str, body: str) -> None:
        (bin_ / name).write_text(f"#!/bin/sh\n{body}\n", "utf-8")
        (bin_ / name).chmod(0o755)

    command("id", f"echo {uid}")
    command("apt-get", f'echo "$*" >> "{calls}"')
    if "chromium" in present:
        (root / "usr" / "bin").mkdir(parents=True)
        (root / "usr" / "bin" / "chromium").write_text("#!/bin/sh\n", "utf-8")
        (root / "usr" / "bin" / "chromium").chmod(0o755)
    if "postgresql" in present:
        initdb = root / "usr" / "lib" / "postgresql" / "17" / "bin" / "initdb"
        initdb.parent.mkdir(parents=True)
        initdb.write_text("#!/bin/sh\n", "utf-8")
    if "fonts" in present:
        command("fc-list", "echo '/usr/share/fonts/wqy-zenhei.ttc: WenQuanYi Zen Hei'")
    if "caddy" in present:
        command("caddy", "exit 0")
    root.mkdir(exist_ok=True)
    return root, bin_, calls


def provision(root: Path, bin_: Path) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash is not None
    env = {"PATH": str(bin_), "GLADE_SYSROOT": str(root), "HOME": os.environ.get("HOME", "/")}
    return subprocess.run(
        [bash, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_nothing_missing_runs_no_apt_get(tmp_path: Path) -> None:
    root, bin_, calls = system(tmp_path, EVERYTHING)
    done = provision(root, bin_)
    assert done.returncode == 0, done.stderr
    assert not calls.exists() and done.stderr == ""


@pytest.mark.parametrize(
    ("present", "installed"),
    [
        (set(), "chromium fonts-wqy-zenhei caddy postgresql"),
        (EVERYTHING - {"caddy"}, "caddy"),
        (EVERYTHING - {"fonts", "postgresql"}, "fonts-wqy-zenhei postgresql"),
    ],
)
def test_what_is_missing_is_installed_in_one_step(
    tmp_path: Path, present: set[str], installed: str
) -> None:
    root, bin_, calls = system(tmp_path, present)
    done = provision(root, bin_)
    assert done.returncode == 0, done.stderr
    update, install = calls.read_text("utf-8").splitlines()
    # it waits for a held dpkg lock instead of failing on it
    assert update == "-o DPkg::Lock::Timeout=600 update -qq"
    assert install == f"-o DPkg::Lock::Timeout=600 install -y -qq {installed}"


def test_a_missing_package_without_root_says_what_to_install(tmp_path: Path) -> None:
    root, bin_, calls = system(tmp_path, EVERYTHING - {"chromium"}, uid=1000)
    done = provision(root, bin_)
    assert done.returncode == 1
    assert "apt-get install chromium" in done.stderr
    assert not calls.exists()
