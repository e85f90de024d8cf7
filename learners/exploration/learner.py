"""``BoardQLearner``: the learners of the Hex exploration paper, as one estimator with orthogonal parts.

A convolutional network with hexagonal filters (``learners.exploration.network``) learns ``Q(S, A)``,
the probability that move A wins for the player to move at S, in self-play from the empty board
(``learners.exploration.training``).  The paper's methods are parameters that combine:

* ``backup``: ``"minimax"``, one-step minimax Q-learning ``Q(S, A) <- 1 - max_A' Q(S', A')``, or
  ``"joint"``, the joint-distribution backup ``Q(S, A) <- prod_A' (1 - Q(S', A'))``;
* ``exploration``: ``"epsilon"`` (epsilon-greedy on Q), ``"variance"`` (variance-reduction exploration:
  a Q_exp head and the exploration-greedy move; needs the joint backup it was derived from) or
  ``"pseudocount"`` (a Q_exp head fed by the bonus ``beta / sqrt(N)`` of a density model's pseudo-counts;
  the minimax form of the update), with probability ``epsilon`` of a uniformly random move in all cases;
* solver guidance (Hex): ``must_play`` restricts the greedy moves to the must-play region, and
  ``solver_nodes > 0`` lets the proof-number search try each position reached with that many expanded
  positions; a proved value replaces the move's one-step target.

``learners.exploration.VARIANTS`` names the paper's combinations.  The backups, scores and their
two corrections of the printed formulas are in ``learners.exploration.backups``.

Fitted: ``history_`` (one record per ``eval_every`` games: the paper's curves and the exact measures),
``value_table_`` (when the game's universe has at most ``MAX_TABLE_POSITIONS`` positions: Q of every move
as ``2 Q - 1``; visit counts are not kept, they are 0), ``episodes_``, ``trainer_`` (network, optimiser,
replay memory) and ``policy()``.
"""

from __future__ import annotations

import numpy as np

from cgbase.memory import check_memory
from cgbase.optional import torch_module
from learners.exploration.accuracy import ExactMeasure
from learners.exploration.agent import QAgent
from learners.exploration.boards import BoardActions
from learners.exploration.guidance import MustPlay, ProvedTargets
from learners.exploration.training import Trainer
from cgbase.progress import progress_bar
from cgbase.validation import flag, nonnegative_int, number_in, positive_int, seed
from learners.base import Learner

__all__ = ["BoardQLearner", "BACKUPS", "EXPLORATIONS", "MAX_TABLE_POSITIONS"]

BACKUPS = ("minimax", "joint")
EXPLORATIONS = ("epsilon", "variance", "pseudocount")
MAX_TABLE_POSITIONS = 2_000_000  # largest universe solved for the default measure and tabulated


