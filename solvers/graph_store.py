"""Graphs of games written in Python, kept while a discovery runs, so that ``moves()`` is called once per position.

Inside ``keep_graphs()``, ``build_graph`` keeps the graph it builds for a game without a compiled move kernel
(``game.kernel is None``: a ``custom_game``), and a later request for the same game (the same object) over the
same universe, or over a universe inside a kept one (a smaller box), is answered from it: ``kept_graph`` cuts
the smaller graph out of the larger one, rows and their options in the same order as ``moves()`` gave them.
``kept_options`` (of one universe) and ``known_options`` (any kept graph holding the positions) read the options
of some positions from a kept graph, and ``has_edges`` tests moves against one, so that the strategy search and
the relation check of a custom game call no ``moves()`` again; ``kept_inside`` gives a build over a larger box
the rows it already knows.  Leaving
the outermost ``keep_graphs()`` lets every kept graph go; outside it nothing is kept.
"""

from __future__ import annotations

from contextlib import contextmanager

import numba as nb
import numpy as np

__all__ = ["keep_graphs", "kept_graph", "kept_options", "graph_options", "remember_graph", "has_edges", "row_ranges",
           "known_options", "kept_inside"]

CHUNK = 1 << 20  # options re-indexed at a time when a graph is cut out of a larger one

_kept: list | None = None  # (game, universe, graph) while a keep_graphs() context is open, else None


@contextmanager
def keep_graphs():
    """Keep the graphs ``build_graph`` makes for games written in Python until the outermost context ends.

    Examples
    --------
    >>> from games import custom_game
    >>> from solvers import build_graph
    >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    >>> with keep_graphs():
    ...     big = build_graph(g, g.universe(9))
    ...     kept_graph(g, g.universe(4)).indptr.tolist()
    [0, 0, 1, 3, 5, 7]
    >>> kept_graph(g, g.universe(9)) is None
    True
    """
    global _kept
    outermost = _kept is None
    if outermost:
        _kept = []
    try:
        yield
    finally:
        if outermost:
            _kept = None


def remember_graph(game, universe, graph) -> None:
    """Keep ``graph`` (of ``game`` over ``universe``) while a ``keep_graphs()`` context is open; else nothing.

    Examples
    --------
    >>> remember_graph(None, None, None)  # no context open: nothing is kept
    """
    if _kept is not None and game.kernel is None:  # a kept box inside this one is let go: cut again when asked
        _kept[:] = [entry for entry in _kept if not (entry[0] is game and _box_inside(entry[1], universe))]
        _kept.append((game, universe, graph))


def _box_inside(small, big) -> bool:
    return small.is_box and big.is_box and small.dims == big.dims and bool((small.limits <= big.limits).all())


def kept_graph(game, universe):
    """The graph of ``game`` over ``universe`` from the kept graphs (the same universe, or cut out of a kept one
    that holds every position of ``universe``), or None: none kept, or a move of ``universe`` leaves it.

    Examples
    --------
    >>> from games import custom_game
    >>> kept_graph(custom_game("one", lambda p: [], dims=1), None) is None  # no context open
    True
    """
    if not _kept:
        return None
    mine = [(u, g) for kept_game, u, g in _kept if kept_game is game]
    for u, graph in mine:
        if u == universe:
            return graph
    for u, graph in sorted(mine, key=lambda entry: entry[0].size):  # the smallest that holds it: the least to cut
        if u.size > universe.size and u.dims == universe.dims:
            cut = _cut(u, graph, universe)
            if cut is not None:
                _kept.append((game, universe, cut))
                return cut
    return None


def kept_inside(game, universe):
    """``(box, graph)``: the largest kept graph of ``game`` over a box inside the box ``universe`` (a smaller
    bound's, whose rows a build over ``universe`` takes instead of calling ``moves()`` again), or None.

    Examples
    --------
    >>> from games import custom_game
    >>> from solvers import build_graph
    >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    >>> with keep_graphs():
    ...     _ = build_graph(g, g.universe(4))
    ...     kept_inside(g, g.universe(9))[0].size
    5
    """
    inside = [(u, graph) for kept_game, u, graph in _kept or () if kept_game is game and _box_inside(u, universe)]
    return max(inside, key=lambda entry: entry[0].size, default=None)


