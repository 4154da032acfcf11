"""What each Harmonies spirit's formula gives a finished board, on average (SPIRIT_TYPICAL in
glade/bots/harmonies_eval.py): every formula applied to both final boards of 40 greedy 2-player
games (seeds 5000-5039). Run: ``nice -n 19 python benchmarks/spirit_typical.py``."""

from __future__ import annotations

import statistics

from benchmarks_support import finished

from glade.harmonies.data import CARDS
from glade.harmonies.scoring import spirit_points


def main() -> None:
    vals: dict[int, list[int]] = {c.index: [] for c in CARDS if c.spirit}
    for seed in range(5000, 5040):
        g = finished("harmonies", seed)
        for b in g.boards:  # type: ignore[attr-defined]
            for k in vals:
                vals[k].append(spirit_points(b.layout, b.masks, k))
    for k, v in vals.items():
        print(f'    "{CARDS[k].id}": {statistics.mean(v):.1f},  # sd {statistics.pstdev(v):.1f}')


if __name__ == "__main__":
    main()
