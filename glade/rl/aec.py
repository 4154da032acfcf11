"""One PettingZoo AEC environment for both games, driven by a game's :class:`Encoder`.

Agents are ``player_0 .. player_{n-1}`` (seat numbers). Each observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` from that seat's view only
(``normalize=True``: the vector scaled to [0, 1], see ``glade.rl.common``). An illegal action
raises :class:`glade.IllegalAction` naming the move and the reason, and changes nothing.
Rewards come once, when the game ends, except with ``reward="shaped"`` (see ``REWARDS``).
``max_cycles=N`` truncates a game still going after N moves in all (every agent's
``truncations`` entry becomes True). ``infos[agent]`` is always ``{"scores": int64 array,
"winners": int8 array}``, one entry per seat: zeros until the game ends, then the final scores
and 1 for each winner. ``state()`` is every seat's observation, seat 0's first, concatenated.
"""

from __future__ import annotations

import json
import operator
import random
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from glade import IllegalAction, new_game
from glade.core import BadInput, Game

from . import kernels
from .common import (
    RENDER_MODES,
    Normaliser,
    check_flag,
    check_render_mode,
    observation_box,
    render,
)
from .copies import SavedGame, deep_copy, playing, restore, saved
from .kernels import compiled_module
from .spec import Encoder

ILLEGAL_MODES = ("raise", "refuse")
"""What an environment does with an illegal action: ``raise`` (the default) raises
:class:`glade.IllegalAction` and changes nothing; ``refuse`` changes nothing either, but returns
normally: the agent is still to act, every reward of the step is 0, ``env.refusal`` says why and
``infos[agent]["illegal_action"]`` is True (False for everyone after a move is played; the key is
in every info of an environment made with ``refuse``). The AEC and the parallel environments
take the same policy (a parallel step with one illegal action among those acting together is
refused as a whole)."""

REWARDS = ("score_diff", "win_loss", "score", "shaped")
"""score_diff: own final score minus the best opponent's (solo: the score); win_loss: +1 sole
winner, 0 shared win, -1 otherwise (2+ players); score: own final score; shaped: after each of
its moves a seat gets the change in its own score (Harmonies: its points; Living Forest: its
progress toward 12, different trees + fires + sacred flowers, the quantity it scores), and when
the game ends whatever remains to make its rewards add up to its final score."""


def check_reward(reward: str, players: int) -> str:
    if reward not in REWARDS:
        raise BadInput(f"unknown reward {reward!r}; choose one of: {', '.join(REWARDS)}")
    if reward == "win_loss" and players < 2:
        raise BadInput("win/loss rewards need at least 2 players; use score for solo games")
    return reward


def check_seed(seed: Any) -> int:
    """A reset seed as a plain int, or BadInput saying what a seed must be."""
    if isinstance(seed, (bool, np.bool_)):
        raise BadInput(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
    try:
        value = operator.index(seed)
    except TypeError:
        raise BadInput(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}") from None
    if not 0 <= value < 2**63:
        raise BadInput(f"a seed is a whole number from 0 to 2**63 - 1, not {value}")
    return value


def final_rewards(result: dict[str, Any], reward: str) -> list[float]:
    """Each seat's reward from a finished game's ``result()``."""
    scores = [float(s) for s in result["scores"]]
    if reward in ("score", "shaped") or len(scores) == 1:
        return scores
    if reward == "score_diff":
        return [s - max(scores[:i] + scores[i + 1 :]) for i, s in enumerate(scores)]
    winners = result["winners"]
    return [
        (1.0 if len(winners) == 1 else 0.0) if i in winners else -1.0 for i in range(len(scores))
    ]


def own_score(game: Game, seat: int) -> int:
    """``seat``'s score now, as the game's result will count it (the shaped reward's measure)."""
    if game.game_name == "harmonies":
        return int(game.breakdown(seat)["total"])  # type: ignore[attr-defined]
    return int(sum(game.counts(seat)))  # type: ignore[attr-defined]


def check_illegal_action(illegal_action: Any) -> str:
    if illegal_action not in ILLEGAL_MODES:
        raise BadInput(
            f"illegal_action must be one of {', '.join(ILLEGAL_MODES)}, not {illegal_action!r}"
        )
    return str(illegal_action)


def check_max_cycles(max_cycles: Any) -> int | None:
    if max_cycles is None:
        return None
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
        raise BadInput(f"max_cycles is a whole number of at least 1 or None, not {max_cycles!r}")
    return max_cycles


def action_index(action: Any, n_actions: int) -> int:
    """The action as a plain int in range, or IllegalAction saying why it is not one."""
    kind = type(action)
    if kind is int or kind is np.int64:  # the usual cases, quickly (bool is not int's type)
        code = int(action)
        if not 0 <= code < n_actions:
            raise IllegalAction(
                f"there is no action {code}: actions are numbered 0 to {n_actions - 1}"
            )
        return code
    if isinstance(action, (bool, np.bool_)):
        raise IllegalAction(f"an action is an index from 0 to {n_actions - 1}, not {action!r}")
    try:
        code = operator.index(action)
    except TypeError:
        raise IllegalAction(
            f"an action is an index from 0 to {n_actions - 1}, not {action!r}"
        ) from None
    if not 0 <= code < n_actions:
        raise IllegalAction(f"there is no action {code}: actions are numbered 0 to {n_actions - 1}")
    return code


class _PythonCore:
    """``last()`` and ``step()`` when the compiled module is not built: the full Python methods
    (the compiled ``AECCore`` runs the usual case itself and hands the rest to the same ones)."""

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """The acting agent's view, cumulative reward, termination, truncation and info."""
        out: tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]
        out = self._full_last(observe)  # type: ignore[attr-defined]
        return out

    def step(self, action: Any) -> None:
        """The acting agent plays ``action`` (see ``GladeAECEnv._full_step``)."""
        self._full_step(action)  # type: ignore[attr-defined]

    def sample_legal(self, mask: np.ndarray | None = None) -> int:
        """A uniformly random legal move (see ``GladeAECEnv._full_sample_legal``)."""
        code: int = self._full_sample_legal(mask)  # type: ignore[attr-defined]
        return code


