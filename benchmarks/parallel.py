"""Independent jobs side by side (``cgbase.parallel``): a learner sweep and a custom game's move graph.

Run by hand from the repository root (nothing is asserted on time; ratios are printed)::

    python benchmarks/parallel.py              # about 2 minutes on a 2-core machine
    python benchmarks/parallel.py --quick      # small sizes: a smoke run of every part
    python benchmarks/parallel.py --skip-ray   # without the Ray backend
    python benchmarks/parallel.py --repeats 3  # best of 3 timed runs of each row (default: 1)

1. Sweep throughput: ``learners.sweep.run`` of tabular Q-learning on Nim (3 heaps <= 7,
   against an untrained copy) over a grid of 4 settings x 4 seeds, in this process (``serial``, the
   baseline), on 1 and 2 local worker processes and on a local Ray instance with 2 CPUs. Each pool is
   started and warmed by a sweep of one run a worker first, so the figures are steady-state runs per
   second; that start-up (spawning the workers, importing, loading numba's cache) is printed beside them.
2. The move graph of a game written in Python (two heaps: take 1 or 2 from one heap, or 1 from both, a
   ``moves`` function with no compiled kernel): ``solvers.build_graph`` over the box [0, B]^2 in this
   process, then on 1 and 2 local worker processes (each side warmed by a graph of 25 positions first).

Every parallel result is compared with the baseline's (``sweep.json``'s text, the graph's arrays): the
script stops with an ``AssertionError`` on a difference. On a machine with 2 cores shared with other work,
the ratio of 2 workers to 1 is below 2 by whatever else runs: quote it with the load average printed.
"""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]  # do not shadow ``discover``

import numpy as np  # noqa: E402

from learners import sweep  # noqa: E402
from games import custom_game, make_game  # noqa: E402
from cgbase.parallel import Workers  # noqa: E402
from solvers import build_graph  # noqa: E402

sys.path.append(_HERE)  # the shared helpers, after the packages (benchmarks/discover.py shadows nothing)
from timing import arguments, best_of, fmt_time, heading, load_average, machine_line  # noqa: E402

FULL = {"grid": "alpha=0.1,0.5 epsilon=0.1,0.3", "repeats": 4, "episodes": 20_000, "bound": 7, "graph_bound": 300}
QUICK = {"grid": "alpha=0.1,0.5", "repeats": 2, "episodes": 1_000, "bound": 3, "graph_bound": 30}
GAME = make_game("nim", heaps=3)


def take_one_or_two_from_either(p):
    """Two heaps: take 1 or 2 from one heap, or 1 from both."""
    moves = [(p[0] - t, p[1]) for t in (1, 2) if t <= p[0]] + [(p[0], p[1] - t) for t in (1, 2) if t <= p[1]]
    return moves + ([(p[0] - 1, p[1] - 1)] if min(p) >= 1 else [])


CUSTOM = custom_game("take12-both", take_one_or_two_from_either, dims=2)


def backends(skip_ray: bool) -> list:
    pools = [("serial", Workers("serial")), ("local, 1 worker", Workers("local", 1)),
             ("local, 2 workers", Workers("local", 2))]
    if not skip_ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            print("Ray is not installed (pip install 'cgdiscover[ray]'): its row is left out")
        else:
            pools.append(("ray, 2 CPUs", Workers("ray", 2)))
    return pools


def sweep_throughput(sizes: dict, skip_ray: bool, repeats: int) -> list:
    heading(f"1. sweep: q on nim heaps=3 <= {sizes['bound']}, grid {sizes['grid']!r} x {sizes['repeats']} seeds, "
            f"{sizes['episodes']:,} games a run against an untrained copy")

    def one_sweep(pool, grid, repeats):
        return sweep.run("q", GAME, grid, bound=sizes["bound"], repeats=repeats, episodes=sizes["episodes"],
                         opponent="copy", workers=pool)

    rows, baseline = [], None
    for name, pool in backends(skip_ray):
        with pool:
            start_up, _ = best_of(lambda: one_sweep(pool, "alpha=0.2", pool.workers), 1)  # one run a worker
            seconds, record = best_of(lambda: one_sweep(pool, sizes["grid"], sizes["repeats"]), repeats)
        text = sweep.sweep_json(record)
        if baseline is None:
            baseline = (seconds, text)
        assert text == baseline[1], f"{name}: sweep.json differs from the serial sweep's"
        runs = len(record["runs"])
        rows.append((f"sweep, {name}", seconds, baseline[0] / seconds))
        print(f"{name:18} {runs} runs in {fmt_time(seconds):>9} ({runs / seconds:6.2f} runs/s), "
              f"x{baseline[0] / seconds:.2f} the serial rate; start-up and warm-up {fmt_time(start_up)}; "
              f"sweep.json the same")
    return rows


def graph_building(sizes: dict, repeats: int) -> list:
    bound = sizes["graph_bound"]
    universe = CUSTOM.universe(bound)
    heading(f"2. move graph of a Python moves function: {CUSTOM!r} over [0, {bound}]^2 ({universe.size:,} positions)")
    rows, baseline = [], None
    for name, workers in (("this process", None), ("local, 1 worker", 1), ("local, 2 workers", 2)):
        pool = None if workers is None else Workers("local", workers)
        try:
            build_graph(CUSTOM, CUSTOM.universe(4), pool)  # compile the index, start and warm the workers
            seconds, graph = best_of(lambda: build_graph(CUSTOM, universe, pool), repeats)
        finally:
            if pool is not None:
                pool.close()
        if baseline is None:
            baseline = (seconds, graph)
        assert np.array_equal(graph.indptr, baseline[1].indptr) and np.array_equal(graph.targets, baseline[1].targets), \
            f"{name}: the graph differs from the one built in this process"
        edges = int(graph.indptr[-1])
        rows.append((f"graph, {name}", seconds, baseline[0] / seconds))
        print(f"{name:18} {edges:,} edges in {fmt_time(seconds):>9} ({edges / seconds:,.0f} edges/s), "
              f"x{baseline[0] / seconds:.2f} this process's rate; the same graph")
    return rows


def main(argv=None) -> None:
    args = arguments(__doc__.splitlines()[0], "small sizes: a smoke run of every part", 1, argv,
                     extra=[("--skip-ray", "leave out the Ray backend")])
    sizes = QUICK if args.quick else FULL
    print(machine_line(args.quick))
    rows = sweep_throughput(sizes, args.skip_ray, args.repeats) + graph_building(sizes, args.repeats)
    heading("summary (ratio: the baseline's time over this row's, in this run)")
    for name, seconds, ratio in rows:
        print(f"{name:30} {fmt_time(seconds):>9}  x{ratio:.2f}")
    print(f"load average at the end {load_average()}")


if __name__ == "__main__":
    main()
