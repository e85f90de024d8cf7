"""The HQN paper's Hierarchical Q-Network: a Q-agent and a model that generalises its table.

Each period (the HQN paper's ``modelBasedLearn``, figure 5):

1. the Q-agent plays ``episodes`` games (figure 3): Boltzmann exploration, a greedy reply from
   its own table (the simulated opponent), backups from the position after the reply, random
   starts on the training board; with probability ``p = limit / (1 + exp(-steepness (perf - onset)))``
   it takes the best model's move instead;
2. a new model is built (figure 4) from the positions whose value ``max_a Q`` is at least
   ``confidence`` from 0 (cold below, hot above), and scored by the share of games it wins,
   moving first from random positions of the LARGER evaluation board, against the greedy
   Q-agent (unsupervised: never against the solver). The best model, the new one and, after
   a detected change, every stored model (the recall) are all scored against the Q-agent as
   it is after this period's games, and the highest becomes the best model (the paper compares
   with the best model's score from earlier periods, against a weaker Q-agent; scoring all
   against the same opponent keeps a stale score, or a score against a freshly reset table,
   from deciding). When the best model's score falls more than ``drop`` below its past
   average, the rules have changed: it goes into the memory, the stored models compete (the
   recall), and the Q-table is reset after the choice.

The model builder is pluggable: ``"neural"`` is the paper's network (``learners.hqn.model_network``);
``discover.app.experiments.hqn.SymbolicModelBuilder`` fits rules with the discovery engines instead
(the paper's proposal). The solver is used only to score the records of ``history_``.
"""

from __future__ import annotations

import math

import numpy as np

from learners.agents import HypothesisAgent
from cgbase.validation import positive_int
from learners.arena import Arena, carry_table
from learners.base import Learner
from learners.episodes import GREEDY, HYPER, Q, REPLY, START_RANDOM, STATS, run_episodes
from learners.metrics import policy_accuracy
from learners.play import duel
from cgbase.progress import progress_bar
from learners.rng import new_state
from learners.value_table import ValueTable

__all__ = ["HQN"]