# (an if statement, not a conditional expression: mypy takes a base class from a plain name)
if TYPE_CHECKING or not kernels.COMPILED:  # noqa: SIM108
    _Core = _PythonCore
else:
    _Core = compiled_module().AECCore


class GladeAECEnv(_Core, AECEnv):
    """A glade game as a PettingZoo AEC environment (turn order from the engine's ``to_act``)."""

    metadata: dict[str, Any] = {
        "render_modes": RENDER_MODES,
        "name": "glade",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        encoder: Encoder,
        reward: str = "score_diff",
        render_mode: str | None = None,
        normalize: bool = False,
        max_cycles: int | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__()
        # what a pickle or a copy rebuilds the environment from (glade.rl.copies)
        self._arguments: dict[str, Any] = {
            "encoder": encoder,
            "reward": reward,
            "render_mode": render_mode,
            "normalize": normalize,
            "max_cycles": max_cycles,
            "illegal_action": illegal_action,
        }
        self.illegal_action = check_illegal_action(illegal_action)
        self.refusal: str | None = None  # why the last refused action was refused
        self.render_mode = check_render_mode(render_mode)
        self.encoder = encoder
        self.reward_mode = check_reward(reward, encoder.players)
        self.normalize = check_flag("normalize", normalize)
        self.max_cycles = check_max_cycles(max_cycles)
        self._normaliser = Normaliser(encoder) if self.normalize else None
        # anything beyond the plain case runs in the Python methods below, not the compiled core
        # (which normalises views itself)
        self._slow = (
            self.max_cycles is not None or reward == "shaped" or self.illegal_action == "refuse"
        )
        self._moves = 0
        self.possible_agents = [f"player_{i}" for i in range(encoder.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        box = observation_box(encoder, self.normalize)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(0, 1, shape=(encoder.n_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(encoder.n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(
            np.tile(box.low, encoder.players),
            np.tile(box.high, encoder.players),
            shape=(encoder.players * encoder.size,),
            dtype=np.float32,
        )
        # the generator of unseeded resets' seeds, made when first needed, from the last reset
        # seed (None: from fresh entropy); making one costs as much as a dozen moves
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None
        self._sampler = random.Random()
        self.game: Game | None = None
        self._legal_seat = -1  # whose legal moves _legal lists (-1: none, until the next step)
        self._legal: list[int] = []
        self._n_actions = encoder.n_actions
        self._given = [0.0] * encoder.players  # shaped rewards handed out so far, per seat
        # the per-step work, in one call each: the encoder's compiled kernel when it has one
        self._kernel: Any
        self._kernel, self._seat_view, self._play = kernels.step_functions(encoder)

    def __str__(self) -> str:
        return str(self.metadata["name"])

    # ------------------------------------------------------------------ pickles and copies
    # what a game in progress changes besides the game (glade.rl.copies carries them over)
    PLAYING = (
        "agents",
        "rewards",
        "_cumulative_rewards",
        "terminations",
        "truncations",
        "infos",
        "agent_selection",
        "_legal_seat",
        "_legal",
        "_moves",
        "_given",
        "_rng",
        "_rng_seed",
        "_sampler",
        "refusal",
    )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles (``pickle``, ``cloudpickle``) rebuild the environment from its constructor's
        arguments, the attributes in ``PLAYING`` and the game's seed and moves: the copy
        continues exactly as the original (``glade.rl.copies``)."""
        state = playing(self, self.PLAYING)
        state["game"] = saved(self.game)
        return (restore, (type(self), dict(self._arguments), state))

    def __deepcopy__(self, memo: dict[int, Any]) -> GladeAECEnv:
        out: GladeAECEnv = deep_copy(self, memo)
        return out

    def _restored(self, game: SavedGame | None) -> None:
        """The saved game played again into this environment's encoder (a rebuilt copy)."""
        self.game = None if game is None else game.replay(self.encoder)

    def clone(self) -> GladeAECEnv:
        """An independent copy that continues exactly as this environment does (the same
        observations, masks and rewards for the same actions, later draws included)."""
        return self.__deepcopy__({})

    def _seat_of(self, agent: str) -> int:
        seat = self._seat.get(agent)
        if seat is None:
            raise KeyError(
                f"there is no agent {agent!r}; agents are {', '.join(self.possible_agents)}"
            )
        return seat

    def legal_actions(self, agent: str) -> list[int]:
        """``agent``'s legal action indices now, in ascending order (the entries its mask sets;
        [] while it does not act or once the game is over)."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before legal_actions()")
        seat = self._seat_of(agent)
        if seat not in game.to_act:
            return []
        return sorted(game.legal_action_ids(seat))

    def action_to_string(self, agent: str, action: Any) -> str:
        """Action index ``action`` of ``agent`` as text: the agent and the move's JSON in the
        public contract's form, e.g. ``player_0: {"type": "end_turn"}``."""
        if self.game is None:
            raise RuntimeError("call reset() before action_to_string()")
        self._seat_of(agent)
        move = self.game.action_table()[action_index(action, self._n_actions)]
        return f"{agent}: {json.dumps(move.to_json(), sort_keys=True)}"

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` becomes the game's seed (``glade.new_game(..., seed=seed)``
        replays it); without one the seed comes from the last seeded reset's generator."""
        if seed is not None:
            game_seed = check_seed(seed)
            self._rng = None
            self._rng_seed = game_seed
        else:
            if self._rng is None:
                self._rng = np.random.default_rng(self._rng_seed)
            game_seed = int(self._rng.integers(2**63))
        self._sampler = random.Random(game_seed)
        enc = self.encoder
        self.game = new_game(enc.game_name, seed=game_seed, **enc.options)
        enc.reset(self.game)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        n = enc.players
        self.infos: dict[str, dict[str, Any]] = {
            a: self._info(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int8))
            for a in self.agents
        }
        self.refusal = None
        self._legal_seat = -1
        self._moves = 0
        self._given = [0.0] * n
        self.agent_selection = self.possible_agents[self.game.to_act[0]]

    def _info(self, scores: np.ndarray, winners: np.ndarray) -> dict[str, Any]:
        """An agent's info: the scores and winners, and whether its action was refused (only
        with ``illegal_action="refuse"``)."""
        if self.illegal_action == "refuse":
            return {"scores": scores, "winners": winners, "illegal_action": False}
        return {"scores": scores, "winners": winners}

    def _refused(self, agent: str, why: str) -> None:
        """``illegal_action="refuse"``: ``agent``'s illegal action changes nothing but this."""
        self.refusal = why
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for a, info in self.infos.items():
            info["illegal_action"] = a == agent

    def _full_agent_iter(self, max_iter: Any) -> Any:
        """PettingZoo's own ``agent_iter`` (the compiled core's takes a whole number only)."""
        return AECEnv.agent_iter(self, max_iter)

    # sample_legal() comes from the compiled core (the usual case) or _PythonCore: both end here
    def _full_sample_legal(self, mask: np.ndarray | None = None) -> int:
        """A uniformly random legal move of the agent to act (from ``mask`` when given, else
        from the legal moves the last ``last()``/``observe()`` listed), drawn from a generator
        seeded by ``reset(seed)``: the fast way to play random moves."""
        if mask is not None:
            legal = np.flatnonzero(mask)
            return int(legal[int(self._sampler.random() * len(legal))])
        if self.game is None:
            raise RuntimeError("call reset() before sample_legal()")
        seat = self._seat[self.agent_selection]
        if seat != self._legal_seat:
            self._legal = self.game.legal_action_ids(seat)
            self._legal_seat = seat
        ids = self._legal
        if not ids:
            raise IllegalAction(f"{self.agent_selection} has no move to make")
        return ids[int(self._sampler.random() * len(ids))]

    def state(self) -> np.ndarray:
        """Every seat's observation, seat 0's first, concatenated (for centralised critics): the
        seats' private parts (a Harmonies spirit offer, a Living Forest hand) are in it, the
        hidden draw order never is."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before state()")
        parts = [self.encoder.observe(s) for s in range(self.encoder.players)]
        if self._normaliser is not None:
            parts = [self._normaliser(p) for p in parts]
        return np.concatenate(parts)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s view now: a fresh observation array and a fresh mask array each call."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat.get(agent)  # (inline, not _seat_of: observe runs every Python step)
        if seat is None:
            raise KeyError(
                f"there is no agent {agent!r}; agents are {', '.join(self.possible_agents)}"
            )
        legal, view = self._seat_view(self._kernel, game, seat, self._n_actions)
        self._legal = legal  # kept for step() until the next move
        self._legal_seat = seat
        if self._normaliser is not None:
            view["observation"] = self._normaliser(view["observation"])
        seen: dict[str, np.ndarray] = view
        return seen

    # The per-move methods, last() and step(), come from the compiled AECCore when it is built
    # (it hands anything unusual to the two below) and from _PythonCore otherwise.
    def _full_last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """The acting agent's view, cumulative reward, termination, truncation and info."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _full_step(self, action: Any) -> None:
        """The acting agent plays ``action``: an index from 0 to ``n_actions - 1`` that its mask
        allows, or None once the game is over (PettingZoo's dead step)."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        refuse = self.illegal_action == "refuse"
        try:
            if action is None:
                raise IllegalAction(f"{agent} must choose an action: the game is not over")
            code = action_index(action, self._n_actions)
        except IllegalAction as exc:
            if not refuse:
                raise
            self._refused(agent, str(exc))
            return
        seat = self._seat[agent]
        if seat != self._legal_seat:
            self._legal = game.legal_action_ids(seat)
            self._legal_seat = seat
        following = self._play(self._kernel, game, seat, code, self._legal)
        if following == -2:
            if not refuse:
                self._refuse(agent, seat, code)
            self._refused(agent, self._why_not(agent, seat, code))
            return
        if refuse:
            self.refusal = None
            for info in self.infos.values():
                info["illegal_action"] = False
        self._legal_seat = -1
        self._moves += 1
        shaped = self.reward_mode == "shaped"
        if shaped:
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
        if following < 0:
            self._finish(agent)
            return
        if shaped:  # the change in the mover's own score
            gained = own_score(game, seat) - self._given[seat]
            self._given[seat] += gained
            self.rewards[agent] = float(gained)
            self._accumulate_rewards()
        self.agent_selection = self.possible_agents[following]
        if self.max_cycles is not None and self._moves >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True

    def _why_not(self, agent: str, seat: int, code: int) -> str:
        """Why ``code`` (in range, not played) is not legal for ``agent`` now, in a sentence."""
        game = self.game
        assert game is not None
        reason = game.why_illegal(seat, code) or "it is not legal now"
        move = game.action_table()[code].to_json()
        return f"{agent} cannot play action {code} {move}: {reason}"

    def _refuse(self, agent: str, seat: int, code: int) -> None:
        """Raise IllegalAction saying why ``code`` (in range, not played) is not legal now."""
        raise IllegalAction(self._why_not(agent, seat, code))

    def _finish(self, agent: str) -> None:
        """``agent``'s move ended the game: every agent gets its reward and is terminated."""
        game = self.game
        assert game is not None
        self._cumulative_rewards[agent] = 0.0
        result = game.result()
        n = self.encoder.players
        scores = np.array(result["scores"], dtype=np.int64)
        winners = np.zeros(n, dtype=np.int8)
        winners[list(result["winners"])] = 1
        shaped = self.reward_mode == "shaped"
        for i, value in enumerate(final_rewards(result, self.reward_mode)):
            a = self.possible_agents[i]
            self.rewards[a] = value - self._given[i] if shaped else value
            self.terminations[a] = True
            self.infos[a] = self._info(scores.copy(), winners.copy())
        self._given = [float(v) for v in scores] if shaped else self._given
        self._accumulate_rewards()

    def render(self) -> Any:
        return render(self.render_mode, self.encoder, self.game, None)

    def close(self) -> None:
        self.game = None
