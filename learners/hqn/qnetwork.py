"""The HQN paper's Q-network baseline (figure 7, ``Q_network_learn``; section 3.2).

A feed-forward network (one hidden layer of sigmoid units, linear outputs) maps a position
(its coordinates divided by the bound) to a vector of Q-values over a fixed action set.
Only games whose moves are lines are supported (``game.line_directions``: nim, wythoff,
wythoff_nd): action ``(d, t)`` subtracts ``t`` times direction ``d``, ``t`` in ``1..bound``,
and actions that leave the board are masked out when choosing.

Each episode starts at a random position with a move. The learner draws its move by
Boltzmann over the legal Q-values; reward 1 when that ends the game (under normal play: the
game's terminal rule decides, so misere works too), otherwise the opponent replies (the
optimal player from the solver, or a random one); reward -1 when the reply ends the game,
else ``gamma * max`` legal ``Q(s'')``. The chosen action's entry of the Q-vector moves
towards the reward, ``q[a] += alpha (reward - q[a])``, and the network takes one gradient
step (Adam by default) towards that target vector, or, with experience replay, on a
minibatch drawn from a buffer of past (state, target vector) instances. The solver only
scores the records. torch is imported here only, when fitting.

On boards beyond a few positions the network learns little, as the HQN paper reports of its QN agent
(no better than chance; architecture, cost function and layer count without noticeable effect). The
targets are not at fault: this loop with a lookup table in place of the network (one row of Q-values
per position) learns 3-heap Nim <= 7 exactly in 20,000 episodes, every position labelled as the solver
says.  The network (15 sigmoid units, 200, or with replay) keeps the Q-values of the few winning moves
near the bootstrapped values of the losing ones (about -0.7 against the optimal opponent), so the
table's ``max Q`` calls almost every position P; on Nim with one heap, or two heaps <= 2, its labels
are the solver's (the test that guards the targets' signs).
"""

from __future__ import annotations

import time

import numpy as np

from cgbase.optional import torch_module
from cgbase.validation import number_in, positive_int, seed
from learners.arena import Arena
from learners.metrics import policy_accuracy
from learners.base import Learner
from cgbase.progress import progress_bar
from learners.value_table import ValueTable

__all__ = ["QNetworkLearner"]

OPPONENTS = ("optimal", "random")
LOSSES = ("mse", "sse")
OPTIMIZERS = ("adam", "sgd")
SUPPORTED = ("nim", "wythoff", "wythoff_nd")


