"""How good an AlphaZero network is: matches against random, optimal and earlier players, and the solver's verdict.

* ``score``: games won out of 100 by a mover against another, as first or as second player,
  from the given starts;
* ``play_optimal_rate``: among the positions a mover met with a winning move (the solver's
  N positions), the share where it played one;
* ``policy_optimal_rate``: the same for the policy head's top move over every N position of an
  arena (optionally only those reachable from the starts), the Nim thesis's optimality measure;
* ``value_accuracy``: share of live positions whose value head has the sign of the exact outcome.
"""

from __future__ import annotations

import numpy as np

from learners.alphazero.play import play_games
from learners.metrics import policy_accuracy

__all__ = ["score", "play_optimal_rate", "policy_optimal_rate", "value_accuracy", "reachable", "edge_lookup"]


def score(game, agent, opponent, starts, seat: int, rng, max_plies: int):
    """``(wins out of 100, MatchLog)`` of ``agent`` playing seat ``seat`` (0 first, 1 second) from each start.

    Examples
    --------
    >>> from games import make_game
    >>> from learners.alphazero.play import RandomMover
    >>> game = make_game("nim", heaps=1)
    >>> score(game, RandomMover(game), RandomMover(game), np.array([[1]] * 10), 0, np.random.default_rng(0), 5)[0]
    100.0
    """
    movers = (agent, opponent) if seat == 0 else (opponent, agent)
    log = play_games(game, *movers, starts, rng, max_plies, log_moves=True)
    return 100.0 * log.wins(seat) / max(1, len(starts)), log


def play_optimal_rate(solution, logs_and_seats) -> tuple[int, int]:
    """``(winning moves played, positions with a winning move)`` of the seat named with each match log."""
    good = total = 0
    for log, seat in logs_and_seats:
        for mover, positions, chosen in log.moves:
            if mover != seat:
                continue
            inside = solution.universe.contains(positions) & solution.universe.contains(chosen)
            won = inside.copy()
            won[inside] = solution.outcome(positions[inside]) == 1
            total += int(won.sum())
            good += int((solution.outcome(chosen[won]) == -1).sum()) if won.any() else 0
    return good, total


def reachable(arena, start_ids) -> np.ndarray:
    """Mask of the arena's positions reachable from ``start_ids`` (the starts included).

    Examples
    --------
    >>> from games import make_game
    >>> from learners.arena import Arena
    >>> arena = Arena(make_game("nim", heaps=2), bound=3)
    >>> int(reachable(arena, [arena.index((1, 2))]).sum())
    6
    """
    seen = np.zeros(arena.size, dtype=bool)
    seen[np.asarray(start_ids, dtype=np.int64)] = True
    while True:
        new = np.zeros(arena.size, dtype=bool)
        new[arena.targets[seen[arena.sources]]] = True
        new &= ~seen
        if not new.any():
            return seen
        seen |= new


def policy_optimal_rate(arena, logits, among=None) -> float:
    """Share of N positions (where ``among`` holds) whose top-logit moves all win; ``logits`` per position id."""
    return float(policy_accuracy(arena, arena.best_edges(np.asarray(logits, dtype=float)[arena.targets]), among))


def value_accuracy(arena, values, among=None) -> float:
    """Share of live positions (where ``among`` holds) whose value has the sign of the exact outcome."""
    live = np.diff(arena.indptr) > 0
    if among is not None:
        live &= among
    decided = live & (arena.outcome != 0)
    if not decided.any():
        return float("nan")
    return float(np.mean(np.sign(values[decided]) == arena.outcome[decided]))


def edge_lookup(arena):
    """A function from (source ids, target ids) to the arena's edge ids."""
    keys = arena.sources.astype(np.int64) * arena.size + arena.targets
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]

    def edges(sources, targets) -> np.ndarray:
        wanted = np.asarray(sources, dtype=np.int64) * arena.size + np.asarray(targets, dtype=np.int64)
        at = np.searchsorted(ordered, wanted).clip(0, max(ordered.size - 1, 0))
        if ordered.size == 0 or (ordered[at] != wanted).any():
            raise ValueError("a move is not an edge of the arena")
        return order[at]

    return edges
