"""The arena: a game over a bounded universe, as the graph learners and matches play on.

It holds the options of every position (edge ``j`` of ``indptr``/``targets`` is one move),
the outcome at every position with no move, and the exact outcome from the solver, which
learners never read while learning: it only scores them (optimal moves, deviations).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from cgbase.memory import check_memory
from games import Game

__all__ = ["Arena", "carry_table"]


class Arena:
    """A game's universe with its move graph, terminal outcomes and exact outcomes.

    Parameters
    ----------
    game : Game
        A game whose options are single positions (not a sum of heaps).
    bound : int
        The universe is ``game.universe(bound)`` (a board game's universe ignores it: every position
        reachable from the empty board, whose bound is the board's side).
    solution : Solution, optional
        An exact solution over the same universe (solved here when not given), or over the positions reachable
        from starts inside the box (``solvers.solve(game, starts=...)``): the arena is then those positions.

    Examples
    --------
    >>> from games import make_game
    >>> arena = Arena(make_game("nim", heaps=2), bound=2)
    >>> arena.size, arena.edges, int((arena.outcome == -1).sum())
    (9, 18, 3)
    """

    def __init__(self, game: Game, bound: int, solution=None):
        from solvers import solve

        if not isinstance(game, Game):
            raise TypeError(f"an arena takes a Game, got {type(game).__name__}")
        if game.parts > 1:
            raise ValueError(
                f"{game!r} is a sum of heaps (a move splits a heap): tabular learners need games whose "
                f"moves lead to single positions, such as nim, wythoff, euclid or subtraction"
            )
        if game.universe_from_start:
            bound = game.universe().bound
        if solution is None:
            if not game.universe_from_start:  # refused before the solver fills its own tables (minutes at 10^10):
                n = game.universe(bound).size  # the arena holds at least a row pointer and an outcome per position
                check_memory(8.0 * (2 * n + 2), f"the arena of {game!r} over {n:,} positions")
            solution = solve(game, bound=bound)
        elif solution.game != game or solution.bound != bound and not _within(solution, bound):
            raise ValueError(f"the solution is of {solution.game!r} on bound {solution.bound}, not {game!r} on {bound}")
        self.game, self.bound, self.solution = game, int(bound), solution
        self.universe = solution.universe
        graph = solution.graph if solution.graph is not None else _graph(game, self.universe)
        self.indptr = graph.indptr
        self.targets = np.ascontiguousarray(graph.targets[:, 0])
        check_memory(5 * 8.0 * self.targets.size, f"tables over the {self.targets.size} moves of {game!r}")
        degree = np.diff(self.indptr)
        self.terminal = np.zeros(self.size, dtype=np.int8)
        ends = np.flatnonzero(degree == 0)
        self.terminal[ends] = game.terminal_values(self.universe.positions(ends))
        self.outcome = solution.outcome_table
        self.sources = np.repeat(np.arange(self.size), degree)

    @property
    def size(self) -> int:
        return self.universe.size

    @property
    def edges(self) -> int:
        return int(self.targets.size)

    def live(self) -> np.ndarray:
        """Ids of the positions with at least one move."""
        return np.flatnonzero(np.diff(self.indptr) > 0)

    def nothing_to_learn(self, bound: int | None = None) -> ValueError:
        """The refusal of a fit where no position (of the arena, or of its box ``bound``) has a move."""
        return ValueError(f"{self.game!r} has no move anywhere on bound {self.bound if bound is None else bound}: "
                          "nothing to learn")

    def index(self, position) -> int:
        """The id of one position (a ``ValueError`` when it is outside the universe)."""
        return int(self.universe.index(np.asarray(position, dtype=np.int64).reshape(1, -1))[0])

    @cached_property
    def optimal_weights(self) -> np.ndarray:
        """The optimal player's policy as a weight per move (computed once per arena)."""
        from learners.agents import OptimalAgent

        return OptimalAgent(self.solution).edge_weights(self)

    def best_edges(self, values) -> np.ndarray:
        """A 0/1 weight per edge: 1 on the edges of largest ``values`` at each position."""
        values = np.asarray(values, dtype=float)
        top = np.full(self.size, -np.inf)
        np.maximum.at(top, self.sources, values)
        return (values == top[self.sources]).astype(float)

    def __repr__(self) -> str:
        return f"Arena({self.game!r}, bound={self.bound}, {self.size} positions, {self.edges} moves)"


def _graph(game, universe):
    from solvers import build_graph

    return build_graph(game, universe)


def carry_table(old: Arena, table: np.ndarray, new: Arena) -> np.ndarray:
    """Q values of the moves (position, option) the two arenas share, zero for new moves."""
    carried = np.zeros((table.shape[0], new.edges))
    if old.universe != new.universe or old.edges == 0:
        return carried
    old_keys = old.sources * (old.size + 1) + old.targets  # sorted: sources ascend, options ascend within
    new_keys = new.sources * (new.size + 1) + new.targets
    order = np.argsort(old_keys, kind="stable")
    rank = np.minimum(np.searchsorted(old_keys[order], new_keys), old_keys.size - 1)
    found = old_keys[order][rank] == new_keys
    carried[:, found] = table[:, order[rank[found]]]
    return carried


def _within(solution, bound) -> bool:
    """A solution over the positions reachable from starts (no bound of its own) whose coordinates lie in [0, bound]."""
    return solution.bound is None and not solution.universe.is_box and int(solution.universe.limits.max()) <= int(bound)