class QNetworkLearner(Learner):
    """Q-learning with a neural network over a fixed action set (the HQN paper's QN agent).

    Parameters
    ----------
    hidden : int
        Sigmoid units in the one hidden layer (the paper: 15).
    learning_rate : float
        Step size of the optimizer that backpropagates the error.
    alpha : float
        the paper's ``lr`` on the target vector: ``q[a] += alpha (reward - q[a])``, in (0, 1].
    gamma : float
        Discount of the value after the reply, in [0, 1].
    temperature : float
        Boltzmann temperature over the legal actions' Q-values.
    replay : bool
        Learn from minibatches of a buffer of past instances instead of the newest one.
    replay_size, batch_size : int
        Instances the buffer keeps (oldest replaced first) and instances per minibatch.
    loss : {"mse", "sse"}
        Mean or sum of squared errors over the Q-vector (the paper: sum-squared error).
    optimizer : {"adam", "sgd"}
        Adam, or plain gradient descent (the paper's standard backpropagation). Adam normalises
        its steps, so under it ``alpha`` and the choice of loss (constant factors on the
        gradient) change little; under ``"sgd"`` the step is ``learning_rate * alpha`` times
        the error (try ``learning_rate=2`` with ``"mse"``).
    random_state : int

    Examples
    --------
    >>> from games import make_game
    >>> learner = QNetworkLearner(random_state=0).fit(make_game("nim", heaps=2), bound=3, episodes=100)
    >>> sorted(learner.history_[-1]), learner.history_[-1]["episode"], learner.value_table_.q.shape
    (['accuracy', 'episode', 'seconds'], 100, (48,))
    """

    name = "qnetwork"

    def __init__(self, *, hidden: int = 15, learning_rate: float = 0.01, alpha: float = 0.5, gamma: float = 1.0,
                 temperature: float = 0.1, replay: bool = False, replay_size: int = 2000, batch_size: int = 16,
                 loss: str = "mse", optimizer: str = "adam", random_state: int = 0):
        self.hidden = hidden
        self.learning_rate = learning_rate
        self.alpha = alpha
        self.gamma = gamma
        self.temperature = temperature
        self.replay = replay
        self.replay_size = replay_size
        self.batch_size = batch_size
        self.loss = loss
        self.optimizer = optimizer
        self.random_state = random_state

    def check_game(self, game) -> None:
        super().check_game(game)
        if getattr(game, "line_directions", None) is None:
            raise ValueError(f"the Q-network needs a game whose moves are lines ({', '.join(SUPPORTED)}), "
                             f"not {game!r}")

    def budget(self, games: int | None, arena) -> dict:
        """``episodes``: ``games``, by default 20,000."""
        return {"episodes": int(games) if games is not None else 20_000}

    # -- fitting ---------------------------------------------------------------------
    def fit(self, game, *, bound: int, episodes: int, opponent: str = "optimal", eval_every=None,
            progress: bool = False, solution=None) -> "QNetworkLearner":
        """Play ``episodes`` games on ``game.universe(bound)``, one gradient step per learner move.

        Parameters
        ----------
        game : Game
            A game whose moves are lines (nim, wythoff, wythoff_nd).
        bound : int
            Every coordinate in [0, bound]; also the largest step and the input scale.
        episodes : int
        opponent : {"optimal", "random"}
            ``"optimal"`` moves into a P position when it can (from the solver), else at random.
        eval_every : int, optional
            Episodes between records of ``history_`` (default ``episodes // 20``, at least 1).
        progress : bool
            Show a progress bar.
        solution : Solution, optional
            The game solved on ``bound`` (solved here otherwise), for the opponent and the scores.

        Returns
        -------
        self
        """
        self._check()
        self.check_game(game)
        if opponent not in OPPONENTS:
            raise ValueError(f"unknown opponent {opponent!r}: use one of {', '.join(OPPONENTS)}")
        episodes = positive_int(episodes, "episodes")
        arena = Arena(game, positive_int(bound, "bound"), solution)
        every = positive_int(eval_every, "eval_every") if eval_every is not None else max(1, episodes // 20)
        torch = torch_module("the Q-network")
        torch.set_num_threads(1)  # a network this small runs fastest on one thread
        rng = np.random.default_rng(self.random_state)
        torch.manual_seed(int(rng.integers(2**31)))
        actions, edge_action = _actions(arena)
        net = torch.nn.Sequential(torch.nn.Linear(arena.universe.dims, self.hidden), torch.nn.Sigmoid(),
                                  torch.nn.Linear(self.hidden, actions))
        inputs = torch.as_tensor(arena.universe.positions().astype(np.float32) / arena.bound)
        run = _Episodes(self, arena, net, inputs, edge_action, actions, opponent, rng, torch)
        history, done, clock = [], 0, time.perf_counter()
        with progress_bar(progress, episodes, 0, self.progress_label(game)) as advance:
            while done < episodes:
                n = min(every, episodes - done)
                run.play(n)
                done += n
                q = _edge_q(net, inputs, arena, edge_action, torch)
                if not np.isfinite(q).all():
                    raise ValueError(f"the network diverged (Q-values not finite) by episode {done}: "
                                     f"lower learning_rate (now {self.learning_rate})")
                history.append({"episode": done, "accuracy": policy_accuracy(arena, arena.best_edges(q)),
                                "seconds": time.perf_counter() - clock})
                advance(n, f"accuracy {history[-1]['accuracy']:.3f}")
        self.network_, self.history_, self.episodes_ = net, history, done
        meta = {"learner": type(self).__name__, "params": self.json_params(), "episodes": done,
                "opponent": opponent, "bound": arena.bound}
        self.value_table_ = ValueTable(game, arena.universe, arena.indptr, arena.targets, np.clip(q, -1.0, 1.0),
                                       np.zeros(arena.edges), arena.terminal, meta)
        return self

    def _check(self) -> None:
        positive_int(self.hidden, "hidden")
        positive_int(self.replay_size, "replay_size")
        positive_int(self.batch_size, "batch_size")
        for name, high in (("learning_rate", np.inf), ("alpha", 1.0), ("temperature", np.inf)):
            number_in(getattr(self, name), name, 0, high, low_open=True)
        number_in(self.gamma, "gamma", 0, 1)
        if self.loss not in LOSSES:
            raise ValueError(f"unknown loss {self.loss!r}: use one of {', '.join(LOSSES)}")
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(f"unknown optimizer {self.optimizer!r}: use one of {', '.join(OPTIMIZERS)}")
        seed(self.random_state)


class _Episodes:
    """The training loop of figure 7 over one arena, kept between records."""

    def __init__(self, learner, arena, net, inputs, edge_action, actions, opponent, rng, torch):
        self.net, self.inputs, self.rng, self.torch = net, inputs, rng, torch
        self.alpha, self.gamma, self.temperature = learner.alpha, learner.gamma, learner.temperature
        self.indptr = arena.indptr.tolist()
        self.targets = arena.targets.tolist()
        self.terminal = arena.terminal.tolist()
        self.edge_action = edge_action
        weights = arena.optimal_weights if opponent == "optimal" else np.ones(arena.edges)
        self.replies = [np.flatnonzero(weights[lo:hi] > 0) + lo for lo, hi in zip(arena.indptr[:-1], arena.indptr[1:])]
        self.starts = arena.live()
        if learner.optimizer == "adam":
            self.optimiser = torch.optim.Adam(net.parameters(), lr=learner.learning_rate, fused=True)
        else:
            self.optimiser = torch.optim.SGD(net.parameters(), lr=learner.learning_rate)
        self.scale = 1.0 if learner.loss == "sse" else 1.0 / actions
        self.replay = learner.replay
        if self.replay:
            self.states = torch.zeros((learner.replay_size, inputs.shape[1]))
            self.vectors = torch.zeros((learner.replay_size, actions))
            self.stored, self.batch = 0, learner.batch_size

    def play(self, episodes: int) -> None:
        """Play ``episodes`` games, learning after each of the learner's moves."""
        torch, net, rng, indptr, targets = self.torch, self.net, self.rng, self.indptr, self.targets
        for _ in range(episodes):
            s = int(self.starts[rng.integers(self.starts.size)])
            while True:
                lo, hi = indptr[s], indptr[s + 1]
                with torch.set_grad_enabled(not self.replay):  # replay learns from a minibatch instead
                    out = net(self.inputs[s])
                q = out.detach().numpy()
                legal = self.edge_action[lo:hi]
                z = q[legal] / self.temperature
                p = np.exp(z - z.max())
                i = int(np.searchsorted(np.cumsum(p), rng.random() * p.sum(), side="right"))
                i = min(i, hi - lo - 1)
                a, s1 = int(legal[i]), targets[lo + i]
                ended = True
                if indptr[s1] == indptr[s1 + 1]:
                    reward = -self.terminal[s1]  # the opponent has no move: the learner's result
                else:
                    options = self.replies[s1]
                    s2 = targets[int(options[rng.integers(options.size)])]
                    if indptr[s2] == indptr[s2 + 1]:
                        reward = self.terminal[s2]
                    else:
                        ended = False
                        with torch.no_grad():
                            after = net(self.inputs[s2]).numpy()
                        reward = self.gamma * float(after[self.edge_action[indptr[s2]:indptr[s2 + 1]]].max())
                goal = float(q[a] + self.alpha * (reward - q[a]))
                self._learn(s, out, a, goal, q)
                if ended:
                    break
                s = s2

    def _learn(self, s: int, out, a: int, goal: float, q) -> None:
        """One backpropagation step towards the target vector (``q`` with ``q[a] = goal``)."""
        self.optimiser.zero_grad()
        if self.replay:
            slot = self.stored % self.states.shape[0]
            self.states[slot] = self.inputs[s]
            self.vectors[slot] = self.torch.as_tensor(q)
            self.vectors[slot, a] = goal
            self.stored += 1
            filled = min(self.stored, self.states.shape[0])
            pick = self.torch.as_tensor(self.rng.integers(filled, size=min(self.batch, filled)))
            error = self.net(self.states[pick]) - self.vectors[pick]
            loss = (error * error).sum() * (self.scale / pick.shape[0])
        else:  # the target vector equals the output except at a: only that entry has an error
            loss = (out[a] - goal) ** 2 * self.scale
        loss.backward()
        self.optimiser.step()


def _actions(arena: Arena):
    """The number of actions and each edge's action ``d * bound + t - 1``."""
    directions = np.array(arena.game.line_directions, dtype=np.int64)
    steps = int(arena.bound)
    if arena.edges == 0:
        return len(directions) * steps, np.zeros(0, dtype=np.int64)
    diff = arena.universe.positions(arena.sources) - arena.universe.positions(arena.targets)
    t = diff.max(axis=1)
    unit = diff // t[:, None]
    match = (unit[:, None, :] == directions[None, :, :]).all(axis=2)
    if not match.any(axis=1).all() or (t > steps).any():
        raise ValueError(f"{arena.game!r}: some moves are not steps of 1..{steps} along its line directions")
    return len(directions) * steps, match.argmax(axis=1) * steps + t - 1


def _edge_q(net, inputs, arena, edge_action, torch) -> np.ndarray:
    """The network's Q for every move of the arena (one forward pass over all positions)."""
    with torch.no_grad():
        table = net(inputs).numpy().astype(float)
    return table[arena.sources, edge_action]
