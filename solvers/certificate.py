"""Closure certificates: is a proposed labelling exactly the game's, checked from the labelling alone?

A P/N labelling of a universe closed under moves is the true one iff every terminal position
has the terminal rule's label (``Game.terminal_values``: P exactly where the value is -1), no
move leads from a P position to a P position, and every other N position has a move into P
(induction on the length of the longest play; a game with drawn ends has no P/N labelling).  For
Grundy values the certificate is the mex rule itself, with sums of heaps as xor of parts.
Each check returns ``None`` or a counterexample dict.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games import Game, LineGame, Universe
from solvers.graph import build_graph
from solvers.lines import advance, is_terminal, prepare_lines
from solvers.retrograde import terminal_values

__all__ = ["closure_counterexample", "mex_counterexample"]

_REASONS = {
    1: "is terminal but labelled against the terminal rule",
    2: "is labelled P but has a move to a P position",
    3: "is labelled N but has no move to a P position",
}


@nb.njit(cache=True, nogil=True)
def _line_closure(limits, coefs, start, nlines, supports, terminal, is_p):
    first_p = np.full(nlines, -1, dtype=np.int64)
    p = np.zeros(limits.size, dtype=np.int64)
    key = start.copy()
    for i in range(is_p.size):
        seen = -1
        for d in range(key.size):
            if first_p[key[d]] >= 0:
                seen = first_p[key[d]]
                break
        if is_terminal(p, supports):
            if is_p[i] != (terminal == -1):
                return i, 1, -1
        elif is_p[i] and seen >= 0:
            return i, 2, seen
        elif not is_p[i] and seen < 0:
            return i, 3, -1
        if is_p[i]:
            for d in range(key.size):
                if first_p[key[d]] < 0:
                    first_p[key[d]] = i
        advance(p, limits, key, coefs)
    return -1, 0, -1


@nb.njit(cache=True, nogil=True)
def _graph_closure(indptr, targets, terminal, is_p):
    for i in range(is_p.size):
        if indptr[i] == indptr[i + 1]:
            if is_p[i] != (terminal[i] == -1):
                return i, 1, -1
            continue
        into_p = -1
        for j in range(indptr[i], indptr[i + 1]):
            if is_p[targets[j]]:
                into_p = targets[j]
                break
        if is_p[i] and into_p >= 0:
            return i, 2, into_p
        if not is_p[i] and into_p < 0:
            return i, 3, -1
    return -1, 0, -1


@nb.njit(cache=True, nogil=True)
def _mex_check(indptr, targets, values):
    for i in range(values.size):
        k = indptr[i + 1] - indptr[i]
        seen = np.zeros(k + 2, dtype=np.bool_)
        for j in range(indptr[i], indptr[i + 1]):
            v = 0
            for q in range(targets.shape[1]):
                v ^= values[targets[j, q]]
            if v <= k:
                seen[v] = True
        mex = 0
        while seen[mex]:
            mex += 1
        if values[i] != mex:
            return i, mex
    return -1, 0


def _report(universe: Universe, position: int, code: int, other: int) -> dict | None:
    if position < 0:
        return None
    found = {
        "position": tuple(int(x) for x in universe.positions([position])[0]),
        "reason": _REASONS[code],
    }
    if other >= 0:
        found["move_to"] = tuple(int(x) for x in universe.positions([other])[0])
    return found


def closure_counterexample(game: Game, universe: Universe, is_p, graph=None) -> dict | None:
    """Check a P/N labelling (``is_p`` in universe id order) against the game's moves alone.

    ``graph`` may be passed when the game graph over ``universe`` was already built.

    Examples
    --------
    >>> from games import make_game
    >>> g = make_game("subtraction", subtract=(1, 2))
    >>> u = g.universe(9)
    >>> closure_counterexample(g, u, u.positions()[:, 0] % 3 == 0) is None
    True
    >>> closure_counterexample(g, u, u.positions()[:, 0] % 2 == 0)["position"]
    (2,)
    """
    if game.parts > 1:
        raise ValueError(f"{game!r} is a sum of heaps: check its Grundy values with mex_counterexample")
    is_p = np.asarray(is_p, dtype=np.bool_)
    if is_p.shape != (universe.size,):
        raise ValueError(f"the labelling has shape {is_p.shape}, the universe {universe.size} positions")
    if isinstance(game, LineGame) and universe.is_box:  # one terminal rule for the whole family
        coefs, start, nlines, supports = prepare_lines(game, universe)
        terminal = np.int8(game.terminal_outcome())
        return _report(universe, *_line_closure(universe.limits, coefs, start, nlines, supports, terminal, is_p))
    graph = graph or build_graph(game, universe)
    terminal = terminal_values(game, universe, graph)
    return _report(universe, *_graph_closure(graph.indptr, graph.targets[:, 0], terminal, is_p))


def mex_counterexample(game: Game, universe: Universe, values, graph=None) -> dict | None:
    """Check proposed Grundy values (universe id order) against the mex rule, parts xor-ed."""
    values = np.asarray(values, dtype=np.int64)
    if values.shape != (universe.size,):
        raise ValueError(f"the values have shape {values.shape}, the universe {universe.size} positions")
    graph = graph or build_graph(game, universe)
    i, mex = _mex_check(graph.indptr, graph.targets, values)
    if i < 0:
        return None
    position = tuple(int(x) for x in universe.positions([i])[0])
    return {"position": position, "reason": f"has value {int(values[i])} but the mex of its options is {int(mex)}"}
