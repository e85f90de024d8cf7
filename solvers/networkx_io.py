"""networkx at the boundary: solve any DiGraph, and export a game graph or a solution.

networkx is imported by the functions that build a graph: a caller who has a ``DiGraph`` imported it already.
"""

from __future__ import annotations

import sys

import numpy as np

from games import Game, Universe
from solvers.graph import build_graph

__all__ = ["GraphGame", "to_networkx", "is_digraph"]


class GraphGame(Game):
    """The game played on a directed graph: a move follows an edge; position (i,) is ``nodes[i]``."""

    name = "graph"
    dims = 1

    def __init__(self, graph, misere: bool = False):
        if not is_digraph(graph) or graph.number_of_nodes() == 0:
            raise ValueError("solve() takes a non-empty networkx.DiGraph")
        super().__init__()
        self.misere = bool(misere)
        self.nodes = list(graph.nodes)
        ids = {node: i for i, node in enumerate(self.nodes)}
        self._succ = [[ids[m] for m in graph.successors(node)] for node in self.nodes]

    def moves(self, position) -> list[tuple[int, ...]]:
        return [(j,) for j in self._succ[int(position[0])]]

    def universe(self, bound=None) -> Universe:
        return Universe.box(1, len(self.nodes) - 1)

    def spec(self) -> dict:
        return {"name": "graph", "params": {"nodes": len(self.nodes)}, "custom": True}


def is_digraph(obj) -> bool:
    """Whether ``obj`` is a ``networkx.DiGraph`` (without importing networkx: no DiGraph exists before it is).

    Examples
    --------
    >>> import networkx as nx
    >>> is_digraph(nx.DiGraph([(0, 1)])), is_digraph([(0, 1)])
    (True, False)
    """
    networkx = sys.modules.get("networkx")
    return networkx is not None and isinstance(obj, networkx.DiGraph)


def to_networkx(source, bound: int | None = None):
    """A DiGraph of a game over ``game.universe(bound)``, or of a ``Solution`` with its values
    as node attributes (``outcome``, and ``grundy`` / ``remoteness`` when computed).

    Examples
    --------
    >>> from games import make_game
    >>> to_networkx(make_game("subtraction", subtract=(1, 2)), bound=3).number_of_edges()
    5
    """
    if isinstance(source, Game):
        if bound is None:
            raise ValueError("to_networkx(game) needs bound=N")
        game, universe, tables = source, source.universe(bound), {}
    else:
        game, universe = source.game, source.universe
        tables = {
            name: getattr(source, f"{name}_table")
            for name in ("outcome", "grundy", "remoteness")
            if getattr(source, f"{name}_table") is not None
        }
    if game.parts > 1:
        raise ValueError("a sum-of-heaps game has no single graph: its options are sums")
    graph = build_graph(game, universe)
    labels = getattr(game, "nodes", None) or [tuple(int(x) for x in p) for p in universe.positions()]
    import networkx as nx

    result = nx.DiGraph()
    for i, label in enumerate(labels):
        result.add_node(label, **{name: int(table[i]) for name, table in tables.items()})
    sources = np.repeat(np.arange(graph.size), np.diff(graph.indptr))
    result.add_edges_from((labels[s], labels[t]) for s, t in zip(sources, graph.targets[:, 0]))
    return result
