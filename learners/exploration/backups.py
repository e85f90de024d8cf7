"""The update targets and move scores of the Hex exploration paper, over win probabilities.

``Q(S, A)`` is the probability that move A wins for the player to move at S.  Every function reads
dense arrays of a batch: ``q`` (positions, moves) in [0, 1] and a boolean ``mask`` of the legal moves;
``terminal`` holds, per position reached, the game's outcome for the player to move there (-1 lost,
0 drawn, +1 won) where the game is over, and NaN where it goes on.  A move into a finished game has
the known target ``win_value(terminal)``: 1 when it won, 1/2 for a draw.  Writing ``x <- y`` for a
gradient step on ``(x - y)^2``, with ``S'`` the position after the move:

* one-step minimax Q-learning: ``Q(S, A) <- 1 - max_A' Q(S', A')`` (``minimax_target``);
* the joint-distribution backup, every move of S' independently a win or a loss:
  ``Q(S, A) <- prod_A' (1 - Q(S', A'))`` (``joint_target``), and ``V(S) = 1 - prod_A (1 - Q(S, A))``
  (``joint_value``);
* variance-reduction exploration: ``Q_exp(S, A) <- s (P^2 - Q(S, A)^2) + max_A' R(S', A') Q_exp(S', A')``
  with ``P`` the joint target and ``R(S, A) = prod_{A' != A} (1 - Q(S, A'))^2`` (``variance_target``), and
  the exploration-greedy move ``argmax_A R(S, A) Q_exp(S, A)`` (``exploration_greedy_scores``).  With
  ``s = +1`` Q_exp is the expected reduction of the Bernoulli variance of V along the line played,
  ``E[Q_new^2] - Q^2`` under the paper's assumption ``E[Q_new] = Q``, so the argmax seeks the most
  informative line, the paper's stated aim.  The paper prints ``Q^2 - P^2`` (``s = -1``): that Q_exp
  is the negated reduction (at most 0 in expectation), and its argmax seeks the least informative line.
  ``sign=-1`` runs the update as printed.
* pseudo-count exploration, the value and the exploration value factored so that only the value is
  negated between the players (``pseudocount_targets``): with ``A* = argmax_A' Q(S', A') + Q_exp(S', A')``,
  ``Q(S, A) <- 1 - Q(S', A*)`` and ``Q_exp(S, A) <- b + gamma Q_exp(S', A*)``, ``b = beta / sqrt(N(S'))``.
  The paper prints ``R_exp - Q(S', A*)`` for the second update, the first one's right side with the
  bonus in place of the reward; its text (the bonus is not negated, a discount of 0.95 keeps the
  exploration value from blowing up) describes the update used here.

Examples
--------
>>> q = np.array([[0.2, 0.5, 0.9]]); mask = np.array([[True, True, False]])
>>> minimax_target(q, mask, np.array([np.nan])).round(3).tolist(), joint_target(q, mask, np.array([np.nan])).tolist()
([0.5], [0.4])
"""

from __future__ import annotations

import numpy as np

__all__ = ["win_value", "minimax_target", "joint_target", "joint_value", "others_product_squared",
           "exploration_greedy_scores", "variance_target", "pseudocount_targets"]


def win_value(terminal) -> np.ndarray:
    """The win probability of the move into a finished game: 1 when the player to move there lost, 1/2 drawn, 0 won.

    Examples
    --------
    >>> win_value(np.array([-1, 0, 1])).tolist()
    [1.0, 0.5, 0.0]
    """
    return (1.0 - np.asarray(terminal, dtype=float)) / 2.0


def _finished(terminal, target) -> np.ndarray:
    terminal = np.asarray(terminal, dtype=float)
    return np.where(np.isnan(terminal), target, win_value(np.nan_to_num(terminal)))


def minimax_target(q_next, mask_next, terminal) -> np.ndarray:
    """``1 - max_A Q(S', A)`` over the legal moves of each S' (the win value where S' is finished)."""
    best = np.where(mask_next, q_next, -np.inf).max(axis=1, initial=-np.inf)
    return _finished(terminal, 1.0 - np.where(np.isfinite(best), best, 0.0))


