"""Declared games against the built-in families and against the same games as Python ``custom_game`` moves.

Run by hand from the repository root (nothing here is asserted on time; ratios are printed to be quoted
in notes)::

    python benchmarks/declared.py            # full sizes, a few minutes on 2 cores
    python benchmarks/declared.py --quick    # tiny sizes, a smoke run

Each game is made three ways, in one process: **built-in** (``make_game``), **declared**
(``games.declared``: the vocabulary compiled to one numba kernel) and **python** (``custom_game`` with a
plain ``moves`` function).  For each: ``build_graph`` over the same universe, ``solve`` (P/N) and
``find_rule`` (no strategy search, no proof: a Python game has no relation to prove with), each the best
of ``--repeats`` runs after a warm-up (numba's compilation is not timed); then ``find_rule`` with its
strategy search and proof for the built-in and the declared game ("+ proof"), whose proofs must agree.
Ratios are over the built-in family's time.  Graphs (options of every position), outcomes and rules (on
the verification bound) must agree: an ``AssertionError`` otherwise.
"""

from __future__ import annotations

import os
import sys

# Run as a script, this file's folder is first on sys.path and its name would shadow packages: drop it.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import numpy as np  # noqa: E402

from discover.find import find_rule  # noqa: E402
from games import custom_game, declared_game, make_game  # noqa: E402
from solvers import build_graph, solve  # noqa: E402

sys.path.append(_HERE)  # the timing helpers, once the packages are imported
from timing import arguments, best_of, fmt_time, heading, machine_line  # noqa: E402

__all__ = ["CASES", "main"]


def nim_moves(p):
    return [p[:i] + (p[i] - t,) + p[i + 1:] for i in range(len(p)) for t in range(1, p[i] + 1)]


def wythoff_moves(p):
    a, b = p
    return ([(a - t, b) for t in range(1, a + 1)] + [(a, b - t) for t in range(1, b + 1)]
            + [(a - t, b - t) for t in range(1, min(a, b) + 1)])


def subtraction_moves(p):
    return [(p[0] - s,) for s in (1, 3, 4) if s <= p[0]]


def moore_moves(p):
    """Any positive amounts from each of one or two of three heaps."""
    out = []
    for i in range(3):
        out += [p[:i] + (p[i] - t,) + p[i + 1:] for t in range(1, p[i] + 1)]
        for j in range(i + 1, 3):
            for s in range(1, p[i] + 1):
                for t in range(1, p[j] + 1):
                    q = list(p)
                    q[i] -= s
                    q[j] -= t
                    out.append(tuple(q))
    return out


# key: (family, params, declaration, Python moves, dims, sizes {quick, full}: graph/solve bound, rule bound,
# verification bound)
CASES = {
    "nim3": ("nim", {"heaps": 3}, {"heaps": 3, "moves": [{"take": "any"}]}, nim_moves, 3,
             {"quick": (10, 5, 12), "full": (40, 7, 30)}),
    "wythoff": ("wythoff", {}, {"heaps": 2, "moves": [{"take": "any"}, {"take": "any", "from": "all"}]},
                wythoff_moves, 2, {"quick": (40, 20, 60), "full": (150, 30, 150)}),
    "subtraction134": ("subtraction", {"subtract": (1, 3, 4)}, {"heaps": 1, "moves": [{"take": [1, 3, 4]}]},
                       subtraction_moves, 1, {"quick": (2000, 40, 400), "full": (50000, 60, 6000)}),
    "moore3k2": ("moore", {"heaps": 3, "k": 2}, {"heaps": 3, "moves": [{"some": 2}]}, moore_moves, 3,
                 {"quick": (5, 4, 6), "full": (14, 7, 14)}),
}


def _canonical(graph):
    rows = np.repeat(np.arange(graph.size), np.diff(graph.indptr))
    order = np.lexsort((graph.targets[:, 0], rows))
    return graph.indptr, graph.targets[order, 0]


def _run(key: str, quick: bool, repeats: int) -> list:
    family, params, declaration, moves, dims, sizes = CASES[key]
    bound, rule_bound, verify_bound = sizes["quick" if quick else "full"]
    games = {"built-in": make_game(family, **params), "declared": declared_game({"name": key, **declaration}),
             "python": custom_game(key, moves, dims=dims)}
    universe = games["built-in"].universe(bound)
    heading(f"{key}: graph and solve on {universe.size:,} positions, find_rule on bound {rule_bound} "
            f"(verified on {verify_bound})")
    rows, results = [], {}
    for label, game in games.items():
        solve(game, bound=2)  # warm-up: numba's compilation and caches are not timed
        graph_time, graph = best_of(lambda: build_graph(game, universe), repeats)
        solve_time, solution = best_of(lambda: solve(game, bound=bound), repeats)
        rule_time, found = best_of(lambda: find_rule(game, bound=rule_bound, verify_bound=verify_bound, games=10,
                                                     strategy=False, prove=False), repeats)
        proved_time, proved = best_of(lambda: find_rule(game, bound=rule_bound, verify_bound=verify_bound,
                                                        games=10), repeats) if label != "python" else (None, None)
        results[label] = (_canonical(graph), solution.outcome(universe.positions()), found, proved)
        rows.append((label, graph.edges, graph_time, solve_time, rule_time, proved_time))
    base = rows[0]
    print(f"   {'':<10} {'edges':>10} " + " ".join(f"{h:>10} {'ratio':>7}" for h in
                                                   ("graph", "solve", "find_rule", "+ proof")))
    for label, edges, *times in rows:
        print(f"   {label:<10} {edges:>10,} " + " ".join(
            f"{fmt_time(t):>10} {t / b:>6.2f}x" if t is not None else f"{'-':>10} {'':>7}"
            for t, b in zip(times, base[2:])), flush=True)
    _agree(key, results, games["built-in"].universe(verify_bound))
    theirs, ours = results["built-in"][3], results["declared"][3]
    assert ours.proof.status == theirs.proof.status, f"{key}: proofs {ours.proof.line()} / {theirs.proof.line()}"
    print(f"   declared: {ours.rule.text()}; {ours.proof.line()}", flush=True)
    return rows


def _agree(key: str, results: dict, verify_universe) -> None:
    (indptr, targets), outcome, found, _ = results["built-in"]
    positions = verify_universe.positions()
    for label in ("declared", "python"):
        (their_indptr, their_targets), their_outcome, their_found, _ = results[label]
        assert np.array_equal(indptr, their_indptr) and np.array_equal(targets, their_targets), \
            f"{key}: the {label} graph differs from the built-in family's"
        assert np.array_equal(outcome, their_outcome), f"{key}: the {label} outcomes differ"
        assert their_found.status == found.status == "verified", f"{key}: {label} {their_found.status}"
        assert np.array_equal(their_found.rule.predicate(positions), found.rule.predicate(positions)), \
            f"{key}: the {label} rule ({their_found.rule.text()}) and the built-in one ({found.rule.text()}) differ"


def main(argv=None) -> None:
    args = arguments(__doc__.splitlines()[0], "tiny sizes: a smoke run", repeats=2, argv=argv)
    repeats = 1 if args.quick else args.repeats
    print(machine_line(args.quick))
    find_rule(make_game("nim", heaps=2), bound=3, verify_bound=6, games=2)  # warm-up: engines, z3, caches
    for key in CASES:
        _run(key, args.quick, repeats)
    print("\nagreement: graphs, outcomes and rules are the same for built-in, declared and python games")


if __name__ == "__main__":
    main()
