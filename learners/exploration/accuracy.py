"""The exact measure of what a learner knows: where a winning move exists, does its greedy move win?

The Hex exploration paper could only compare its learners by matches against another program.
Here the solver says, for a set of positions with a winning move (N positions), which of their moves
win: by the retrograde (``solvers.solve``: every position of Hex up to 4 x 4) or by the proof-number
search (``solvers.search.Prover``: positions of Hex 5 x 5; ``solvers.hex_solver.HexSolver``: 6 x 6 and 7 x 7).  A measure is called with a function from
positions to the network's scores per move (``learners.exploration.boards``) and returns the share of
its positions where the move of largest score wins (``ExactMeasure``).  ``OpeningMeasure`` looks at the
moves from the empty board one by one, as the paper's figure 1 does: whether the greedy opening wins,
the share of openings whose win probability is on the right side of 1/2, and the share of (winning,
losing) pairs of openings that the learned probabilities order correctly (the area under the ROC curve).
"""

from __future__ import annotations

import numpy as np

from learners.exploration.boards import BoardActions, segment_argmax

__all__ = ["ExactMeasure", "OpeningMeasure", "random_positions", "searched_wins"]

CHUNK = 65536  # positions scored per call


class ExactMeasure:
    """Positions with a winning move and which of their moves win; called on a scoring function, the share of
    positions where the move of largest score wins.

    Parameters
    ----------
    game : BoardGame
    positions : (m, dims) array
        Live positions, each with at least one winning move.
    wins : bool array
        For every move of every position, in the order of ``BoardActions(game).expand(positions)``,
        whether it wins.
    key : str
        The name of the share in the returned dict.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> measure = ExactMeasure.from_solution(solve(make_game("hex", n=2)))
    >>> len(measure), round(measure(lambda P: np.zeros((len(P), 4)))["accuracy"], 4)  # always the first free cell
    (19, 0.6316)
    """

    def __init__(self, game, positions, wins, key: str = "accuracy"):
        self.game, self.key = game, key
        self.positions = np.asarray(positions, dtype=np.int64).reshape(-1, game.dims)
        counts, _, actions = BoardActions(game).expand(self.positions)
        self.wins = np.asarray(wins, dtype=bool)
        if self.wins.shape != actions.shape:
            raise ValueError(f"wins must hold one flag per move ({actions.size}), got shape {self.wins.shape}")
        if (counts == 0).any() or (np.bincount(np.repeat(np.arange(len(counts)), counts), weights=self.wins,
                                               minlength=len(counts)) == 0).any():
            raise ValueError("every position of an exact measure needs a winning move")
        self.counts, self.actions = counts, actions.astype(np.int32)
        self.starts = np.concatenate([[0], np.cumsum(counts)])

    def __len__(self) -> int:
        return len(self.positions)

    @classmethod
    def from_solution(cls, solution, sample: int | None = None, seed: int = 0, key: str = "accuracy"):
        """Every N position with a move of a solved universe (a misere game's finished positions are N and have
        none), or a seeded uniform ``sample`` of them (without replacement)."""
        game = solution.game
        board = BoardActions(game)
        ids = np.flatnonzero(solution.outcome_table == 1)
        live = [ids[i:i + CHUNK][board.expand(solution.universe.positions(ids[i:i + CHUNK]))[0] > 0]
                for i in range(0, ids.size, CHUNK)]
        ids = np.concatenate(live) if live else ids
        if sample is not None and sample < ids.size:
            ids = np.sort(np.random.default_rng([seed, 16]).choice(ids, size=sample, replace=False))
        wins = []
        for i in range(0, ids.size, CHUNK):
            _, options, _ = board.expand(solution.universe.positions(ids[i:i + CHUNK]))
            wins.append(solution.outcome(options) == -1)
        return cls(game, solution.universe.positions(ids), np.concatenate(wins) if wins else [], key)

    @classmethod
    def from_search(cls, game, positions, prover=None, key: str = "accuracy"):
        """The given positions that have a winning move, every move valued by the proof-number search."""
        positions = np.asarray(positions, dtype=np.int64).reshape(-1, game.dims)
        counts, _, wins = searched_wins(game, positions, prover)
        has_win = np.bincount(np.repeat(np.arange(len(counts)), counts), weights=wins, minlength=len(counts)) > 0
        return cls(game, positions[has_win], wins[np.repeat(has_win, counts)], key)

    def greedy_wins(self, scores) -> np.ndarray:
        """Whether the move of largest score wins, for each position (``scores(positions)`` -> (m, size))."""
        out = np.zeros(len(self), dtype=bool)
        for i in range(0, len(self), CHUNK):
            j = min(len(self), i + CHUNK)
            block = np.asarray(scores(self.positions[i:j]), dtype=float)
            lo, hi = self.starts[i], self.starts[j]
            sources = np.repeat(np.arange(j - i), self.counts[i:j])
            best = segment_argmax(block[sources, self.actions[lo:hi]], self.counts[i:j])
            out[i:j] = self.wins[lo + best]
        return out

    def __call__(self, scores) -> dict:
        return {self.key: float(self.greedy_wins(scores).mean()) if len(self) else float("nan")}


