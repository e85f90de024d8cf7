"""The exact tables of a game over a given universe: outcome, and on request Grundy values and remoteness.

``solvers.solve`` wraps them in a ``Solution``; ``Solution.load(verify=True)`` compares a saved file with them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from games import Game, Universe
from solvers.graph import Graph, build_graph
from solvers.grundy import grundy_values
from solvers.lines import line_grundy, line_outcome
from solvers.retrograde import outcome_ascending, outcome_descending, retrograde, terminal_values

__all__ = ["Tables", "exact_tables"]


class Tables(NamedTuple):
    """Tables in the universe's id order (None where not computed) and the graph when one was built."""

    outcome: np.ndarray
    grundy: np.ndarray | None = None
    remoteness: np.ndarray | None = None
    graph: Graph | None = None


def exact_tables(game: Game, universe: Universe, grundy: bool = False, remoteness: bool = False,
                 workers=None) -> Tables:
    """Outcome (+1 win, -1 loss, 0 draw for the player to move) of every position of ``universe`` (closed under
    the game's moves), and its Grundy values and remoteness when asked, by the fastest path the game allows.

    Examples
    --------
    >>> from games import make_game
    >>> g = make_game("subtraction", subtract=(1, 2))
    >>> exact_tables(g, g.universe(6)).outcome.tolist()
    [-1, 1, 1, -1, 1, 1, -1]
    """
    if grundy and (game.misere or not game.impartial):
        raise ValueError(f"Grundy values are defined for impartial games under normal play, not {game!r}")

    if game.parts > 1:
        if remoteness:
            raise ValueError(f"{game!r} is a sum of heaps: remoteness is not defined for its single heaps")
        if game.misere:  # a sum's misère outcome is not its parts' Grundy values: search the sums themselves
            from solvers.heap_sums import HeapSums

            return Tables(HeapSums(game).outcome(universe.positions()))
        graph = build_graph(game, universe, workers)
        values = grundy_values(graph)
        return Tables(np.where(values == 0, -1, 1), values if grundy else None, None, graph)

    if game.line_directions is not None and universe.is_box and not remoteness:  # LineGame, declared rays
        values = line_grundy(game, universe) if grundy else None
        outcome = np.where(values == 0, -1, 1) if grundy else line_outcome(game, universe)
        return Tables(outcome, values)

    graph = build_graph(game, universe, workers)
    terminal = terminal_values(game, universe, graph)
    rem = None
    if remoteness:
        outcome, rem = retrograde(graph, terminal)
    elif graph.descending:
        outcome = outcome_descending(graph.indptr, graph.targets[:, 0], terminal)
    elif graph.ascending:
        outcome = outcome_ascending(graph.indptr, graph.targets[:, 0], terminal)
    else:
        outcome, rem = retrograde(graph, terminal)
    values = grundy_values(graph) if grundy else None
    return Tables(outcome, values, rem if remoteness else None, graph)
