"""docs/rl.md holds the generated reference tables verbatim, so the documented layout is the code's."""

from __future__ import annotations

from pathlib import Path

from glade.rl.harmonies_encoding import HarmoniesEncoder
from glade.rl.reference import reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_the_reference_section_is_current() -> None:
    text = DOC.read_text("utf-8")
    start = text.index("<!-- reference: generated -->\n") + len("<!-- reference: generated -->\n")
    end = text.index("\n<!-- reference: end -->")
    assert text[start:end] == reference()


def test_every_action_index_is_in_a_documented_range() -> None:
    text = DOC.read_text("utf-8")
    for side in ("A", "B"):
        enc = HarmoniesEncoder(2, side)
        covered = set()
        for r in enc.action_ranges():
            span = f"{r.start}" if r.length == 1 else f"{r.start}–{r.start + r.length - 1}"
            assert f"| {span} | `{r.name}` |" in text
            covered.update(range(r.start, r.start + r.length))
        assert covered == set(range(enc.n_actions))
