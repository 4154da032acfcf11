"""``Catalogue.text`` builds a template without a plural spec with ``str.format_map`` (in C), and
one with a plural spec from its parts parsed once: for every code of every catalogue, the same
sentence as the refusal formatter, or the same error."""

from __future__ import annotations

from typing import Any

from glade.core.errors import FORMATTER
from glade.core.refusals import all_catalogues

SAMPLES: list[Any] = [0, 1, 2, 17, "green", "a b", "0,-1", ["x", "y"], 2.5, None]


def test_every_template_reads_the_same_through_format_map_and_the_formatter() -> None:
    checked = plural = 0
    for catalogue in all_catalogues():
        for code in catalogue:
            template = catalogue[code]
            fields = catalogue.fields(code)
            plural += code not in catalogue._plain
            for sample in SAMPLES:
                params = {field: sample for field in fields}
                try:
                    expected: Any = FORMATTER.vformat(template, (), dict(params))
                except (ValueError, TypeError, KeyError, IndexError) as exc:
                    expected = type(exc)
                try:
                    got: Any = catalogue.text(code, params)
                except (ValueError, TypeError, KeyError, IndexError) as exc:
                    got = type(exc)
                assert got == expected, (code, sample)
                checked += 1
            # a missing parameter is a programming error both ways
            if fields:
                try:
                    catalogue.text(code, {})
                except KeyError:
                    pass
                else:
                    raise AssertionError(f"{code} built a sentence without its params")
    assert checked > 1000 and plural > 5
    assert sum(len(c._parsed) for c in all_catalogues()) == plural  # every plural one parsed