class OpeningMeasure(ExactMeasure):
    """The moves from the start one by one (see the module): ``{prefix}_wins``, ``_agreement``, ``_auc`` and
    ``_q`` (the learned win probability of each opening, in the game's move order).

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> measure = OpeningMeasure.from_solution(solve(make_game("hex", n=2)))
    >>> measure.wins.tolist()  # the two cells of the short diagonal win
    [False, True, True, False]
    >>> measure(lambda P: np.array([[0.0, 2.0, 1.0, -1.0]]))["opening_auc"]
    1.0
    """

    def __init__(self, game, wins, prefix: str = "opening"):
        super().__init__(game, np.asarray(game.start, dtype=np.int64)[None, :], wins, f"{prefix}_wins")
        self.prefix = prefix

    @classmethod
    def from_solution(cls, solution, prefix: str = "opening"):
        """The openings valued by a solved universe."""
        game = solution.game
        _, options, _ = BoardActions(game).expand(np.asarray(game.start, dtype=np.int64)[None, :])
        return cls(game, solution.outcome(options) == -1, prefix)

    @classmethod
    def from_search(cls, game, prover=None, prefix: str = "opening"):
        """The openings valued by the proof-number search."""
        return cls(game, searched_wins(game, np.asarray(game.start, dtype=np.int64)[None, :], prover)[2], prefix)

    def __call__(self, scores) -> dict:
        logits = np.asarray(scores(self.positions), dtype=float)[0, self.actions]
        q = 1.0 / (1.0 + np.exp(-logits))
        won, lost = q[self.wins], q[~self.wins]
        pairs = (won[:, None] > lost[None, :]).sum() + 0.5 * (won[:, None] == lost[None, :]).sum()
        return {f"{self.prefix}_wins": float(self.wins[np.argmax(logits)]),
                f"{self.prefix}_agreement": float(((q > 0.5) == self.wins).mean()),
                f"{self.prefix}_auc": float(pairs / (won.size * lost.size)) if won.size and lost.size else float("nan"),
                f"{self.prefix}_q": q.round(4).tolist()}


def searched_wins(game, positions, prover=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(counts, options, wins)`` of an (m, dims) array: every move valued exactly by the proof-number search
    (``prover``: a ``solvers.search.Prover``, or for Hex 6 x 6 and 7 x 7 a ``solvers.hex_solver.HexSolver``,
    whose table is reused; a fresh one by default)."""
    from solvers.hex_solver import HexSolver
    from solvers.search import Prover

    if prover is None:
        prover = HexSolver(game.n) if game.name == "hex" and game.n >= 6 else Prover(game)
    counts, options, _ = BoardActions(game).expand(positions)
    if isinstance(prover, HexSolver):
        wins = np.array([prover.value(int(o[0]), int(o[1])) == -1 for o in options], dtype=bool)
    else:
        wins = np.array([prover.value(o) == -1 for o in options], dtype=bool)
    return counts, options, wins


def random_positions(game, count: int, stones: tuple[int, int], seed: int = 0) -> np.ndarray:
    """``count`` live positions, each after a uniformly random number of uniformly random moves from the start
    (in ``[stones[0], stones[1]]``; a game that ends on the way is played again), seeded.

    Examples
    --------
    >>> from games import make_game
    >>> P = random_positions(make_game("hex", n=5), 3, (4, 6), seed=1)
    >>> P.shape, [int(np.bitwise_count(p).sum()) in (4, 5, 6) for p in P]
    ((3, 2), [True, True, True])
    """
    lo, hi = stones
    if not 0 <= lo <= hi:
        raise ValueError(f"stones must be a range (low, high) with 0 <= low <= high, got {stones!r}")
    board, rng, out = BoardActions(game), np.random.default_rng([seed, 17]), []
    while len(out) < count:
        p = np.asarray(game.start, dtype=np.int64)
        for _ in range(int(rng.integers(lo, hi + 1))):
            counts, options, _ = board.expand(p[None, :])
            if counts[0] == 0:
                break
            p = options[rng.integers(counts[0])]
        if board.expand(p[None, :])[0][0] > 0 and np.bitwise_count(p).sum() >= lo:
            out.append(p)
    return np.array(out, dtype=np.int64).reshape(-1, game.dims)
