"""The exact measures on a seeded sample, for boards whose positions are too many to enumerate.

Where the positions reachable from the start are the box below it (every coordinate between 0 and the start's, as
in Nim) and the box is too large for an arena (``learners.arena``), the policy head's optimal-move rate and the
value head's sign are estimated on a sample of the box, stratified by total: each total of the coordinates gets a
share of the sample proportional to its share of the box (largest remainders), drawn uniformly among the box's
positions of that total. The allocation is proportional, so the sample weighs every position alike, as the exact
measure does, and the share of sampled N positions where the policy head's top move wins estimates the exact
rate; the interval is the 95% Wilson interval of that share (conservative for a stratified sample).

Each sampled position's value, and the perfect player, come from a *referee*: any object with
``outcome(positions)`` (1 where the player to move wins, -1 where it loses), such as a ``solvers.Solution`` or a
proved theorem.
"""

from __future__ import annotations

import numpy as np

from cgbase.validation import nonnegative_int, positive_int
from learners.options import option_offsets, options_block

__all__ = ["total_counts", "stratified_box_sample", "check_box_sample", "SampledScoring", "MAX_TOTAL"]

MAX_TOTAL = 1000  # largest total of the limits: the draws take time in proportion to it, per sampled position


def total_counts(limits) -> list[int]:
    """Positions of the box ``[0, limits[0]] x [0, limits[1]] x ...`` with each total, exact (Python integers).

    Examples
    --------
    >>> total_counts([1, 2])
    [1, 2, 2, 1]
    """
    counts = [1]
    for limit in limits:
        prefix = [0]
        for ways in counts:
            prefix.append(prefix[-1] + ways)
        top = len(counts) - 1
        counts = [prefix[min(t, top) + 1] - prefix[max(t - limit, 0)] for t in range(top + limit + 1)]
    return counts


def check_box_sample(limits) -> list[int]:
    """The limits as ints, after refusing (``ValueError``) a box ``stratified_box_sample`` would take too long on.

    Examples
    --------
    >>> check_box_sample([1, 3, 5])
    [1, 3, 5]
    >>> check_box_sample([1000, 3])
    Traceback (most recent call last):
    ...
    ValueError: the limits [1000, 3] total 1003: a stratified sample takes at most 1000 (give smaller heaps)
    """
    limits = [nonnegative_int(x, "a coordinate's limit") for x in limits]
    if not limits:
        raise ValueError("limits must give at least one coordinate, such as [1, 3, 5]")
    if sum(limits) > MAX_TOTAL:
        raise ValueError(f"the limits {limits} total {sum(limits)}: a stratified sample takes at most {MAX_TOTAL} "
                         "(give smaller heaps)")
    return limits


def _allocate(counts: list[int], size: int) -> np.ndarray:
    """Sample positions per total, proportional to ``counts``, the remainders to the largest fractions."""
    whole = sum(counts)
    base = [size * c // whole for c in counts]
    fractions = [size * c % whole for c in counts]
    for total in sorted(range(len(counts)), key=lambda t: -fractions[t])[: size - sum(base)]:
        base[total] += 1
    return np.asarray(base, dtype=np.int64)


def stratified_box_sample(limits, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` positions of the box below ``limits``, stratified by total with proportional allocation, each
    uniform among the box's positions of its total; an (size, len(limits)) array.

    Examples
    --------
    >>> sample = stratified_box_sample([1, 3, 5], 6, np.random.default_rng(0))
    >>> sample.shape, bool((sample <= [1, 3, 5]).all()), sorted(sample.sum(axis=1).tolist())
    ((6, 3), True, [2, 3, 4, 5, 6, 7])
    """
    limits = check_box_sample(limits)
    size = positive_int(size, "size")
    # ways[i][t]: positions of the coordinates i, i+1, ... summing to t
    ways = [total_counts(limits[i:]) for i in range(len(limits))] + [[1]]
    per_total = _allocate(ways[0], size)
    totals = np.repeat(np.arange(len(per_total)), per_total)
    out = np.zeros((size, len(limits)), dtype=np.int64)
    for row, total in enumerate(totals.tolist()):
        left = total
        for i, limit in enumerate(limits):
            rest = ways[i + 1]
            weights = np.array([float(rest[left - x]) if 0 <= left - x < len(rest) else 0.0
                                for x in range(min(limit, left) + 1)])
            x = int(rng.choice(len(weights), p=weights / weights.sum()))
            out[row, i], left = x, left - x
    return out


class SampledScoring:
    """The policy head's optimal-move rate and the value head's sign on a sample, judged by a referee; its
    ``referee`` also serves as the perfect player's solution (``learners.alphazero.play.OptimalMover``).

    Parameters
    ----------
    game : Game
    positions : array of shape (m, dims)
        The sample (``stratified_box_sample``).
    referee : object with ``outcome(positions)``
        1 where the player to move wins, -1 where it loses (0 drawn).
    name : str
        What the referee is, for the reports (such as "Bouton's theorem").

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> game = make_game("nim", heaps=3)
    >>> scoring = SampledScoring(game, stratified_box_sample([1, 3, 5], 40, np.random.default_rng(0)),
    ...                          solve(game, bound=5), "the solver")
    >>> scoring.n_positions, 0 < scoring.n_positions < 40
    (30, True)
    """

    def __init__(self, game, positions, referee, name: str):
        self.game, self.referee, self.name = game, referee, str(name)
        self.positions = np.asarray(positions, dtype=np.int64)
        self.counts, self.options = options_block(game, self.positions)
        self.outcome = np.asarray(referee.outcome(self.positions))
        self.winning = self.outcome == 1
        self.option_wins = referee.outcome(self.options) == -1  # an option lost for its mover wins
        self.n_positions = int(self.winning.sum())

    def measure(self, policy_value) -> dict:
        """``optimal_move_rate`` (with ``_low`` and ``_high``, its 95% Wilson interval), ``value_accuracy`` and
        ``sample_n_positions`` of a network (``learners.alphazero.network.PolicyValue``) on the sample."""
        from learners.repeats import share_interval

        values = policy_value.outputs_chunked(self.positions)[0]
        logits = policy_value.outputs_chunked(self.options)[1].astype(float) if len(self.options) else np.zeros(0)
        starts = option_offsets(self.counts)
        live = self.counts > 0
        top = np.full(len(self.counts), -np.inf)
        top[live] = np.maximum.reduceat(logits, starts[live]) if live.any() else top[live]
        rows = np.repeat(np.arange(len(self.counts)), self.counts)
        wrong = np.zeros(len(self.counts), dtype=bool)
        np.logical_or.at(wrong, rows, (logits == top[rows]) & ~self.option_wins)
        good = int((self.winning & ~wrong).sum())
        rate = share_interval(good, self.n_positions) if self.n_positions else (np.nan,) * 3
        decided = live & (self.outcome != 0)
        value = float(np.mean(np.sign(values[decided]) == self.outcome[decided])) if decided.any() else np.nan
        return {"optimal_move_rate": rate[0], "optimal_move_rate_low": rate[1], "optimal_move_rate_high": rate[2],
                "value_accuracy": value, "sample_n_positions": self.n_positions}

    def __repr__(self) -> str:
        return f"SampledScoring({self.game!r}, {len(self.positions):,} positions, {self.name})"
