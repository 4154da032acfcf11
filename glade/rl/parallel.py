"""PettingZoo parallel versions of the glade environments, built on PettingZoo's turn-based
conversion.

    from glade.rl import harmonies_v0
    env = harmonies_v0.parallel_env(players=2)
    observations, infos = env.reset(seed=7)
    while env.agents:
        actions = env.sample_actions(observations)  # a random legal move for every agent
        observations, rewards, terminations, truncations, infos = env.step(actions)

A step plays the action of every agent that acts now, and those are exactly the agents whose
mask allows a move: the agent whose turn it is (``infos[agent]["active_agent"]``, the same for
every agent, names it), and in a phase the rules package declares simultaneous (the engine's
``acting_together``: Living Forest's Guardian Animals phase, every spirit still drawing) every
agent acting together. Their actions are all checked first (one illegal action raises
``IllegalAction`` and nothing is applied), then applied in seat order. The other agents'
actions are ignored (``sample_legal`` gives them 0; ``sample_actions(observations)`` is ``{a:
sample_legal(a, observations[a]) for a in agents}`` in one call). ``aec_to_parallel`` does not
apply (it needs every agent to act at every step). Every agent's ``infos`` has the AEC keys plus
``active_agent`` from the first observation on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from glade import IllegalAction

from . import kernels
from .aec import GladeAECEnv, action_index
from .copies import deep_copy


class _PythonCore:
    """``step``, ``sample_legal`` and the views when the compiled module is not built (the
    compiled ``ParallelCore`` does the same in one pass)."""

    def step(self, actions: dict[str, Any]) -> tuple[Any, ...]:
        out: tuple[Any, ...] = self._full_step(actions)  # type: ignore[attr-defined]
        return out

    def sample_legal(self, agent: str, observation: dict[str, np.ndarray]) -> int:
        out: int = self._full_sample_legal(agent, observation)  # type: ignore[attr-defined]
        return out

    def sample_actions(self, observations: dict[str, dict[str, np.ndarray]]) -> dict[str, int]:
        out: dict[str, int] = self._full_sample_actions(observations)  # type: ignore[attr-defined]
        return out

    def _observe_all(self) -> dict[str, dict[str, np.ndarray]]:
        out: dict[str, dict[str, np.ndarray]] = self._full_observe_all()  # type: ignore[attr-defined]
        return out


# (an if statement, not a conditional expression: mypy takes a base class from a plain name)
if TYPE_CHECKING or not kernels.COMPILED:  # noqa: SIM108
    _Core = _PythonCore
else:
    _Core = kernels.compiled_module().ParallelCore


class GladeParallelEnv(_Core, turn_based_aec_to_parallel_wrapper):
    """The parallel view of a :class:`GladeAECEnv`.

    ``reset`` and ``step`` give what PettingZoo's ``turn_based_aec_to_parallel`` gives (the
    same observations, rewards, terminations, truncations and infos, ``active_agent`` added),
    except that the agents the engine lets act together (``acting_together``) all play in one
    step; every agent's view is made in one pass through the environment's kernel and the legal
    moves it lists are kept for ``sample_legal``."""

    def __init__(self, aec_env: GladeAECEnv) -> None:
        super().__init__(aec_env)
        self._views: dict[str, dict[str, np.ndarray]] = {}
        self._legal_of: dict[str, list[int]] = {}
        self._acting: list[str] = []  # the agents that act in the next step, in seat order

    def _acting_now(self, legal_of: dict[str, list[int]]) -> list[str]:
        """The live agents that act in the next step, in seat order: the seats the engine lets
        act together (``acting_together``; a game without it: the one to act) that have a move."""
        env: GladeAECEnv = self.aec_env
        game = env.game
        assert game is not None
        seats = getattr(game, "acting_together", None)
        if seats is None:
            seats = game.to_act[:1]
        names = env.possible_agents
        return [names[s] for s in seats if legal_of.get(names[s])]

    def _checked_action(self, agent: str, actions: Any) -> int:
        """``actions[agent]`` as a legal index for ``agent`` (one of those acting now), or
        IllegalAction saying why it is not one (nothing is applied)."""
        env: GladeAECEnv = self.aec_env
        try:
            action = actions[agent]
        except KeyError:
            action = None
        if action is None:
            raise IllegalAction(
                f"{agent} must choose an action: its mask allows a move, so it acts in this step"
            )
        code = action_index(action, env._n_actions)
        if code not in self._legal_of[agent]:
            env._refuse(agent, env._seat[agent], code)
        return code

    def _full_observe_all(self) -> dict[str, dict[str, np.ndarray]]:
        """Every live agent's view (fresh arrays); the acting agent's legal moves are left in
        the AEC environment for its next step, as its own ``last()`` leaves them."""
        env: GladeAECEnv = self.aec_env
        game = env.game
        views: dict[str, dict[str, np.ndarray]] = {}
        legal_of: dict[str, list[int]] = {}
        seat_view, kernel, n, seats = env._seat_view, env._kernel, env._n_actions, env._seat
        normaliser = env._normaliser
        for agent in env.agents:
            legal, view = seat_view(kernel, game, seats[agent], n)
            if normaliser is not None:
                view["observation"] = normaliser(view["observation"])
            views[agent] = view
            legal_of[agent] = legal
        active = env.agent_selection
        if active in legal_of:
            env._legal = legal_of[active]
            env._legal_seat = seats[active]
        self._views = views
        self._legal_of = legal_of
        self._acting = self._acting_now(legal_of)
        return views

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        env: GladeAECEnv = self.aec_env
        env.reset(seed=seed, options=options)
        self.agents = env.agents[:]
        observations = self._observe_all()  # (no agent is done at the start of a game)
        active = env.agent_selection
        infos = {a: {**info, "active_agent": active} for a, info in env.infos.items()}
        return observations, infos

    def _full_step(self, actions: dict[str, Any]) -> tuple[Any, ...]:
        """The parallel step: ``step()``, compiled in ``ParallelCore``. Every acting agent's
        action is checked before any is applied; they are applied in seat order, and a move
        that ends (or truncates) the game leaves the later ones unplayed. The rewards are the
        sums over the step's moves (each move's rewards as the AEC environment gives them)."""
        env: GladeAECEnv = self.aec_env
        if not self.agents:
            return {}, {}, {}, {}, {}
        acting = self._acting
        if len(acting) > 1:
            codes = [self._checked_action(agent, actions) for agent in acting]
            rewards = {a: 0.0 for a in env.agents}
            for agent, code in zip(acting, codes, strict=True):
                env.agent_selection = agent
                env.step(code)
                for a, value in env.rewards.items():
                    rewards[a] += value
                if env.terminations[agent] or env.truncations[agent]:
                    break
        else:
            agent = env.agent_selection
            try:
                action = actions[agent]
            except KeyError:
                action = self._checked_action(agent, actions)  # (raises: no action for it)
            env.step(action)
            rewards = dict(env.rewards)
        terminations = dict(env.terminations)
        truncations = dict(env.truncations)
        infos = {a: dict(info) for a, info in env.infos.items()}  # the AEC env's stay as they are
        observations = self._full_observe_all()
        while env.agents:  # the game is over: every agent leaves by PettingZoo's dead steps
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                break
        active = env.agent_selection
        for agent in env.agents:
            infos[agent]["active_agent"] = active
        self.agents = env.agents
        return observations, rewards, terminations, truncations, infos

    def _full_sample_legal(self, agent: str, observation: dict[str, np.ndarray]) -> int:
        """``sample_legal(agent, observation)``: a uniformly random legal action for ``agent``;
        0 when the agent does not act in the next step (its action is ignored). For the
        observation the last ``reset``/``step`` gave the agent it draws from the legal moves
        listed when it was made, without reading the mask; for any other observation, from its
        mask."""
        env: GladeAECEnv = self.aec_env
        legal = self._legal_of.get(agent)
        if legal is not None and observation is self._views.get(agent):
            if agent not in self._acting or not legal:
                return 0
            return legal[int(env._sampler.random() * len(legal))]
        mask = observation["action_mask"]
        if not mask.any():
            return 0
        return env.sample_legal(mask)

    def _full_sample_actions(
        self, observations: dict[str, dict[str, np.ndarray]]
    ) -> dict[str, int]:
        """``sample_actions(observations)``: every live agent's ``sample_legal(agent,
        observations[agent])``, in the order of ``agents`` (the same draws), in one call."""
        return {a: self._full_sample_legal(a, observations[a]) for a in self.agents}

    def state(self) -> np.ndarray:
        env: GladeAECEnv = self.aec_env
        return env.state()

    # ------------------------------------------------------------------ pickles and copies
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles and copies rebuild the AEC environment (``GladeAECEnv.__reduce__``) and this
        view of it; the copy continues exactly as the original (``glade.rl.copies``)."""
        return (_rebuild_parallel, (type(self), self.aec_env, self.agents))

    def __deepcopy__(self, memo: dict[int, Any]) -> GladeParallelEnv:
        out: GladeParallelEnv = deep_copy(self, memo)
        return out

    def clone(self) -> GladeParallelEnv:
        """An independent copy that continues exactly as this environment does."""
        return self.__deepcopy__({})

    def legal_actions(self, agent: str) -> list[int]:
        """``agent``'s legal action indices now, ascending ([] when it does not act in the next
        step): the entries its mask sets."""
        env: GladeAECEnv = self.aec_env
        if env.game is None:
            raise RuntimeError("call reset() before legal_actions()")
        env._seat_of(agent)
        if agent not in self._acting:
            return []
        return sorted(self._legal_of.get(agent, []))

    def action_to_string(self, agent: str, action: Any) -> str:
        """Action index ``action`` of ``agent`` as text (``GladeAECEnv.action_to_string``)."""
        env: GladeAECEnv = self.aec_env
        return env.action_to_string(agent, action)


