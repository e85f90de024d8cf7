"""Exact truth by search: outcome, remoteness and Grundy values over a game's universe.

No solver code knows a closed form (nim-sum, golden ratio, period): every value comes from the
game graph, so discovery never recovers what it was given.

Examples
--------
>>> from games import make_game
>>> from solvers import solve
>>> solve(make_game("nim", heaps=3), bound=7, grundy=True).grundy([[1, 2, 3], [1, 2, 4]]).tolist()
[0, 7]
"""

from solvers.certificate import closure_counterexample, mex_counterexample
from solvers.graph import Graph, build_graph, reachable_universe
from solvers.networkx_io import GraphGame, to_networkx
from solvers.solution import Solution
from solvers.solve import solve

__all__ = ["solve", "closure_counterexample", "mex_counterexample", "Solution", "Graph", "build_graph", "reachable_universe", "GraphGame", "to_networkx"]