class BoardQLearner(Learner):
    """Q-learning of win probabilities on a board game, with the Hex exploration paper's backups, exploration and
    solver guidance (see the module docstring).

    Parameters
    ----------
    backup : {"minimax", "joint"}
    exploration : {"epsilon", "variance", "pseudocount"}
    must_play : bool
        Greedy moves only inside the must-play region when it leaves any (Hex).
    solver_nodes : int
        Positions the search may expand to prove each position reached (0: no proofs; Hex up to 7 x 7).
    epsilon : float
        Probability of a uniformly random legal move.
    beta : float
        Scale of the pseudo-count bonus ``beta / sqrt(N)`` (the paper: 0.0025).
    exploration_discount : float
        Discount of the pseudo-count exploration value (the paper: 0.95).
    printed_sign : bool
        Variance reduction: run the Q_exp update with the sign as printed in the paper (see
        ``learners.exploration.backups``); the default estimates the variance reduction itself.
    layers, width, head_layers, first_diameter : int
        The network: convolution layers and their filters; top layers repeated per head; the first
        layer's filter diameter (``learners.exploration.network``).
    learning_rate : float
        RMSprop's step size.
    games, batch_size, replay_size : int
        Games played side by side; moves per minibatch update (one per step of the games); moves the
        replay memory keeps.
    device : str
        "cpu" or "cuda".
    random_state : int

    Examples
    --------
    >>> from games import make_game
    >>> learner = BoardQLearner(backup="joint", layers=2, width=8, games=8, batch_size=16, random_state=0)
    >>> learner = learner.fit(make_game("hex", n=2), episodes=40, eval_every=20)
    >>> [r["episode"] for r in learner.history_], learner.value_table_.q.shape
    ([20, 40], (46,))
    """

    name = "board_q"

    def __init__(self, *, backup: str = "minimax", exploration: str = "epsilon", must_play: bool = False,
                 solver_nodes: int = 0, epsilon: float = 0.1, beta: float = 0.0025, exploration_discount: float = 0.95,
                 printed_sign: bool = False, layers: int = 4, width: int = 32, head_layers: int = 1,
                 first_diameter: int = 5, learning_rate: float = 1e-3, games: int = 32, batch_size: int = 128,
                 replay_size: int = 20_000, device: str = "cpu", random_state: int = 0):
        self.backup = backup
        self.exploration = exploration
        self.must_play = must_play
        self.solver_nodes = solver_nodes
        self.epsilon = epsilon
        self.beta = beta
        self.exploration_discount = exploration_discount
        self.printed_sign = printed_sign
        self.layers = layers
        self.width = width
        self.head_layers = head_layers
        self.first_diameter = first_diameter
        self.learning_rate = learning_rate
        self.games = games
        self.batch_size = batch_size
        self.replay_size = replay_size
        self.device = device
        self.random_state = random_state

    def fit(self, game, *, episodes: int, bound=None, eval_every: int | None = None, measures=None,
            solution=None, progress: bool = False) -> "BoardQLearner":
        """Play ``episodes`` self-play games from the empty board, learning as they go.

        Parameters
        ----------
        game : BoardGame
            Hex (any n; the search's guidance up to 5 x 5), tic-tac-toe or Notakto.
        episodes : int
            Games to play in all.
        bound : None
            Ignored (a board game's universe is fixed by its parameters); accepted for the learner contract.
        eval_every : int, optional
            Games between records of ``history_`` (default ``episodes // 20``, at least 1).
        measures : list of callables, optional
            Each called at every record with the network's scoring function (positions -> Q logits) and
            returning a dict added to the record (``learners.exploration.accuracy``).  Default: where the
            universe has at most ``MAX_TABLE_POSITIONS`` positions, the share of all its N positions where
            the greedy move wins, as ``optimal_move_rate``; otherwise none.
        solution : Solution, optional
            The game solved over its universe (solved here when it has at most ``MAX_TABLE_POSITIONS``
            positions), used only for the default measure and the value table.
        progress : bool
            Show a progress bar.

        Returns
        -------
        self
        """
        self._check()
        self.check_game(game)
        episodes = positive_int(episodes, "episodes")
        every = max(1, episodes // 20) if eval_every is None else positive_int(eval_every, "eval_every")
        solution = _small_solution(game, solution)
        if measures is None:
            measures = [ExactMeasure.from_solution(solution, key="optimal_move_rate")] if solution is not None else []
        torch = torch_module("the exploration learner")
        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # small batches: one thread is fastest, and idle threads would spin
        try:
            trainer = Trainer(self, game)
            history, mark = [], 0
            with progress_bar(progress, episodes, 0, self.progress_label(game)) as advance:
                while mark < episodes:
                    step = min(episodes, mark + every) - mark
                    mark += step
                    trainer.play_until(mark)
                    history.append(trainer.record(measures))
                    rate = history[-1].get("optimal_move_rate")
                    advance(step, f"greedy move wins {rate:.3f}" if isinstance(rate, float) else "")
        finally:
            torch.set_num_threads(threads)
        self.history_, self.episodes_, self.trainer_, self.game_ = history, episodes, trainer, game
        self.value_table_ = self._value_table(solution) if solution is not None else None
        return self

    def check_game(self, game) -> None:
        """Raise a ``ValueError`` saying what is missing when this learner cannot learn ``game``: a board game
        with a plane encoding (Hex, tic-tac-toe, Notakto); Hex for ``must_play``; a game the proof-number
        search knows (Hex up to 5 x 5, Notakto; Hex 6 x 6 and 7 x 7 by the solver with virtual connections) for
        ``solver_nodes``."""
        BoardActions(game)
        if self.must_play:
            MustPlay(game)
        if self.solver_nodes:
            ProvedTargets(game, 1, table_bits=4)

    def budget(self, games: int | None, arena=None) -> dict:
        """Keywords of ``fit`` for about ``games`` games (None: 1,000), with five records.

        Examples
        --------
        >>> BoardQLearner().budget(100)
        {'episodes': 100, 'eval_every': 20}
        """
        episodes = 1000 if games is None else positive_int(games, "games")
        return {"episodes": episodes, "eval_every": max(1, episodes // 5)}

    def action_scores(self, positions) -> np.ndarray:
        """The fitted network's Q logits of an (m, dims) array of positions: (m, size), one per move output
        (``learners.exploration.boards``); ``1 / (1 + exp(-x))`` is the win probability."""
        self.check_fitted("trainer_")
        return self.trainer_.scores(positions)

    def policy(self, name: str | None = None) -> QAgent:
        """The greedy player of the fitted network, as an agent."""
        self.check_fitted("trainer_")
        return QAgent(self.action_scores, self.trainer_.board, name or self.name)

    def _value_table(self, solution):
        from learners.value_table import ValueTable

        from solvers import build_graph

        game, universe = solution.game, solution.universe
        graph = solution.graph if solution.graph is not None else build_graph(game, universe)
        positions = universe.positions()
        degree = np.diff(graph.indptr)
        sources, targets = np.repeat(np.arange(universe.size), degree), graph.targets[:, 0]
        actions = self.trainer_.board.actions(positions[sources], positions[targets])
        q = 2.0 / (1.0 + np.exp(-self.action_scores(positions)[sources, actions])) - 1.0
        terminal = np.zeros(universe.size, dtype=np.int8)
        ends = np.flatnonzero(degree == 0)
        terminal[ends] = game.terminal_values(positions[ends])
        meta = {"learner": type(self).__name__, "params": self.json_params(), "episodes": int(self.episodes_), "opponent": "self",
                "start": "the empty board", "bound": universe.bound}
        return ValueTable(game, universe, graph.indptr, targets, q, np.zeros(targets.size), terminal, meta)

    def check_params(self) -> None:
        """Raise a ``ValueError`` naming a parameter the learner cannot use (a network beyond memory among them).

        Examples
        --------
        >>> BoardQLearner(width=10**9).check_params()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: a network of 4 layers of width 1,000,000,000 needs about ...
        """
        self._check()

    def _check(self) -> None:
        for name, allowed in (("backup", BACKUPS), ("exploration", EXPLORATIONS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"unknown {name} {getattr(self, name)!r}: use one of {', '.join(allowed)}")
        if self.exploration == "variance" and self.backup != "joint":
            raise ValueError("variance-reduction exploration is derived for the joint backup: use backup='joint'")
        if self.exploration == "pseudocount" and self.backup != "minimax":
            raise ValueError("pseudo-count exploration uses the minimax form of the update: use backup='minimax'")
        for name in ("must_play", "printed_sign"):
            flag(getattr(self, name), name)
        for name in ("solver_nodes", "head_layers"):
            nonnegative_int(getattr(self, name), name)
        for name in ("layers", "width", "games", "batch_size", "replay_size"):
            positive_int(getattr(self, name), name)
        seed(self.random_state)
        if self.head_layers >= self.layers:
            raise ValueError(f"head_layers ({self.head_layers}) must be fewer than layers ({self.layers})")
        # at least: 3 x 3 convolutions of width x width filters after the first layer, and the first and the output
        # layers' width weights each; a float32 weight, its gradient and Adam's two moments
        weights = (self.layers - 1) * 9 * self.width ** 2 + 2 * self.width
        check_memory(16.0 * weights, f"a network of {self.layers} layers of width {self.width:,}",
                     "use fewer layers or a smaller width")
        if self.first_diameter not in (1, 3, 5, 7, 9):
            raise ValueError(f"first_diameter must be an odd filter diameter from 1 to 9, got {self.first_diameter!r}")
        if self.replay_size < self.batch_size:
            raise ValueError(f"replay_size ({self.replay_size}) must hold at least one batch ({self.batch_size})")
        for name, high in (("epsilon", 1.0), ("exploration_discount", 1.0), ("beta", np.inf)):
            number_in(getattr(self, name), name, 0, high)
        number_in(self.learning_rate, "learning_rate", 0, np.inf, low_open=True)
        if self.device not in ("cpu", "cuda") and not str(self.device).startswith("cuda:"):
            raise ValueError(f"device must be 'cpu' or 'cuda', got {self.device!r}")
        if str(self.device).startswith("cuda") and not torch_module("the exploration learner").cuda.is_available():
            raise ValueError(f"device {self.device!r} asked for, but torch sees no GPU here: use device='cpu'")


def _small_solution(game, solution):
    """``solution`` (checked to be of ``game``), or ``game`` solved here; None when the universe has more than
    ``MAX_TABLE_POSITIONS`` positions."""
    if solution is not None:
        if solution.game != game:
            raise ValueError(f"the solution is of {solution.game!r}, not {game!r}")
        return solution if solution.universe.size <= MAX_TABLE_POSITIONS else None
    if game.position_count_bound() > MAX_TABLE_POSITIONS:
        return None
    from solvers import solve

    return solve(game)

