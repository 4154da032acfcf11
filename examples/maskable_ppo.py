"""Train sb3-contrib's MaskablePPO on glade: Harmonies solo, or a 2-player game against greedy.

    PYTHONPATH=. python examples/maskable_ppo.py --minutes 30 --plot docs/maskable-ppo-solo.png
    PYTHONPATH=. python examples/maskable_ppo.py --opponents greedy --minutes 30

Solo: the registered ``glade/HarmoniesSolo-v0`` with normalised observations, its reward the
score gained each move (so an episode's return is the final score). Against bots:
``glade.rl.opponents.OpponentsEnv`` (2-player Harmonies, the other seat played by glade's bot, the
the shaped reward: its own score gained after each of its moves, summing to its final score). MaskablePPO finds
the masks through the envs' ``action_masks()``. The script prints the mean score of the trained
policy (most likely legal move) and of the baselines on evaluation seeds, and with ``--plot``
draws the learning curve (training episodes' scores against moves played) to a PNG.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import glade
import glade.bots
import glade.rl

EVAL_SEED = 1_000_000  # evaluation games use seeds from here, apart from the training seeds


class Curve(BaseCallback):
    """Records every finished training episode's final score; stops at the deadline.

    With ``csv`` the episodes so far are rewritten there with each progress line, and with
    ``checkpoint`` the model is saved there too, so a run stopped from outside keeps its curve
    and its latest weights.
    """

    def __init__(
        self,
        deadline: float,
        csv: Path | None = None,
        checkpoint: Path | None = None,
        points: list[tuple[int, float, float]] | None = None,
    ) -> None:
        super().__init__()
        self.deadline = deadline
        self.csv = csv
        self.checkpoint = checkpoint
        # (moves so far, seconds of training so far, score); a resumed run starts from the
        # earlier run's points and counts its seconds on from the last of them
        self.points: list[tuple[int, float, float]] = list(points or [])
        self.offset = self.points[-1][1] if self.points else 0.0
        self.start = time.monotonic()

    def seconds(self) -> float:
        """Training seconds so far, over the earlier runs too."""
        return self.offset + time.monotonic() - self.start

    def _on_step(self) -> bool:
        if self.num_timesteps % 20_480 == 0 and self.points:  # progress, every 20k moves
            last = [p[2] for p in self.points[-200:]]
            took = self.seconds()
            rate = self.model.policy.optimizer.param_groups[0]["lr"]
            print(
                f"{self.num_timesteps} moves, {took:.0f}s: mean of the last 200 games"
                f" {np.mean(last):.1f} (lr {rate:.2e}, {time.strftime('%H:%M:%S', time.gmtime())}"
                " UTC)",
                flush=True,
            )
            if self.csv is not None:
                write_csv(self.points, self.csv)
            if self.checkpoint is not None:
                self.model.save(self.checkpoint)
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if done:
                self.points.append((self.num_timesteps, self.seconds(), float(info["score"])))
        return time.monotonic() < self.deadline


def linear_lr(
    start: float,
    final: float,
    first: int,
    moves: int,
    minutes: float | None = None,
    clock: Any = time.monotonic,
) -> Any:
    """A learning rate falling linearly from ``start`` to ``final`` over this run's budget:
    ``moves`` moves, or ``minutes`` of training (``clock``'s minutes from now) when given,
    whichever comes first (the rate follows the larger of the two fractions used).

    sb3 calls a schedule with the progress remaining, ``1 - n / (first + moves)`` where ``n``
    counts every move the model has played (``first`` of them before this ``learn()``, as when
    resuming a saved run); so the rate is ``start`` at move ``first`` and ``final`` from move
    ``first + moves`` on (or once the minutes are spent). A run that stops on ``minutes``
    therefore still ends at ``final``. The returned function is pickled with the model.
    """
    total = first + moves
    begun = clock()

    def schedule(progress_remaining: float) -> float:
        played = (1.0 - progress_remaining) * total
        fraction = (played - first) / moves
        if minutes is not None:
            fraction = max(fraction, (clock() - begun) / (60.0 * minutes))
        fraction = min(1.0, max(0.0, fraction))
        return start + fraction * (final - start)

    return schedule


def make_env(opponents: str | None, seed: int = 0) -> gymnasium.Env[Any, Any]:
    if opponents is None:
        return gymnasium.make(glade.rl.SOLO_ID, normalize=True)
    from glade.rl.opponents import OpponentsEnv

    return OpponentsEnv(
        "harmonies",
        players=2,
        opponents=(opponents,),
        normalize=True,
        reward="shaped",
        seed=seed,
    )


def read_csv(path: Path) -> list[tuple[int, float, float]]:
    """The episodes ``write_csv`` wrote: (moves so far, seconds so far, final score)."""
    with path.open() as f:
        rows = list(csv.reader(f))[1:]
    return [(int(r[0]), float(r[1]), float(r[2])) for r in rows]


def write_csv(points: list[tuple[int, float, float]], path: Path) -> None:
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["moves", "seconds", "score"])
        out.writerows(points)


def train(
    minutes: float = 3.0,
    timesteps: int = 10_000_000,
    n_envs: int = 8,
    opponents: str | None = None,
    seed: int = 0,
    n_steps: int = 256,
    batch_size: int = 256,
    n_epochs: int = 4,
    learning_rate: float = 3e-4,
    ent_coef: float = 0.01,
    gamma: float = 0.995,
    net: tuple[int, ...] = (256, 256),
    csv_path: Path | None = None,
    checkpoint: Path | None = None,
    resume: Path | None = None,
    lr_final: float | None = None,
    retune: tuple[str, ...] = (),
) -> tuple[MaskablePPO, Curve]:
    """Train until ``minutes`` pass or ``timesteps`` moves are played.

    With ``lr_final`` the learning rate falls linearly from ``learning_rate`` to ``lr_final``
    over ``timesteps`` moves or ``minutes``, whichever ends first (``linear_lr``); without it,
    it stays ``learning_rate``.

    With ``resume`` (a model saved by an earlier run) its weights, optimiser state, move count
    and hyper-parameters are kept (the ones given here are ignored, apart from ``n_envs`` and
    the names in ``retune``: any of ``"learning_rate"`` (with ``lr_final``, its schedule),
    ``"ent_coef"``, ``"batch_size"``, ``"n_epochs"``, ``"n_steps"``, which take the values given
    here) and training goes on for ``minutes`` or ``timesteps`` more moves; the earlier run's episodes
    are read from ``csv_path`` if it exists, so the curve written there goes on from them. The
    training games continue from seed ``seed`` + the moves already played, not the first run's.
    """
    torch.manual_seed(seed)
    points: list[tuple[int, float, float]] = []
    done = 0
    if resume is not None:
        done = MaskablePPO.load(resume, device="cpu").num_timesteps
        if csv_path is not None and csv_path.exists():
            points = [p for p in read_csv(csv_path) if p[0] <= done]
        seed += done
    env = make_vec_env(
        lambda: make_env(opponents, seed), n_envs=n_envs, seed=seed
    )  # DummyVecEnv: one process
    rate: Any = learning_rate
    if lr_final is not None:
        rate = linear_lr(learning_rate, lr_final, done, timesteps, minutes)
    if resume is not None:
        given = {
            "learning_rate": rate,
            "ent_coef": ent_coef,
            "batch_size": batch_size,
            "n_epochs": n_epochs,
            "n_steps": n_steps,
        }
        unknown = set(retune) - set(given)
        if unknown:
            raise ValueError(f"cannot retune {sorted(unknown)} on resume; only {sorted(given)}.")
        changes = {name: given[name] for name in retune}
        # load() sets these on the model before it builds its rollout buffer and lr schedule
        model = MaskablePPO.load(resume, env=env, device="cpu", **changes)
        model.set_random_seed(seed)
    else:
        model = MaskablePPO(
            "MlpPolicy",
            env,
            n_steps=n_steps,
            batch_size=batch_size,
            n_epochs=n_epochs,
            learning_rate=rate,
            gamma=gamma,
            gae_lambda=0.95,
            ent_coef=ent_coef,
            policy_kwargs={"net_arch": list(net)},
            seed=seed,
            verbose=0,
        )
    curve = Curve(time.monotonic() + minutes * 60, csv_path, checkpoint, points)
    model.learn(total_timesteps=timesteps, callback=curve, reset_num_timesteps=resume is None)
    return model, curve


def play_model(model: MaskablePPO, opponents: str | None, seed: int) -> float:
    """One evaluation game with the policy's most likely legal move; the learner's final score."""
    env = make_env(opponents, seed)
    obs, info = env.reset(seed=seed)
    while True:
        masks = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        obs, _, terminated, truncated, info = env.step(int(action))
        if terminated or truncated:
            return float(info["score"])


def play_bot(spec: str, opponents: str | None, seed: int) -> float:
    """One evaluation game with a registered bot in the learner's seat; its final score."""
    players = 1 if opponents is None else 2
    game = glade.new_game("harmonies", seed=seed, players=players)
    bots = [glade.bots.make_bot(spec, "harmonies", seed=seed)]
    if opponents is not None:
        bots.append(glade.bots.make_bot(opponents, "harmonies", seed=seed + 1))
    while not game.is_over:
        seat = game.to_act[0]
        for action in bots[seat].choose(game, seat):
            game.apply(seat, action)
    return float(game.result()["scores"][0])


def baseline_scores(
    bot: str, opponents: str | None, seeds: list[int], cache: Path | None = None
) -> list[float]:
    """``bot``'s final score on each seed; with ``cache`` (a JSON file) kept between runs.

    A bot's game depends only on the seed, so the greedy baseline, the slow one (about 0.6 CPU
    seconds a solo game), is played once per seed and read back from the cache after that.
    """
    key = f"{bot} vs {opponents}" if opponents else f"{bot} solo"
    known: dict[str, dict[str, float]] = {}
    if cache is not None and cache.exists():
        known = json.loads(cache.read_text())
    table = known.setdefault(key, {})
    missing = [s for s in seeds if str(s) not in table]
    for s in missing:
        table[str(s)] = play_bot(bot, opponents, s)
    if cache is not None and missing:
        cache.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")
    return [table[str(s)] for s in seeds]


def evaluate(
    model: MaskablePPO, games: int, opponents: str | None, cache: Path | None = None
) -> dict[str, list[float]]:
    """Final scores of the trained policy, random and greedy play on the same evaluation seeds."""
    seeds = [EVAL_SEED + k for k in range(games)]
    return {
        "trained": [play_model(model, opponents, s) for s in seeds],
        "random": baseline_scores("random", opponents, seeds, cache),
        "greedy": baseline_scores("greedy", opponents, seeds, cache),
    }


def interval(scores: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    values = np.asarray(scores, dtype=float)
    if len(values) < 2:
        return float(values.mean()), float("nan")
    return float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))


