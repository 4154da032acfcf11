"""glade's optional parts: which pip extra brings which third-party package (pyproject.toml).

A plain ``pip install glade`` has the engines, the bots, ``glade play``, ``glade harmonies
score``, ``glade bench`` and ``glade arena``. The rest needs an extra; when its package is missing,
the command says which extra to install instead of ending in a traceback.
"""

from __future__ import annotations

# top-level module -> the extra (pyproject.toml [project.optional-dependencies]) that installs it
EXTRA_OF: dict[str, str] = {
    "fastapi": "server",
    "starlette": "server",
    "uvicorn": "server",
    "websockets": "server",
    "uvloop": "server",
    "httptools": "server",
    "psycopg": "server",
    "platformdirs": "server",
    "numpy": "rl",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "PIL": "rl",
    "pyspiel": "openspiel",
    "ray": "ray",
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "matplotlib": "train",
}


class MissingExtra(ModuleNotFoundError):
    """An optional dependency is not installed; the message names the extra that brings it."""


def missing_extra(what: str, exc: ModuleNotFoundError) -> ModuleNotFoundError:
    """A ``MissingExtra`` saying which extra ``what`` needs when ``exc`` is about a package of an
    extra; ``exc`` itself otherwise (a missing module of glade's own is a bug, not an extra)."""
    top = (exc.name or "").split(".")[0]
    extra = EXTRA_OF.get(top)
    if extra is None:
        return exc
    return MissingExtra(
        f"{what} needs the {extra} extra, which is not installed (no {top}): "
        f"pip install 'glade[{extra}]'",
        name=top,
    )
