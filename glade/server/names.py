"""User names by the standards: PRECIS (RFC 8264/8265) and Unicode's confusables (UTS #39).

An account's name is prepared with the PRECIS ``UsernameCasePreserved`` profile (width mapping,
NFC, no disallowed code points; ``precis-i18n``) and compared in the ``UsernameCaseMapped`` form
(the same, lower-cased), so ``Ｚｏｅ`` and ``zoe`` are one name. On top of that, two names that
look alike are one name: their *confusable skeleton* (UTS #39 section 4: every character replaced
by the prototype of its confusable class, from Unicode's ``confusables.txt`` as the
``confusable-homoglyphs`` package ships it) is the same. A name's skeletons are taken of the name as
written, lower-cased and upper-cased, and two names look alike when any of them is shared, so a
look-alike of another case of a name is a look-alike too: ``Zoe3377`` (Latin), ``Zое3377``
(Cyrillic о and е) and ``Ζοe3377`` (Greek capital zeta and omicron) share the skeleton of their
capitals, ``mario`` and ``rnario`` that of their lower case.

``confusables.txt`` maps each confusable character to its class's prototype; the package keeps the
pairs without their direction, so the classes are rebuilt as the connected parts of its graph and
each is given one representative: its prototype when that is a sequence (``rn`` for ``m``), else
its first member in code point order. Equal skeletons, not the representatives themselves, are
what the server compares, so any fixed choice within a class gives the same answer.

Pure functions only: the storage's migration computes the skeletons of existing accounts with them.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from importlib import resources

from precis_i18n import get_profile

USER_NAME_MIN, USER_NAME_MAX = 3, 24
NAME_PUNCTUATION = "_-."

_PRESERVED = get_profile("UsernameCasePreserved")
_MAPPED = get_profile("UsernameCaseMapped")
_MARKS = "\u200e\u200f"  # the direction marks the package's data keeps around right-to-left text


class NameRefused(ValueError):
    """A user name the rules refuse: ``code`` names the rule (a refusal code's last part)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def prepared(name: str) -> str:
    """The name as stored and shown: PRECIS ``UsernameCasePreserved`` (NameRefused: not a
    PRECIS user name), holding only letters, marks, digits and ``_ - .``, with at least one
    letter or digit, of the allowed length."""
    if len(name) > 4 * USER_NAME_MAX:
        raise NameRefused("name_length")
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise NameRefused("name_control")
    for ch in unicodedata.normalize("NFC", name):
        if not (unicodedata.category(ch)[0] in "LMN" or ch in NAME_PUNCTUATION):
            raise NameRefused("name_chars")
    try:
        out: str = _PRESERVED.enforce(name)
    except UnicodeError:
        raise NameRefused("name_form") from None
    if not any(unicodedata.category(ch)[0] in "LN" for ch in out):
        raise NameRefused("name_letter")
    if not USER_NAME_MIN <= len(out) <= USER_NAME_MAX:
        raise NameRefused("name_length")
    return out


def case_mapped(name: str) -> str:
    """The PRECIS ``UsernameCaseMapped`` form of a prepared name (how names are compared)."""
    found: str = _MAPPED.enforce(name)
    return found


def name_key(name: str) -> str:
    """The case-insensitive key under which an account's name is looked up at log-in (kept as it
    was before the PRECIS rules, so every existing account still logs in)."""
    return unicodedata.normalize("NFKC", name).casefold()


@lru_cache(maxsize=1)
def _representatives() -> dict[str, str]:
    """Each confusable character -> its class's representative (see the module)."""
    text = (
        resources.files("confusable_homoglyphs")
        .joinpath("confusables.json")
        .read_text(encoding="utf-8")
    )
    pairs: dict[str, list[dict[str, str]]] = json.loads(text)
    graph: dict[str, set[str]] = {}
    for key, entries in pairs.items():
        a = key.strip(_MARKS)
        for entry in entries:
            b = entry["c"].strip(_MARKS)
            if a and b and a != b:
                graph.setdefault(a, set()).add(b)
                graph.setdefault(b, set()).add(a)
    out: dict[str, str] = {}
    seen: set[str] = set()
    for start in sorted(graph):
        if start in seen:
            continue
        members, todo = [], [start]
        seen.add(start)
        while todo:
            node = todo.pop()
            members.append(node)
            for other in graph[node]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        sequences = sorted(m for m in members if len(m) > 1)
        rep = sequences[0] if sequences else min(members)
        for member in members:
            if len(member) == 1:
                out[member] = rep
    return out


def _one_pass(text: str) -> str:
    table = _representatives()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def skeleton(text: str) -> str:
    """The confusable skeleton of ``text`` (UTS #39 section 4, with this module's
    representatives)."""
    for _ in range(8):  # a representative may itself hold mapped characters: to a fixed point
        mapped = _one_pass(text)
        if mapped == text:
            break
        text = mapped
    return unicodedata.normalize("NFC", text)


def skeletons(name: str) -> set[str]:
    """The skeletons of a prepared name as written, lower-cased and upper-cased: two names that
    share one look alike and cannot both be accounts."""
    return {skeleton(name), skeleton(case_mapped(name)), skeleton(name.upper())}
