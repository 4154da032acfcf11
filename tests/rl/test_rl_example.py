"""The training example runs end to end at a tiny size."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import torch

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_harmonies_solo.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_harmonies_solo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_training_updates_the_policy() -> None:
    example = load_example()
    torch.manual_seed(0)
    run = example.train(minutes=1.0, max_steps=240, batch=4, update_every=1, hidden=16)
    assert run["steps"] >= 240 and run["updates"] >= 1 and run["episodes"] >= 1
    torch.manual_seed(0)  # train() seeds torch with 0 before building its policy: same start
    fresh = example.MaskedPolicy(*_sizes(example), hidden=16)
    trained = run["policy"].state_dict()
    assert any(not torch.equal(trained[k], v) for k, v in fresh.state_dict().items())
    score = example.play_policy(run["policy"], 5, "A")
    assert score >= 0


def _sizes(example: ModuleType) -> tuple[int, int, np.ndarray]:
    enc = example.HarmoniesEncoder(1, "A")
    return enc.size, enc.n_actions, enc.high


def test_the_example_prints_its_scores(capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
    code = example.main(
        ["--max-steps", "300", "--batch", "4", "--update-every", "2", "--eval-games", "2"]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert re.search(r"trained \d+ moves, \d+ games, [1-9]\d* updates", out)
    assert re.search(r"trained policy\s+\d+\.\d", out)
    assert re.search(r"random\s+\d+\.\d", out)
    assert re.search(r"greedy\s+(\d+\.\d|not available)", out)
