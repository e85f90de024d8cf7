"""The game graph over a universe, in compressed sparse rows.

``indptr[i]:indptr[i+1]`` are the options of position ``i``; option ``j`` is the sum of the
positions ``targets[j, :]`` (one column for ordinary games, ``game.parts`` columns for sums
of heaps).  Built-in games fill it in numba from their move kernel; games defined in Python
fill it from ``moves`` (``game.option_rows``: a block's options checked at once), a block of positions at a
time into int32 ids (int64 past 2^31 positions), copied into the graph's rows as each block ends, so that memory
follows the edges (8 bytes each in the graph) and not Python's lists and tuples; on
local worker processes by default once the graph is large, started by ``fork`` where that is safe
(``cgbase.parallel``: the graph is the same whatever the workers, since each position's options depend on the
position alone).  ``moves()`` is called once per position: the positions sampled to size the graph, and those
of a kept graph over a smaller box (``solvers.graph_store``), are not asked again.

A Python ``moves`` is not compiled with numba, though numba can compile some (a two-heap example's
options of 90,601 positions: 0.12 s compiled, 2.5 to 5.5 s through ``moves`` on a busy machine): in
int64 a coordinate that overflows wraps around, possibly into the universe, and would give a wrong
graph with no error where Python's integers leave the universe and are refused; globals are frozen at
compilation; and common Python (a conditional ``[]``) does not type.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from cgbase.deadline import OutOfTime, current
from cgbase.memory import check_memory
from games import Game, Universe
from solvers.graph_store import kept_graph, kept_inside, remember_graph, row_ranges

__all__ = ["Graph", "build_graph", "check_reachable", "estimated_moves", "reachable_universe", "least_failure"]

LEAST_FAILURE = 100_000  # positions tried, fewest tokens first, for the least one whose moves fail
LEAST_SCAN = 50_000_000  # positions ordered at most to find them (beyond, the error met is the one given)
PARALLEL_MOVES = 10_000_000  # estimated moves from which a Python moves runs on local workers by default
SEARCH_BYTES = 256  # a position held by the breadth-first search of reachable_universe: a tuple, its set entry
BLOCK_MOVES = 1 << 22  # options of a Python moves in one block of work at most (the deadline is read between blocks)
BATCH_MOVES = 1 << 16  # options of a Python moves turned into ids at once, per process (``option_rows`` reads them in
# groups of games.custom.GROUP_OPTIONS): 1.5 MB of int64 rows; a custom Nim 3% faster than with 2^14


@dataclass
class Graph:
    """Options of every position of a universe, as compressed sparse rows."""

    indptr: np.ndarray
    targets: np.ndarray  # (m, parts) int64 ids

    @property
    def size(self) -> int:
        return self.indptr.size - 1

    @property
    def edges(self) -> int:
        return int(self.targets.shape[0])

    @property
    def descending(self) -> bool:
        """True when every option has a smaller id than its position (ids are a topological order)."""
        return _all_ordered(self.indptr, self.targets, False)

    @property
    def ascending(self) -> bool:
        """True when every option has a larger id than its position (reversed ids are a topological order)."""
        return _all_ordered(self.indptr, self.targets, True)


@nb.njit(cache=True, nogil=True)
def _all_ordered(indptr, targets, upwards):
    for i in range(indptr.size - 1):
        for j in range(indptr[i], indptr[i + 1]):
            for q in range(targets.shape[1]):
                if (targets[j, q] <= i) if upwards else (targets[j, q] >= i):
                    return False
    return True


@nb.njit(cache=True, nogil=True)
def _bucket_starts(keys, shift, buckets):
    """``starts[b]``: the first rank whose key has ``key >> shift >= b`` (a coarse index of sorted keys)."""
    starts = np.empty(buckets + 1, dtype=np.int64)
    b = 0
    for rank in range(keys.size):
        top = keys[rank] >> shift
        while b <= top:
            starts[b] = rank
            b += 1
    while b <= buckets:
        starts[b] = keys.size
        b += 1
    return starts


def _key_index(keys: np.ndarray) -> tuple[int, np.ndarray]:
    """A coarse index of a subset universe's sorted keys: about one bucket per key."""
    if keys.size == 0:
        return 0, np.zeros(1, dtype=np.int64)
    bits = max(int(keys[-1]).bit_length() - max(keys.size.bit_length() - 1, 0), 0)
    return bits, _bucket_starts(keys, bits, int(keys[-1] >> bits) + 1)