def _cut(big_universe, big, universe):
    """The graph over ``universe`` cut out of ``big`` (over ``big_universe``), or None when ``universe`` is not
    inside ``big_universe`` or a move leaves it."""
    ids = big_universe.index(universe.positions(), strict=False)
    if (ids < 0).any():
        return None
    starts = big.indptr[ids]
    counts = big.indptr[ids + 1] - starts
    indptr = np.zeros(universe.size + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    targets = np.empty((int(indptr[-1]), big.targets.shape[1]), dtype=big.targets.dtype)
    step = max(1, CHUNK // max(1, int(counts.max(initial=1))))
    for lo in range(0, universe.size, step):
        hi = min(lo + step, universe.size)
        edges = row_ranges(starts[lo:hi], counts[lo:hi])
        old = big.targets[edges]
        new = universe.index(big_universe.positions(old.ravel()), strict=False).reshape(old.shape)
        if (new < 0).any():
            return None
        targets[indptr[lo]:indptr[hi]] = new
    return type(big)(indptr, targets)


def row_ranges(starts, counts) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``, vectorised: the edges of rows.

    Examples
    --------
    >>> row_ranges(np.array([5, 0]), np.array([2, 3])).tolist()
    [5, 6, 0, 1, 2]
    """
    total = int(counts.sum())
    offsets = np.zeros(len(counts), dtype=np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    return np.repeat(starts - offsets, counts) + np.arange(total, dtype=np.int64)


def kept_options(game, universe, positions):
    """``(counts, options)`` of an (n, dims) array of positions of ``universe`` read from a kept graph (as
    ``game.option_rows`` gives them), or None when no kept graph covers the universe.

    Examples
    --------
    >>> from games import custom_game
    >>> from solvers import build_graph
    >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    >>> with keep_graphs():
    ...     _ = build_graph(g, g.universe(9))
    ...     counts, options = kept_options(g, g.universe(9), np.array([[0], [5]]))
    >>> counts.tolist(), options.ravel().tolist()
    ([0, 2], [4, 3])
    """
    graph = kept_graph(game, universe)
    return None if graph is None else graph_options(graph, universe, positions)


def known_options(game, positions):
    """``(counts, options)`` of an (n, dims) array of positions read from a kept graph of ``game`` whose universe
    holds all of them (as ``game.option_rows`` gives them), or None when none does.

    Examples
    --------
    >>> from games import custom_game
    >>> from solvers import build_graph
    >>> g = custom_game("take12", lambda p: [(p[0] - t,) for t in (1, 2) if t <= p[0]], dims=1)
    >>> with keep_graphs():
    ...     _ = build_graph(g, g.universe(9))
    ...     counts, options = known_options(g, np.array([[5], [1]]))
    >>> counts.tolist(), options.ravel().tolist(), known_options(g, np.array([[5]]))
    ([2, 1], [4, 3, 0], None)
    """
    for kept_game, universe, graph in _kept or ():
        if kept_game is game and universe.contains(positions).all():
            return graph_options(graph, universe, positions)
    return None


def graph_options(graph, universe, positions, padded: bool = False):
    """The options of an (n, dims) array of positions of ``universe`` read from its ``graph`` (of a game whose
    options are single positions): ``(counts, options)`` one after another as ``game.option_rows`` lays them out,
    or, ``padded``, as ``game.option_block`` does (row r's in ``out[r, :counts[r]]``).

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import build_graph
    >>> g = make_game("subtraction", subtract=(1, 2))
    >>> counts, out = graph_options(build_graph(g, g.universe(4)), g.universe(4), np.array([[1], [4]]), padded=True)
    >>> counts.tolist(), out[1].ravel().tolist()
    ([1, 2], [3, 2])
    """
    ids = universe.index(positions)
    counts = graph.indptr[ids + 1] - graph.indptr[ids]
    options = universe.positions(graph.targets[row_ranges(graph.indptr[ids], counts), 0])
    if not padded:
        return counts, options
    out = np.zeros((len(counts), max(1, int(counts.max(initial=0))), universe.dims), dtype=np.int64)
    out[np.arange(out.shape[1])[None, :] < counts[:, None]] = options
    return counts, out


@nb.njit(cache=True, nogil=True)
def _among(indptr, targets, sources, options):
    out = np.zeros(sources.size, dtype=np.bool_)
    for r in range(sources.size):
        s, t = sources[r], options[r]
        if s < 0 or t < 0:
            continue
        for j in range(indptr[s], indptr[s + 1]):
            if targets[j, 0] == t:
                out[r] = True
                break
    return out


def has_edges(graph, sources, options) -> np.ndarray:
    """Whether each ``options[r]`` is among the options of ``sources[r]`` (ids; -1 is no position: False).

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import build_graph
    >>> g = make_game("subtraction", subtract=(1, 2))
    >>> has_edges(build_graph(g, g.universe(4)), np.array([3, 3, -1]), np.array([1, 0, 2])).tolist()
    [True, False, False]
    """
    return _among(graph.indptr, graph.targets, np.asarray(sources, dtype=np.int64),
                  np.asarray(options, dtype=np.int64))
