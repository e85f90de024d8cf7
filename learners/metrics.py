"""Scores of a policy against the exact solution: optimality deviations and win rates.

The optimality deviations are the Nim thesis's Algorithm 3: the N positions (a winning move
exists) where the policy's move does not reach a P position.  A greedy policy with ties
counts as deviating where any of its tied moves is wrong.
"""

from __future__ import annotations

import numpy as np

from learners.play import duel

__all__ = ["deviations", "policy_accuracy", "win_rate"]


def deviations(arena, weights, among=None) -> int:
    """N positions where some move the policy may play (weight > 0) does not reach a P position
    (only positions where the boolean mask ``among`` holds, when given).

    Examples
    --------
    >>> from games import make_game
    >>> from learners.arena import Arena
    >>> arena = Arena(make_game("nim", heaps=2), bound=3)
    >>> deviations(arena, np.ones(arena.edges))  # random errs where a wrong move exists
    10
    """
    wrong = (np.asarray(weights) > 0) & (arena.outcome[arena.targets] != -1)
    errs = np.bincount(arena.sources, weights=wrong, minlength=arena.size) > 0
    counted = arena.outcome == 1 if among is None else (arena.outcome == 1) & among
    return int((errs & counted).sum())


def policy_accuracy(arena, weights, among=None) -> float:
    """Share of N positions (where ``among`` holds) at which every move the policy may play reaches P.

    Examples
    --------
    >>> from games import make_game
    >>> from learners.arena import Arena
    >>> arena = Arena(make_game("nim", heaps=2), bound=3)
    >>> policy_accuracy(arena, arena.optimal_weights), round(policy_accuracy(arena, np.ones(arena.edges)), 4)
    (1.0, 0.1667)
    """
    wins = arena.outcome == 1
    if among is not None:
        wins = wins & among
    count = int(wins.sum())
    return 1.0 - deviations(arena, weights, among) / count if count else float("nan")


def win_rate(arena, weights, opponent_weights, games: int, seed) -> float:
    """Share of ``games`` won moving first from random N positions (1.0 for a perfect player);
    ``seed`` is a (random_state, stream) pair."""
    n_starts = np.flatnonzero((arena.outcome == 1) & (np.diff(arena.indptr) > 0))
    if n_starts.size == 0:
        return float("nan")
    random_state, stream = seed
    result = duel(arena, weights, opponent_weights, games, random_state, n_starts, stream)
    return result["wins"] / result["games"]