@nb.njit(cache=True, nogil=True)
def _encode(counts, out, strides, limits, keys, shift, starts, parts, targets, m):
    """Append the ids of a block's options to ``targets`` from row ``m``; returns (m, bad row, bad option).

    A subset universe's key is found by a binary search inside its bucket ``starts[key >> shift]``."""
    dims = strides.size
    buckets = starts.size - 1
    for r in range(counts.size):
        for j in range(counts[r]):
            for q in range(parts):
                key = 0
                for i in range(dims):
                    x = out[r, j, q * dims + i]
                    if x < 0 or x > limits[i]:
                        return m, r, j
                    key += x * strides[i]
                if keys.size:
                    b = key >> shift
                    if b >= buckets:
                        return m, r, j
                    lo = starts[b]
                    hi = starts[b + 1]
                    while lo < hi:
                        mid = (lo + hi) >> 1
                        if keys[mid] < key:
                            lo = mid + 1
                        else:
                            hi = mid
                    if lo >= keys.size or keys[lo] != key:
                        return m, r, j
                    key = lo
                targets[m, q] = key
            m += 1
    return m, -1, -1


def _outside(game: Game, universe: Universe, position, option) -> ValueError:
    return ValueError(
        f"{game!r}: the move from {tuple(int(x) for x in position)} to "
        f"{tuple(int(x) for x in option)} leaves the universe {universe!r}; "
        f"the universe must be closed under moves (use starts=[...] or a larger bound)"
    )