def _rebuild_parallel(
    cls: type[GladeParallelEnv], aec_env: GladeAECEnv, agents: list[str]
) -> GladeParallelEnv:
    """A parallel environment over a rebuilt AEC environment, its views made again."""
    env = cls(aec_env)
    env.agents = agents
    if aec_env.game is not None and agents:
        env._observe_all()
    return env


class RefusingParallelEnv(GladeParallelEnv):
    """The parallel environment of an AEC environment made with ``illegal_action="refuse"``
    (``glade.rl.aec.ILLEGAL_MODES``): a step in which an acting agent's action is missing, not
    an index or not legal is refused as a whole. Nothing is played, every reward is 0, the
    observations are the same as before (fresh arrays), ``refusal`` says why and each agent's
    ``infos[agent]["illegal_action"]`` says whether its own action was refused."""

    def step(self, actions: dict[str, Any]) -> tuple[Any, ...]:
        env: GladeAECEnv = self.aec_env
        if not self.agents:
            return {}, {}, {}, {}, {}
        refused: dict[str, str] = {}
        for agent in self._acting:
            try:
                self._checked_action(agent, actions)
            except IllegalAction as exc:
                refused[agent] = str(exc)
        if not refused:
            out: tuple[Any, ...] = super().step(actions)
            return out
        env.refusal = "; ".join(refused.values())
        observations = self._observe_all()
        active = env.agent_selection
        infos = {}
        for agent, info in env.infos.items():
            infos[agent] = {**info, "illegal_action": agent in refused, "active_agent": active}
        return (
            observations,
            {a: 0.0 for a in env.agents},
            dict(env.terminations),
            dict(env.truncations),
            infos,
        )


def parallel_of(aec_env: GladeAECEnv) -> GladeParallelEnv:
    """The parallel environment of ``aec_env`` (refusing illegal steps when it refuses)."""
    if aec_env.illegal_action == "refuse":
        return RefusingParallelEnv(aec_env)
    return GladeParallelEnv(aec_env)