def plot(curve: Curve, path: Path, title: str, baselines: dict[str, float]) -> None:
    """The training episodes' scores (a moving mean of 200) against moves played, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([p[0] for p in curve.points])
    scores = np.array([p[2] for p in curve.points])
    window = max(1, min(200, len(scores) // 10))
    mean = np.convolve(scores, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(steps, scores, ".", markersize=1, alpha=0.2, color="tab:blue", label="episode")
    ax.plot(steps[window - 1 :], mean, color="tab:blue", label=f"mean of {window}")
    for (name, value), colour in zip(baselines.items(), ("tab:red", "tab:green"), strict=False):
        ax.axhline(value, linestyle="--", color=colour, label=f"{name} ({value:.1f})")
    ax.set_xlabel("moves played")
    ax.set_ylabel("final score")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


# the hyper-parameters a resumed run may change: train()'s name -> the option's attribute
RETUNE = {
    "n_steps": "n_steps",
    "batch_size": "batch_size",
    "n_epochs": "n_epochs",
    "learning_rate": "lr",
    "ent_coef": "ent_coef",
}
DEFAULTS = {
    "n_steps": 256,
    "batch_size": 256,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "ent_coef": 0.01,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train MaskablePPO on glade.")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    parser.add_argument("--timesteps", type=int, default=10_000_000, help="or stop after these")
    parser.add_argument("--n-envs", type=int, default=8)
    # these five default to None so that a resumed run knows which ones were given: those
    # replace the saved model's (RETUNE), the others keep it
    parser.add_argument("--n-steps", type=int, default=None, help="moves per env per update")
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--n-epochs", type=int, default=None, help="PPO epochs per update")
    parser.add_argument("--lr", type=float, default=None, help="learning rate (default 3e-4)")
    parser.add_argument(
        "--lr-final",
        type=float,
        default=None,
        help="the learning rate falls linearly from --lr to this over --timesteps moves or"
        " --minutes, whichever ends first",
    )
    parser.add_argument("--ent-coef", type=float, default=None, help="entropy bonus")
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--net", default="256,256", help="hidden layers, e.g. 256,256")
    parser.add_argument("--opponents", default=None, help="a bot for seat 1 (2p); none: solo")
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=None, help="learning curve PNG")
    parser.add_argument("--csv", type=Path, default=None, help="episodes as CSV (kept current)")
    parser.add_argument(
        "--save", type=Path, default=None, help="save the model here (kept current)"
    )
    parser.add_argument("--load", type=Path, default=None, help="evaluate this saved model only")
    parser.add_argument(
        "--resume",
        type=Path,
        default=None,
        help="go on training this saved model (its hyper-parameters, except those of --lr,"
        " --lr-final, --ent-coef, --batch-size, --n-epochs, --n-steps given; --csv is appended"
        " to)",
    )
    parser.add_argument("--baselines", type=Path, default=None, help="JSON cache of bot scores")
    args = parser.parse_args(argv)
    retune = tuple(
        name
        for name, flag in RETUNE.items()
        if getattr(args, flag) is not None or (flag == "lr" and args.lr_final is not None)
    )
    for name, flag in RETUNE.items():
        if getattr(args, flag) is None:
            setattr(args, flag, DEFAULTS[name])
    torch.set_num_threads(1)
    if args.load is not None:
        model = MaskablePPO.load(args.load)
        curve = Curve(0.0)
        if args.csv is not None and args.csv.exists():
            curve.points = read_csv(args.csv)
        took = curve.points[-1][1] if curve.points else 0.0
    else:
        model, curve = train(
            args.minutes,
            args.timesteps,
            args.n_envs,
            args.opponents,
            args.seed,
            args.n_steps,
            args.batch_size,
            args.n_epochs,
            args.lr,
            args.ent_coef,
            args.gamma,
            tuple(int(n) for n in args.net.split(",")),
            args.csv,
            args.save,
            args.resume,
            args.lr_final,
            retune,
        )
        took = curve.seconds()
        if args.save is not None:
            model.save(args.save)
        if args.csv is not None:
            write_csv(curve.points, args.csv)
    print(f"trained {model.num_timesteps} moves, {len(curve.points)} games in {took:.0f}s")
    if curve.points:
        last = [p[2] for p in curve.points[-200:]]
        print(f"mean score of the last {len(last)} training games: {np.mean(last):.1f}")
    begun = time.monotonic()
    scores = evaluate(model, args.eval_games, args.opponents, args.baselines)
    where = "solo" if args.opponents is None else f"2p against {args.opponents}"
    print(f"mean score over {args.eval_games} evaluation games ({where}), 95% interval:")
    for name, values in scores.items():
        mean, half = interval(values)
        print(f"  {name:<8}{mean:.1f} +- {half:.1f}")
    trained = np.asarray(scores["trained"])
    greedy = np.asarray(scores["greedy"])
    print(f"trained >= greedy in {np.mean(trained >= greedy):.0%} of the seeds")
    print(f"evaluated in {time.monotonic() - begun:.0f}s")
    if args.plot is not None:
        title = f"MaskablePPO, Harmonies {where}: {took / 60:.0f} min"
        means = {name: interval(scores[name])[0] for name in ("random", "greedy")}
        plot(curve, args.plot, title, means)
        print(f"learning curve written to {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
