"""A missing extra, simulated in this process: one sentence naming it, exit code 2 (the slow
``test_install.py`` checks the same in real installs)."""

from __future__ import annotations

import importlib
import sys

import pytest

from glade import cli
from glade.extras import EXTRA_OF, MissingExtra, missing_extra


def test_a_package_of_an_extra_names_the_extra() -> None:
    found = missing_extra(
        "glade serve", ModuleNotFoundError("No module named 'uvicorn'", name="uvicorn")
    )
    assert isinstance(found, MissingExtra) and found.name == "uvicorn"
    assert str(found) == (
        "glade serve needs the server extra, which is not installed (no uvicorn): "
        "pip install 'glade[server]'"
    )
    sub = missing_extra("x", ModuleNotFoundError("", name="ray._private.worker"))
    assert "pip install 'glade[ray]'" in str(sub)


def test_any_other_missing_module_is_left_as_it_is() -> None:
    exc = ModuleNotFoundError("No module named 'glade.nowhere'", name="glade.nowhere")
    assert missing_extra("glade play", exc) is exc
    assert missing_extra("glade play", ModuleNotFoundError("no name")).name is None


def test_every_extra_named_exists_in_pyproject() -> None:
    import tomllib
    from pathlib import Path

    extras = tomllib.loads(
        (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    )["project"]["optional-dependencies"]
    # the distribution a module comes in, where its name differs from the module's
    dist = {
        "PIL": "pillow",
        "pyspiel": "open_spiel",
        "sb3_contrib": "sb3-contrib",
        "stable_baselines3": "stable-baselines3",
    }
    for module, extra in EXTRA_OF.items():
        assert extra in extras, module
        name = dist.get(module, module)
        assert any(req.lower().startswith(name) for req in extras[extra]) or module in (
            "starlette",  # comes with fastapi
        ), (module, extra)


def test_glade_serve_without_the_server_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # importing it raises ModuleNotFoundError
    assert cli.main(["serve", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "glade: glade serve needs the server extra, which is not installed (no uvicorn): "
        "pip install 'glade[server]'\n"
    )


def test_glade_arena_on_ray_without_the_ray_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    argv = ["arena", "harmonies", "--bots", "random,random", "--games", "1", "--quiet"]
    assert cli.main([*argv, "--ray", "local"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("glade: glade arena needs the ray extra")
    assert err[-1].endswith("pip install 'glade[ray]'")


def test_import_glade_rl_without_the_rl_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "glade.rl", raising=False)
    with pytest.raises(MissingExtra, match=r"glade\.rl needs the rl extra.*glade\[rl\]"):
        importlib.import_module("glade.rl")