class HQN(Learner):
    """The Hierarchical Q-Network.

    Parameters
    ----------
    model : "neural" or a builder
        A builder has ``name`` and ``build(game, positions, cold, weights, bound, rng)`` returning a
        model, or a list of candidate models, with ``cold(positions)`` and ``describe()``.
    alpha, temperature : float
        The Q-agent's learning rate and Boltzmann temperature (discount 1, as in the paper).
    confidence : float
        A position enters the model's dataset when ``|max_a Q| >= confidence``.
    limit, steepness, onset : float
        The model-confidence probability ``limit / (1 + exp(-steepness (perf - onset)))``.
    drop : float
        A severe drop: the best model's performance falls this far below its past average.
    margin : float
        A new or stored model replaces the best one only when it scores this much higher.
    eval_games : int
        Games per model evaluation.
    random_state : int
    """

    name = "hqn"

    def __init__(self, *, model="neural", alpha: float = 0.45, temperature: float = 0.2, confidence: float = 0.3,
                 limit: float = 0.5, steepness: float = 20.0, onset: float = 0.6, drop: float = 0.25,
                 margin: float = 0.02, eval_games: int = 300, random_state: int = 0):
        self.model = model
        self.alpha = alpha
        self.temperature = temperature
        self.confidence = confidence
        self.limit = limit
        self.steepness = steepness
        self.onset = onset
        self.drop = drop
        self.margin = margin
        self.eval_games = eval_games
        self.random_state = random_state

    def __repr__(self, N_CHAR_MAX=700) -> str:
        params = self.ordered_params()
        model = params["model"]
        params["model"] = model if isinstance(model, str) else getattr(model, "name", type(model).__name__)
        return f"HQN({', '.join(f'{k}={v!r}' for k, v in params.items())})"

    def check_game(self, game) -> None:
        super().check_game(game)
        if game.universe_from_start:
            raise ValueError(f"the HQN learns on a small board and is scored on a larger one (integer coordinates); "
                             f"{game!r} is a board game with one fixed universe")

    def check_boards(self, game, bound: int, eval_bound: int) -> tuple[int, int]:
        """``(bound, eval_bound)`` checked for ``game``, before any work: a game of integer coordinates, scored on
        a board at least as large as the one it learns on.

        Examples
        --------
        >>> from games import make_game
        >>> HQN().check_boards(make_game("wythoff"), 20, 5)
        Traceback (most recent call last):
        ...
        ValueError: eval_bound (5) must be at least bound (20)
        """
        bound, eval_bound = positive_int(bound, "bound"), positive_int(eval_bound, "eval_bound")
        if eval_bound < bound:
            raise ValueError(f"eval_bound ({eval_bound}) must be at least bound ({bound})")
        self.check_game(game)
        return bound, eval_bound

    def budget(self, games: int | None, arena) -> dict:
        """Periods of 2,000 games (``games`` in all, by default 15 periods), models scored on ``arena``'s board."""
        per = 2000 if games is None else min(2000, int(games))
        periods = 15 if games is None else max(1, -(-int(games) // per))
        return {"periods": periods, "episodes": per, "eval_bound": arena.bound}

    # -- fitting ---------------------------------------------------------------------
    def fit(self, game, *, bound: int = 12, eval_bound: int = 50, periods: int = 20, episodes: int = 2000,
            warm_start: bool = False, progress: bool = False, solution=None) -> "HQN":
        """Run ``periods`` periods of ``episodes`` Q-agent games on ``game`` (training board
        ``bound``, models evaluated on ``eval_bound``).

        With ``warm_start`` the agent keeps its Q-table (moves carried over by their positions),
        best model, performance history and memory: changing ``game`` between two calls changes
        the rules without telling the agent, which has to notice by itself (the HQN paper's figure 11).
        ``solution``, the game solved on ``eval_bound``, is used only for the scores of ``history_``;
        ``value_table_`` holds the Q-agent's table over the evaluation board.
        """
        bound, eval_bound = self.check_boards(game, bound, eval_bound)
        periods, episodes = positive_int(periods, "periods"), positive_int(episodes, "episodes")
        builder = self._builder()
        arena = Arena(game, eval_bound, solution if solution is not None and solution.bound == eval_bound else None)
        inside = np.all(arena.universe.positions() <= bound, axis=1)
        pool = np.flatnonzero(inside & (np.diff(arena.indptr) > 0))
        if pool.size == 0:  # the episode kernel draws its starts from the pool
            raise arena.nothing_to_learn(bound)
        rng = np.random.default_rng([self.random_state, len(getattr(self, "history_", []))])
        if not warm_start or not hasattr(self, "history_"):
            self._reset()
            self.table_ = np.zeros((2, arena.edges))
        else:
            self.table_ = carry_table(self.arena_, self.table_, arena)
        self.arena_ = arena
        with progress_bar(progress, periods, 0, self.progress_label(game), unit="periods") as advance:
            for _ in range(periods):
                record = self._period(arena, pool, inside, bound, episodes, builder, rng)
                record["game"] = repr(game)
                self.history_.append(record)
                advance(1, f"model accuracy {record['model_accuracy']:.3f}")
        meta = {"learner": "HQN", "params": self.json_params(), "episodes": self.episodes_, "bound": eval_bound}
        self.value_table_ = ValueTable(game, arena.universe, arena.indptr, arena.targets, self.table_[0],
                                       self.table_[1], arena.terminal, meta)
        return self

    def _reset(self):
        self.history_, self.memory_ = [], []
        self.best_model_, self.best_performance_, self.performances_ = None, 0.0, []
        self.episodes_ = 0
        self.state_ = new_state(self.random_state)

    def _builder(self):
        if self.model == "neural":
            from learners.hqn.model_network import NeuralModelBuilder

            return NeuralModelBuilder()
        if isinstance(self.model, str) or not hasattr(self.model, "build"):
            raise ValueError(f"model must be 'neural' or a builder with a build() method, got {self.model!r}")
        return self.model

    def _period(self, arena, pool, inside, bound, episodes, builder, rng) -> dict:
        p_model = self.model_probability()
        hint = np.zeros(arena.edges) if self.best_model_ is None else HypothesisAgent(self.best_model_.cold).edge_weights(arena)
        hyper = np.zeros((2, len(HYPER)))
        hyper[0, [0, 1, 4, 6]] = self.alpha, 1.0, self.temperature, p_model
        stats = np.zeros(len(STATS), dtype=np.int64)
        run_episodes(arena.indptr, arena.targets, arena.terminal, arena.outcome, pool, START_RANDOM, self.episodes_,
                     episodes, np.array([Q, GREEDY]), np.array([True, False]), np.array([REPLY, REPLY]),
                     self.table_, self.table_, hint, np.zeros(0), hyper, False, arena.size + 1, self.state_, stats)
        self.episodes_ += episodes
        built = [(self._evaluate(m, arena), m) for m in self._build(arena, inside, bound, builder, rng)]
        performance = max((p for p, _ in built), default=float("nan"))
        # every contender is scored against the Q-agent as it is now: the best model first (it keeps
        # its place on a tie), after a detected change every stored model (recall), then the new ones
        incumbent = self.best_model_
        contenders = [] if incumbent is None else [(self._evaluate(incumbent, arena), incumbent)]
        changed = bool(contenders) and np.mean(self.performances_) - contenders[0][0] > self.drop
        if changed or incumbent is None:
            contenders += [(self._evaluate(m, arena), m) for m in self.memory_]
        contenders += built
        if contenders:
            # a challenger must beat the incumbent by ``margin``: scores of a few hundred games are noisy
            keep = 0 if incumbent is None or changed else self.margin
            best_perf, best = max(((p + (keep if m is incumbent else 0.0), m) for p, m in contenders),
                                  key=lambda item: item[0])
            best_perf -= keep if best is incumbent else 0.0
            if best is not incumbent:
                self.performances_ = []
            self.best_model_, self.best_performance_ = best, best_perf
            self.performances_.append(best_perf)
        if changed:
            if not any(incumbent is m for m in self.memory_):
                self.memory_.append(incumbent)
            self.table_[:] = 0.0  # the values learned under the old rules would mislead
        greedy = arena.best_edges(self.table_[0])
        best = self.best_model_
        return {
            "period": len(self.history_) + 1, "episode": self.episodes_, "change_detected": changed,
            "model_probability": p_model, "new_performance": performance, "best_performance": self.best_performance_,
            "recalled": best is not None and any(best is m for m in self.memory_),
            "q_accuracy": policy_accuracy(arena, greedy, inside),
            "model_accuracy": policy_accuracy(arena, HypothesisAgent(best.cold).edge_weights(arena)) if best else float("nan"),
            "model": best.describe() if best else None,
        }

    def _build(self, arena, inside, bound, builder, rng):
        value = np.full(arena.size, -np.inf)
        np.maximum.at(value, arena.sources, self.table_[0])
        value[np.diff(arena.indptr) == 0] = arena.terminal[np.diff(arena.indptr) == 0]
        keep = np.flatnonzero(inside & (np.abs(value) >= self.confidence))
        cold = value[keep] < 0
        if keep.size == 0 or cold.all() or not cold.any():
            return []
        built = builder.build(arena.game, arena.universe.positions(keep), cold, np.abs(value[keep]), bound, rng)
        return list(built) if isinstance(built, (list, tuple)) else [built]

    def _evaluate(self, model, arena) -> float:
        """Share of games the model's agent wins, moving first from random positions, against greedy Q."""
        weights = HypothesisAgent(model.cold).edge_weights(arena)
        result = duel(arena, weights, arena.best_edges(self.table_[0]), self.eval_games, self.random_state,
                      stream=1 + len(self.history_))
        return result["wins"] / max(1, result["games"])

    def model_probability(self) -> float:
        """How often the Q-agent takes the best model's move now."""
        if self.best_model_ is None:
            return 0.0
        return self.limit / (1.0 + math.exp(-self.steepness * (self.best_performance_ - self.onset)))

    def policy(self):
        """The best model's agent (moves into positions it calls cold)."""
        self.check_fitted("best_model_")
        if self.best_model_ is None:
            raise ValueError("the HQN's fit built no model yet: fit it for more periods")
        return HypothesisAgent(self.best_model_.cold)
