"""The glossary test's own check of forbidden variants, loaded from tests/web/test_i18n_glossary.py
(not copied), applied to the rules and tutorial texts with their game's scope."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"


def _load() -> Callable[[str, str, str], list[str]]:
    if str(WEB) not in sys.path:
        sys.path.insert(0, str(WEB))  # the glossary test imports its neighbour web_support
    spec = importlib.util.spec_from_file_location(
        "glade_glossary_test", WEB / "test_i18n_glossary.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found: Callable[[str, str, str], list[str]] = module.violations
    return found


violations = _load()


def forbidden(game: str, lang: str, where: str, text: str) -> list[str]:
    """The forbidden variants in ``text``: the glossary test's ``violations`` with a key of the
    game's scope (``harmonies.…`` or ``living-forest.…``)."""
    return violations(lang, f"{game}.learn.{where}", text)
