"""Engine throughput for both games, for comparing releases: ``python benchmarks/engine_speed.py``.

Prints one JSON line per configuration (complete uniformly random games on one core).
"""

from __future__ import annotations

import argparse
import json

import glade
from glade.core.bench import run_bench

CONFIGS = [
    ("harmonies", {"players": 2, "side": "A", "spirits": False}),
    ("harmonies", {"players": 4, "side": "B", "spirits": True}),
    ("harmonies", {"players": 1, "side": "A", "spirits": False}),
    ("living-forest", {"players": 2}),
    ("living-forest", {"players": 4}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, options in CONFIGS:
        try:
            glade.game_class(name)
        except ImportError:
            continue
        print(json.dumps(run_bench(name, args.games, args.seed, options)))


if __name__ == "__main__":
    main()