def joint_target(q_next, mask_next, terminal) -> np.ndarray:
    """``prod_A (1 - Q(S', A))`` over the legal moves of each S' (the win value where S' is finished)."""
    return _finished(terminal, np.where(mask_next, 1.0 - q_next, 1.0).prod(axis=1))


def joint_value(q, mask) -> np.ndarray:
    """``V(S) = 1 - prod_A (1 - Q(S, A))``: the probability that some move wins.

    Examples
    --------
    >>> joint_value(np.array([[0.5, 0.5, 0.9]]), np.array([[True, True, False]])).tolist()
    [0.75]
    """
    return 1.0 - np.where(mask, 1.0 - q, 1.0).prod(axis=1)


def others_product_squared(q, mask) -> np.ndarray:
    """``prod_{A' != A} (1 - Q(S, A'))^2`` over the legal A' for every move A (exact: no division).

    Examples
    --------
    >>> others_product_squared(np.array([[0.5, 0.0, 1.0]]), np.ones((1, 3), dtype=bool)).tolist()
    [[0.0, 0.0, 0.25]]
    """
    factor = np.where(mask, 1.0 - q, 1.0) ** 2
    ones = np.ones_like(factor[:, :1])
    before = np.cumprod(np.concatenate([ones, factor[:, :-1]], axis=1), axis=1)
    after = np.cumprod(np.concatenate([ones, factor[:, :0:-1]], axis=1), axis=1)[:, ::-1]
    return before * after


def exploration_greedy_scores(q, exploration, mask) -> np.ndarray:
    """``prod_{A' != A} (1 - Q(S, A'))^2 Q_exp(S, A)`` for the legal moves, -inf elsewhere: the paper's
    exploration-greedy move is the argmax."""
    return np.where(mask, others_product_squared(q, mask) * exploration, -np.inf)


def variance_target(q_taken, q_next, exploration_next, mask_next, terminal, sign: int = 1) -> np.ndarray:
    """The target of ``Q_exp(S, A)``: ``sign (P^2 - Q(S, A)^2) + max_A' R(S', A') Q_exp(S', A')`` (see the module).

    ``q_taken`` holds ``Q(S, A)`` of the moves made; where S' is finished ``P`` is the win value and
    the continuation is 0.

    Examples
    --------
    >>> mask = np.ones((1, 2), dtype=bool)
    >>> target = variance_target(np.array([0.6]), np.array([[0.5, 0.0]]), np.array([[0.2, 0.4]]), mask, np.array([np.nan]))
    >>> target.round(6).tolist()  # (0.5^2 - 0.6^2) + max(1^2 * 0.2, 0.5^2 * 0.4)
    [0.09]
    """
    if sign not in (1, -1):
        raise ValueError(f"sign must be +1 (the variance reduction) or -1 (the update as printed), got {sign!r}")
    joint = joint_target(q_next, mask_next, terminal)
    scores = exploration_greedy_scores(q_next, exploration_next, mask_next)
    best = scores.max(axis=1, initial=-np.inf)
    going_on = np.isnan(np.asarray(terminal, dtype=float)) & np.isfinite(best)
    return sign * (joint ** 2 - np.asarray(q_taken, dtype=float) ** 2) + np.where(going_on, best, 0.0)


def pseudocount_targets(q_next, exploration_next, mask_next, terminal, bonus, discount: float):
    """``(Q target, Q_exp target)`` of pseudo-count exploration (see the module), with ``bonus`` the
    ``beta / sqrt(N(S'))`` of each move.

    Examples
    --------
    >>> mask = np.ones((1, 2), dtype=bool)
    >>> pseudocount_targets(np.array([[0.6, 0.5]]), np.array([[0.0, 0.2]]), mask, np.array([np.nan]), np.array([0.01]),
    ...                     0.5)
    (array([0.5]), array([0.11]))
    """
    rows = np.arange(len(q_next))
    chosen = np.where(mask_next, q_next + exploration_next, -np.inf).argmax(axis=1)
    going_on = np.isnan(np.asarray(terminal, dtype=float)) & mask_next[rows, chosen]
    value = _finished(terminal, 1.0 - q_next[rows, chosen])
    exploration = np.asarray(bonus, dtype=float) + np.where(going_on, discount * exploration_next[rows, chosen], 0.0)
    return value, exploration