def _option_ids(game: Game, universe: Universe, lo: int, hi: int, known=None) -> list:
    """``[(counts, ids)]``: the option counts and option ids of positions ``lo`` to ``hi - 1`` under a Python
    ``moves`` (a job for ``cgbase.parallel``), in batches of about ``BATCH_MOVES`` options at a time; ids are
    int32 where every id fits (half the bytes to hold and to send back), else int64.  The rows of ``known``
    (``_Known`` of these positions: ids, counts and option ids found before) are taken as they are, with no
    ``moves()`` call.  The one pair comes in a list that the receiver empties (``_Rows.add``), so that no
    finished block stays behind."""
    counts, ids = [], []
    kind = np.int32 if universe.size <= np.iinfo(np.int32).max else np.int64
    step, deadline = 256, current()
    while lo < hi:
        deadline.check(f"the graph of {game!r} over {universe.size:,} positions")
        rows = np.arange(lo, min(lo + step, hi))
        done = known.take(rows) if known is not None else None
        todo = rows if done is None else rows[~done[0]]
        count, found = _ids_of(game, universe, universe.positions(todo))
        if done is not None:
            count, found = _merged(done, count, found)
        counts.append(count)
        ids.append(found.astype(kind))
        lo += len(rows)
        step = int(min(max(BATCH_MOVES * len(rows) // max(int(count.sum()), 1), 16), 1 << 16))
    return [(np.concatenate(counts), np.concatenate(ids))]


def _ids_of(game: Game, universe: Universe, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, ids)``: the option counts of ``positions`` and their options' ids, from ``game.option_rows``; a
    ValueError naming the move when an option is not in the universe."""
    count, options = game.option_rows(positions)
    if universe.keys is None:  # a box: ids are keys, checked and summed in one compiled pass
        found = np.empty((options.shape[0], 1), dtype=np.int64)
        _, _, j = _encode(np.array([options.shape[0]]), options[None], universe.strides, universe.limits,
                          np.zeros(0, dtype=np.int64), 0, np.zeros(1, dtype=np.int64), 1, found, 0)
        found = found[:, 0]
    else:
        found = universe.index(options, strict=False)
        j = int(np.argmax(found < 0)) if (found < 0).any() else -1
    if j >= 0:
        raise _outside(game, universe, positions[int(np.searchsorted(np.cumsum(count), j, side="right"))],
                       options[j])
    return count, found


def _merged(done, count, found) -> tuple[np.ndarray, np.ndarray]:
    """The rows of a batch in order, from its known rows ``done`` (mask, their counts, their option ids) and the
    others' ``count`` and option ids ``found``."""
    mask, known_counts, known_ids = done
    counts = np.zeros(mask.size, dtype=np.int64)
    counts[mask], counts[~mask] = known_counts, count
    starts = np.empty(mask.size, dtype=np.int64)  # each row's first option in [found, known_ids]
    starts[~mask] = np.cumsum(count) - count
    starts[mask] = found.size + np.cumsum(known_counts) - known_counts
    return counts, np.concatenate([found, known_ids])[row_ranges(starts, counts)]


class _Known:
    """Rows of a graph found before its build (a smaller box's, the positions sampled to estimate its size), in
    compressed sparse rows over their sorted ids, so that their ``moves()`` are not called again."""

    def __init__(self, rows: np.ndarray, counts: np.ndarray, ids: np.ndarray, sample: np.ndarray | None = None):
        self.rows, self.counts, self.ids = rows, counts, ids
        self.indptr = np.concatenate([[0], np.cumsum(counts)])
        self.sample = rows if sample is None else sample  # the rows that estimate the graph's mean degree

    def sample_counts(self) -> np.ndarray:
        """The count of options of each sampled row."""
        return self.counts[np.searchsorted(self.rows, self.sample)]

    def mean_degree(self) -> float:
        """The mean count of options over the sampled rows."""
        return float(self.sample_counts().mean())

    def cuts(self, n: int, blocks: int) -> np.ndarray:
        """``blocks + 1`` increasing ids from 0 to ``n`` that cut ids ``0 .. n - 1`` into blocks of about the same
        work, each sampled row standing for the ids around it with its count of options plus one (the call).

        Blocks of equal work leave no worker idle long at the end, where equal counts of positions would end
        on the block with the most options (a custom Nim's last block of 16 has twice its first's)."""
        if n == 0:
            return np.zeros(1, dtype=np.int64)
        work = self.sample_counts() + 1.0
        ends = np.concatenate([[0.0], (self.sample[1:] + self.sample[:-1] + 1) / 2, [float(n)]])
        done = np.concatenate([[0.0], np.cumsum(work * np.diff(ends))])
        cuts = np.interp(np.linspace(0.0, done[-1], blocks + 1), done, ends).round().astype(np.int64)
        cuts[0], cuts[-1] = 0, n
        return np.unique(cuts)

    def part(self, lo: int, hi: int) -> "_Known | None":
        """The known rows among ids ``lo`` to ``hi - 1`` (what a job needs), or None when there are none."""
        a, b = np.searchsorted(self.rows, [lo, hi])
        if a == b:
            return None
        return _Known(self.rows[a:b], self.counts[a:b], self.ids[self.indptr[a]:self.indptr[b]])

    def take(self, rows: np.ndarray):
        """``(mask, counts, ids)``: which of the consecutive ids ``rows`` are known, their counts and option ids;
        None when none is."""
        a, b = np.searchsorted(self.rows, [rows[0], rows[-1] + 1])
        if a == b:
            return None
        mask = np.zeros(rows.size, dtype=bool)
        mask[self.rows[a:b] - rows[0]] = True
        return mask, self.counts[a:b], self.ids[self.indptr[a]:self.indptr[b]]


class _Rows:
    """Compressed sparse rows filled with the blocks of ``_option_ids`` as they end (in any order), each copied
    into place once the blocks before it are in and then let go: the peak is the graph and the blocks waiting.
    The targets start at an estimate and grow (or shrink at the end) in place."""

    def __init__(self, n: int, estimate: float):
        self.indptr = np.zeros(n + 1, dtype=np.int64)
        self.targets = np.empty((int(estimate) + 16, 1), dtype=np.int64)
        self.waiting: dict = {}
        self.block = self.row = self.edges = 0

    def add(self, i: int, result: list) -> None:
        self.waiting[i] = result.pop()
        while self.block in self.waiting:
            counts, ids = self.waiting.pop(self.block)
            end = self.edges + ids.size
            if end > self.targets.shape[0]:
                self.targets.resize((max(end, int(1.25 * self.targets.shape[0])), 1), refcheck=False)
            self.targets[self.edges:end, 0] = ids
            np.cumsum(counts, out=self.indptr[self.row + 1: self.row + 1 + counts.size])
            self.indptr[self.row + 1: self.row + 1 + counts.size] += self.edges
            self.block, self.row, self.edges = self.block + 1, self.row + counts.size, end

    def graph(self) -> Graph:
        self.targets.resize((self.edges, 1), refcheck=False)
        return Graph(self.indptr, self.targets)


def _python_pool(game: Game, moves: float, workers):
    """The workers a Python ``moves`` runs on: those asked for; by default local workers when the graph is large
    (about ``PARALLEL_MOVES`` moves, where they repay their start), there is more than one core and workers may
    start, unless the game cannot travel to them (a ``moves`` closing over a lock, say); else this process.
    Default workers start by ``fork`` where it is safe (``cgbase.parallel.fork_is_safe``: milliseconds, where a
    fresh interpreter takes seconds to import the toolkit), else as fresh interpreters (``can_spawn``)."""
    from cgbase.parallel import Workers, as_workers, can_spawn, default_workers, fork_is_safe

    if workers is not None or moves < PARALLEL_MOVES or default_workers() < 2:
        return as_workers(workers)
    start = "fork" if fork_is_safe() else "spawn" if can_spawn() else None
    if start is None:
        return as_workers(None)
    import cloudpickle

    try:
        cloudpickle.dumps(game)
    except Exception:  # noqa: BLE001 - whatever stops it pickling, it runs here
        return as_workers(None)
    return Workers("local", start=start)


def _known_rows(game: Game, universe: Universe) -> _Known:
    """The rows a build over ``universe`` knows before it starts: those of a kept graph over a smaller box
    (``kept_inside``: a smaller bound's, built earlier in ``find_rule``), and up to 256 evenly spaced positions
    that size the graph (``moves()`` called once each: the build reuses them)."""
    sample = np.unique(np.linspace(0, universe.size - 1, min(256, universe.size)).astype(np.int64))
    inner = kept_inside(game, universe) if universe.is_box else None
    if inner is None:
        return _Known(sample, *_ids_of(game, universe, universe.positions(sample)))
    box, graph = inner
    rows = universe.index(box.positions())  # increasing: both boxes list their positions in the same order
    counts = np.diff(graph.indptr)
    fresh = sample[~np.isin(sample, rows)]
    fresh_counts, fresh_ids = _ids_of(game, universe, universe.positions(fresh))
    every = np.concatenate([rows, fresh])
    order = np.argsort(every, kind="stable")
    counts = np.concatenate([counts, fresh_counts])
    starts = np.concatenate([graph.indptr[:-1], graph.indptr[-1] + np.cumsum(fresh_counts) - fresh_counts])
    ids = np.concatenate([rows[graph.targets[:, 0]], fresh_ids])[row_ranges(starts[order], counts[order])]
    return _Known(every[order], counts[order], ids, sample)


def _python_graph(game: Game, universe: Universe, workers=None) -> Graph:
    """The graph of a game without a kernel, from ``game.option_rows``: ids per block of positions (the options'
    Python objects live one batch at a time), copied into compressed sparse rows as the blocks end; ``moves()``
    is called once per position (the sample that sizes the graph, and a kept smaller box's, included).  When
    ``moves()`` fails (or leaves the universe), the error names the least position that fails
    (``least_failure``), not the first one met (the sample that sizes the graph is spread over the universe)."""
    n = universe.size
    try:
        known = _known_rows(game, universe)
    except ValueError as err:
        raise least_failure(game, universe, err) from None
    moves = known.mean_degree() * n
    check_memory(8.0 * (2 * n + 2 + moves * game.parts), f"the graph of {game!r} over {n:,} positions")
    pool = _python_pool(game, moves, workers)
    rows = _Rows(n, 1.1 * moves)
    deadline = current()

    def done(i, result):  # the deadline read as blocks end, here (workers started by spawn do not know it)
        rows.add(i, result)
        deadline.check(f"the graph of {game!r} over {n:,} positions")

    try:  # a few blocks per worker, so that a slow block leaves no worker idle for long, of BLOCK_MOVES at most
        cuts = known.cuts(n, min(n, max(8 * pool.workers, 16, int(moves // BLOCK_MOVES))))
        pool.map(_option_ids, [(game, universe, int(lo), int(hi), known.part(lo, hi))
                               for lo, hi in zip(cuts[:-1], cuts[1:])], done=done)
    except OutOfTime:  # the budget, not moves(): no failing position to look for
        raise
    except ValueError as err:
        raise least_failure(game, universe, err) from None
    finally:
        if pool is not workers:
            pool.close()
    return rows.graph()


def _python_sum_graph(game: Game, universe: Universe) -> Graph:
    """The graph of a one-heap game written in Python whose options are sums of heaps (a coin-turning game), from
    ``game.option_rows`` a block of heaps at a time: each option's heaps as ids, padded with heap 0's (an empty
    part) to the most heaps of any option.  In this process: such games are small (their options grow fast)."""
    n, deadline = universe.size, current()
    what = f"the graph of {game!r} over {n:,} positions"
    sample = universe.positions(np.unique(np.linspace(0, n - 1, min(64, n)).astype(np.int64)))
    counts, options = game.option_rows(sample)
    check_memory(8.0 * (2 * n + 2 + counts.mean() * n * options.shape[1]), what)
    empty = int(universe.index(np.zeros((1, 1), dtype=np.int64))[0])
    indptr, blocks, width, step = np.zeros(n + 1, dtype=np.int64), [], 1, 64
    lo = 0
    while lo < n:
        deadline.check(what)
        hi = min(lo + step, n)
        counts, options = game.option_rows(universe.positions(np.arange(lo, hi)))
        found = universe.index(options.reshape(-1, 1), strict=False).reshape(options.shape)
        if (found < 0).any():
            row, _ = np.argwhere(found < 0)[0]
            at = int(np.searchsorted(np.cumsum(counts), row, side="right"))
            raise _outside(game, universe, universe.positions(np.array([lo + at]))[0], options[row])
        blocks.append(found)
        width = max(width, found.shape[1])
        indptr[lo + 1: hi + 1] = indptr[lo] + np.cumsum(counts)
        step = int(min(max(BATCH_MOVES * (hi - lo) // max(int(counts.sum()) * found.shape[1], 1), 1), 1 << 16))
        lo = hi
    targets = np.full((int(indptr[-1]), width), empty, dtype=np.int64)
    at = 0
    for block in blocks:
        targets[at:at + len(block), :block.shape[1]] = block
        at += len(block)
    return Graph(indptr, targets)


def least_failure(game: Game, universe: Universe, err: ValueError, limit: int = LEAST_FAILURE) -> ValueError:
    """The error of the least position of ``universe`` whose ``moves()`` fail or leave it, least by its count of
    tokens (the sum of its coordinates), then by id, among the first ``limit`` positions in that order; ``err``
    (met at a larger position) when none of them fails, or when the universe has more than ``LEAST_SCAN``
    positions.

    Examples
    --------
    >>> from games.custom import custom_game
    >>> g = custom_game("fails", lambda p: 1 / 0 if p[0] + p[1] >= 7 else [(p[0] - 1, p[1])] if p[0] else [],
    ...                 dims=2)
    >>> "'fails' at (7, 0) raised ZeroDivisionError" in str(least_failure(g, g.universe(9), ValueError("(9, 9)")))
    True
    """
    if universe.size > LEAST_SCAN:  # too many positions to order in the time of an error message
        return err
    sums, ids = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    for lo in range(0, universe.size, 1 << 20):  # the ``limit`` least, a block of ids at a time
        block = np.arange(lo, min(lo + (1 << 20), universe.size))
        sums = np.concatenate([sums, universe.positions(block).sum(axis=1)])
        ids = np.concatenate([ids, block])
        if sums.size > limit:
            keep = np.argpartition(sums, limit - 1)[:limit]
            sums, ids = sums[keep], ids[keep]
    order = ids[np.lexsort((ids, sums))]
    for lo in range(0, order.size, 256):
        block = order[lo:lo + 256]
        try:
            _ids_of(game, universe, universe.positions(block))
            continue
        except ValueError:
            pass
        for i in block:  # the block fails: its first position that does
            try:
                _ids_of(game, universe, universe.positions(np.array([i])))
            except ValueError as least:
                return least
    return err


def _mean_degree(game: Game, universe: Universe, sample: int = 256) -> float:
    """Average number of options, estimated on evenly spaced positions.

    Generating the options of a position allocates a buffer of ``max_moves(position)`` rows;
    where that buffer would be large (over 16 MB), ``max_moves`` itself is the estimate."""
    row_bytes = 8 * game.parts * game.dims
    ids = np.unique(np.linspace(0, universe.size - 1, min(sample, universe.size)).astype(np.int64))
    degrees = []
    for p in universe.positions(ids):
        cap = game.max_moves(p)
        degrees.append(cap if cap * row_bytes > 16 << 20 else len(game.options(p)))
    return float(np.mean(degrees))


def estimated_moves(game: Game, universe: Universe, sample: int = 256) -> float:
    """The number of moves (edges) of ``game``'s graph over ``universe``, estimated from the options of up to
    ``sample`` evenly spaced positions, without building it: what a caller that grows a universe reads to stop
    before a graph too large to build in its budget.

    Examples
    --------
    >>> from games import make_game
    >>> g = make_game("subtraction", subtract=(1, 2))
    >>> round(estimated_moves(g, g.universe(1000)))  # heaps 0 and 1 have fewer than two
    1994
    """
    if game.kernel is not None:
        return _mean_degree(game, universe, sample) * universe.size
    ids = np.unique(np.linspace(0, universe.size - 1, min(sample, universe.size)).astype(np.int64))
    degrees = [len(game.moves(tuple(int(x) for x in p))) for p in universe.positions(ids)]
    return float(np.mean(degrees)) * universe.size


def build_graph(game: Game, universe: Universe, workers=None) -> Graph:
    """The options of every position of ``universe`` under ``game``'s moves.

    ``workers`` (an int or a ``cgbase.parallel.Workers``) calls a game's Python ``moves`` on worker processes,
    blocks of positions at a time; by default (None) on one local worker per core when the graph has about
    ``PARALLEL_MOVES`` moves or more and there are two cores (started by ``fork`` where it is safe), else in
    this process (``Workers("serial")`` always).  Games with a compiled move kernel fill the graph in this
    process.  Inside ``solvers.graph_store.keep_graphs()`` the graph of a game written in Python is kept, and the
    same universe, or one inside a kept one, is answered from it without calling ``moves()`` again; a larger
    box takes the rows of a kept smaller one.

    Examples
    --------
    >>> from games import make_game
    >>> g = make_game("subtraction", subtract=(1, 2))
    >>> build_graph(g, g.universe(3)).indptr.tolist()
    [0, 0, 1, 3, 5]
    """
    if game.kernel is None:
        graph = kept_graph(game, universe)
        if graph is None:
            graph = _python_graph(game, universe, workers) if game.parts == 1 else _python_sum_graph(game, universe)
            remember_graph(game, universe, graph)
        return graph
    n = universe.size
    max_moves = game.max_moves(universe.limits)
    what = f"the graph of {game!r} over {n:,} positions"
    # a lower bound first (row pointers and the kernel's buffer), so a hopeless request is
    # refused before sampling degrees, which allocates a kernel buffer per sampled position
    check_memory(8.0 * (n + 1 + max_moves * game.parts * game.dims), what)
    mean_degree = _mean_degree(game, universe)
    check_memory(8.0 * (n + 1 + mean_degree * n * game.parts), what)
    keys = universe.keys if universe.keys is not None else np.zeros(0, dtype=np.int64)
    shift, starts = _key_index(keys)
    width = game.parts * game.dims
    block = int(max(1, min(n, (1 << 21) // max(1, max_moves * width))))
    out = np.empty((block, max_moves, width), dtype=np.int64)
    counts = np.zeros(block, dtype=np.int64)
    params = game.kernel_params()
    # start the targets at the estimated size (+10%) so they rarely have to grow
    targets = np.empty((int(min(1.1 * mean_degree * n, float(max_moves) * n)) + 16, game.parts), dtype=np.int64)
    indptr = np.zeros(n + 1, dtype=np.int64)
    m, deadline = 0, current()
    for lo in range(0, n, block):
        deadline.check(what)
        hi = min(lo + block, n)
        positions = universe.positions(np.arange(lo, hi))
        game.kernel(positions, params, counts[: hi - lo], out[: hi - lo])
        need = m + int(counts[: hi - lo].sum())
        if need > targets.shape[0]:
            targets = np.concatenate([targets[:m], np.empty((max(need, 2 * m) - m, game.parts), np.int64)])
        first = m
        m, bad, j = _encode(counts[: hi - lo], out, universe.strides, universe.limits, keys, shift, starts,
                                game.parts, targets, m)
        if bad >= 0:
            option = out[bad, j].reshape(game.parts, game.dims)
            raise _outside(game, universe, positions[bad], option[0] if game.parts == 1 else option[:, 0])
        indptr[lo + 1: hi + 1] = first + np.cumsum(counts[: hi - lo])
    targets = targets[:m].copy() if m < 0.75 * targets.shape[0] else targets[:m]
    return Graph(indptr, targets)


def check_reachable(game, starts) -> list[tuple[int, ...]]:
    """The starts as positions, after refusing them (``ValueError``) when the boxes below them would not fit in
    memory: what ``reachable_universe`` checks before any work, for callers that check before theirs.

    Examples
    --------
    >>> from games import make_game
    >>> check_reachable(make_game("nim", heaps=2), [[2, 1]])
    [(2, 1)]
    """
    starts = [_start(game, s) for s in starts]
    if not starts:
        raise ValueError("starts must hold at least one position")
    boxes = sum(math.prod(x + 1 for x in s) for s in starts)
    check_memory(8.0 * game.dims * boxes, f"the positions reachable from {len(starts)} start(s) of {game!r} "
                                          f"(up to {boxes:,})")
    return starts


def reachable_universe(game: Game, starts, max_positions: int | None = None) -> Universe:
    """The positions reachable from ``starts`` (an iterable of positions), as a subset universe.

    Board games generate theirs layer by layer in numba (``game.reachable``); other games by a
    breadth-first search over ``game.moves``, refused first when the starts' boxes (every coordinate
    between 0 and the start's) would not fit in memory, and stopped once it holds more than
    ``max_positions`` positions (default: the memory limit's worth, ``SEARCH_BYTES`` each).

    Examples
    --------
    >>> from games import make_game
    >>> reachable_universe(make_game("nim", heaps=2), [(2, 1)]).size
    6
    >>> reachable_universe(make_game("nim", heaps=2), [(2, -1)])
    Traceback (most recent call last):
    ...
    ValueError: start (2, -1) is not a position of nim(heaps=2, misere=False): give 2 integers, each from 0 to 2**63 - 1
    """
    if game.universe_from_start and hasattr(game, "reachable"):
        return game.reachable(starts)
    from cgbase.memory import memory_limit

    starts = check_reachable(game, starts)
    limit = memory_limit() // SEARCH_BYTES if max_positions is None else max_positions
    seen = set(starts)
    frontier = list(seen)
    while frontier:
        nxt = []
        for position in frontier:
            for option in game.moves(position):
                parts = game.option_parts(option)
                for part in parts:
                    if part not in seen:
                        seen.add(part)
                        nxt.append(part)
            if len(seen) > limit:
                raise ValueError(f"more than {limit:,} positions are reachable from the starts of {game!r}, the "
                                 f"most a search holds in memory: its moves may never end; give closer starts")
        frontier = nxt
    if game.parts > 1:
        seen.add((0,) * game.dims)
    return Universe.from_positions(np.array(sorted(seen), dtype=np.int64))


def _start(game: Game, start) -> tuple:
    """``start`` as a tuple of Python ints, or a ValueError naming it."""
    try:
        coords = tuple(start)
    except TypeError:
        coords = None
    if (coords is None or len(coords) != game.dims
            or not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x < 2**63
                       for x in coords)):
        raise ValueError(f"start {start!r} is not a position of {game!r}: give {game.dims} integers, "
                         f"each from 0 to 2**63 - 1")
    return tuple(int(x) for x in coords)
