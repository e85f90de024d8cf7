"""Any game of this toolkit as a PettingZoo AEC environment (``env(game)``), for agents written to PettingZoo's
conventions (``pip install 'cgdiscover[pettingzoo]'``).

Two agents, ``player_0`` (who moves first) and ``player_1``, take turns.  An agent observes the position (its
coordinates, an int64 vector within the universe's limits) and an action mask; action ``i`` is the ``i``-th
option of ``game.moves(position)``, so the action space is ``Discrete(game.max_moves(limits))`` and the mask
marks the options there are.  When the player to move has no move the game ends: that player gets the game's
terminal value (``terminal_values``: -1 in normal play, +1 in misère play, 0 for a draw where the game has
them) and the other player its negation.  A play starts from ``start``, else the game's own start (board games),
else a position with a move drawn from the universe (the box ``[0, bound]^dims``) by the environment's
generator, seeded by ``random_state`` and by ``reset(seed=...)``.

Examples
--------
>>> from games import make_game
>>> table = env(make_game("nim", heaps=2), bound=3, start=(1, 0))
>>> table.reset()
>>> table.observe("player_0")["action_mask"].tolist()
[1, 0, 0, 0, 0, 0]
>>> table.step(0)  # take the last token: player_1 has no move and loses
>>> table.rewards, table.terminations["player_1"]
({'player_0': 1.0, 'player_1': -1.0}, True)
"""

from __future__ import annotations

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector
except ImportError as err:  # an optional dependency: say how to get it
    raise ImportError("games.pettingzoo needs PettingZoo: pip install 'cgdiscover[pettingzoo]'") from err

__all__ = ["GameEnv", "env"]

START_TRIES = 1000  # positions drawn at most to find one with a move


class GameEnv(AECEnv):
    """A toolkit game as a two-player AEC environment (see the module docstring).

    Parameters
    ----------
    game : games.Game
        A game whose options are single positions (not a sum of heaps: ``game.parts == 1``).
    bound : int, optional
        The box ``[0, bound]^dims`` of a game of integer coordinates (required unless the game is a board game).
    start : tuple of int, optional
        Where every play starts (default: the game's start, else a drawn position with a move).
    max_steps : int, optional
        Truncate a play after this many moves (a game with draws may repeat positions); default: no limit.
    random_state : int, optional
        Seed of the generator that draws starting positions (``reset(seed=...)`` seeds it again).
    render_mode : {None, "ansi"}
        ``"ansi"``: ``render()`` returns the position as text.
    """

    metadata = {"name": "cgdiscover_game_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game, bound: int | None = None, start=None, max_steps: int | None = None,
                 random_state: int | None = 0, render_mode: str | None = None):
        super().__init__()
        if getattr(game, "parts", 1) > 1:
            raise ValueError(f"{game!r}: a move splits a heap into a sum of heaps, which a single position of an "
                             "environment cannot hold; give a game whose moves lead to single positions")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer or None, got {max_steps!r}")
        if game.universe_from_start:
            universe = game.universe(None)
        elif bound is None:
            raise ValueError(f"{game!r} has no start of its own: give bound=B (positions are drawn from the box "
                             f"[0, B]^{game.dims}) or a start")
        else:
            universe = game.universe(bound)
        self.game, self.universe, self.max_steps, self.render_mode = game, universe, max_steps, render_mode
        self.start = None if start is None else self._position(start)
        self.random_state = random_state
        self._rng = np.random.default_rng(random_state)
        actions = _most_moves(game, universe)
        self.possible_agents = ["player_0", "player_1"]
        observation = spaces.Dict({
            "observation": spaces.Box(0, universe.limits.astype(np.int64), shape=(game.dims,), dtype=np.int64),
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(actions))
        self._selector = AgentSelector(self.possible_agents)
        self.position, self._options, self.steps = None, [], 0

    def _position(self, position) -> np.ndarray:
        p = np.asarray(position, dtype=np.int64).reshape(-1)
        if p.size != self.game.dims or self.universe.index(p[None, :], strict=False)[0] < 0:
            raise ValueError(f"{tuple(p.tolist())} is not a position of {self.game!r} within its universe "
                             f"(limits {self.universe.limits.tolist()})")
        return p

    def _drawn_start(self) -> np.ndarray:
        for _ in range(START_TRIES):
            p = self.universe.positions(self._rng.integers(self.universe.size, size=1))[0]
            if self.game.moves(p):
                return p
        raise ValueError(f"no position with a move among {START_TRIES} drawn from {self.game!r}'s universe: "
                         "give a start")

    # -- the AEC interface ---------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if self.start is not None:
            start = self.start
        elif self.game.start is not None:
            start = self._position(self.game.start)
        else:
            start = self._drawn_start()
        self.position, self.steps = start.copy(), 0
        self._options = self.game.moves(self.position)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        ended = not self._options
        self.terminations = dict.fromkeys(self.agents, ended)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._selector.reinit(self.agents)
        self.agent_selection = self._selector.reset()
        if ended:
            self._end()

    def observe(self, agent):
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask[:len(self._options)] = 1
        return {"observation": self.position.copy(), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self._options):
            raise ValueError(f"action {action!r} is not legal at {tuple(self.position.tolist())}: the legal "
                             f"actions are 0 to {len(self._options) - 1}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.position = np.asarray(self._options[int(action)], dtype=np.int64)
        self._options = self.game.moves(self.position)
        self.steps += 1
        self.agent_selection = self._selector.next()
        if not self._options:
            self._end()
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def _end(self) -> None:
        """The player to move has no move: it gets the game's terminal value, the other player its negation."""
        value = float(self.game.terminal_values(self.position[None, :])[0])
        mover = self.agent_selection
        self.rewards = {agent: value if agent == mover else -value for agent in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self):
        if self.render_mode is None:
            return None
        render = getattr(self.game, "render", None)
        return render(tuple(self.position.tolist())) if render is not None else str(tuple(self.position.tolist()))

    def close(self) -> None:
        self.position, self._options = None, []


def _most_moves(game, universe) -> int:
    """The size of the action space: the game's bound on its options, or (a game built from a ``moves``
    function, which declares none) the most options of any position of the universe, counted."""
    try:
        most = game.max_moves(universe.limits)
    except NotImplementedError:
        most = game.option_rows(universe.positions())[0].max(initial=0)
    return max(1, int(most))


def env(game, bound: int | None = None, start=None, max_steps: int | None = None, random_state: int | None = 0,
        render_mode: str | None = None) -> GameEnv:
    """A PettingZoo AEC environment of ``game`` (see ``GameEnv``).

    Examples
    --------
    >>> from games import make_game
    >>> from pettingzoo.test import api_test
    >>> api_test(env(make_game("wythoff"), bound=6), num_cycles=50)
    Starting API test
    Passed API test
    """
    return GameEnv(game, bound, start, max_steps, random_state, render_mode)
