"""Declared games against the built-in families and against the same games as Python ``custom_game`` moves.

Run by hand from the repository root (nothing here is asserted on time; ratios are printed to be quoted
in notes)::

    python benchmarks/declared.py            # full sizes, a few minutes on 2 cores
    python benchmarks/declared.py --quick    # tiny sizes, a smoke run

Each game is made three ways, in one process: **built-in** (``make_game``), **declared**
(``games.declared``: the vocabulary compiled to one numba kernel) and **python** (``custom_game`` with a
plain ``moves`` function).  For each: ``build_graph`` over the same universe, ``solve`` (P/N) and
``find_rule`` (no strategy search, no proof: a Python game has no relation to prove with), each the best
of ``--repeats`` runs (wall time, its CPU seconds beside: workers' included) after a warm-up (numba's
compilation is not timed); then ``find_rule`` with its strategy search and proof for the built-in and the
declared game ("+ proof"), whose proofs must agree.
Ratios are over the built-in family's time.  Graphs (options of every position), outcomes and rules (on
the verification bound) must agree: an ``AssertionError`` otherwise.

Every timed step runs in a forked child of this process (``os.fork``, so numba's compiled code is inherited and
no result stays behind to swell the next step), which reports its time, its **peak** resident memory (Linux's
``VmHWM``, reset at the step's start: the interpreter and libraries, about 0.3 GB, included) and the largest
peak of any worker process it started ("workers"), with a digest of its result for the agreement checks.
Under each table: the Python game's time over the declared one's, and its ``moves`` function alone over
the verification bound (called and its lists dropped, in one process: CPU that any build through Python spends).
The full run adds the sizes at which the issue on custom games measured minutes and gigabytes ("nim3-issue",
"moore3k2-issue": the verification bounds ``find_rule`` picks for those custom games), timed once each.
``--case NAME`` runs only the cases named.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import resource
import sys
import time

# Run as a script, this file's folder is first on sys.path and its name would shadow packages: drop it.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import numpy as np  # noqa: E402

from discover.find import find_rule  # noqa: E402
from games import custom_game, declared_game, make_game  # noqa: E402
from solvers import build_graph, solve  # noqa: E402

sys.path.append(_HERE)  # the timing helpers, once the packages are imported
from timing import arguments, fmt_time, heading, machine_line  # noqa: E402

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
# verification bound; None: not in that mode)
CASES = {
    "nim3": ("nim", {"heaps": 3}, {"heaps": 3, "moves": [{"take": "any"}]}, nim_moves, 3,
             {"quick": (10, 5, 12), "full": (40, 7, 30)}),
    "wythoff": ("wythoff", {}, {"heaps": 2, "moves": [{"take": "any"}, {"take": "any", "from": "all"}]},
                wythoff_moves, 2, {"quick": (40, 20, 60), "full": (150, 30, 150)}),
    "subtraction134": ("subtraction", {"subtract": (1, 3, 4)}, {"heaps": 1, "moves": [{"take": [1, 3, 4]}]},
                       subtraction_moves, 1, {"quick": (2000, 40, 400), "full": (50000, 60, 6000)}),
    "moore3k2": ("moore", {"heaps": 3, "k": 2}, {"heaps": 3, "moves": [{"some": 2}]}, moore_moves, 3,
                 {"quick": (5, 4, 6), "full": (14, 7, 14)}),
    "nim3-issue": ("nim", {"heaps": 3}, {"heaps": 3, "moves": [{"take": "any"}]}, nim_moves, 3,
                   {"quick": None, "full": (76, 15, 76)}),
    "moore3k2-issue": ("moore", {"heaps": 3, "k": 2}, {"heaps": 3, "moves": [{"some": 2}]}, moore_moves, 3,
                       {"quick": None, "full": (38, 15, 38)}),
}
ISSUE_SIZES = ("nim3-issue", "moore3k2-issue")  # timed once: a Python graph there takes minutes


def _digest(*arrays) -> str:
    sha = hashlib.sha1()
    for array in arrays:
        sha.update(np.ascontiguousarray(array).tobytes())
    return sha.hexdigest()


def _graph_digest(graph) -> tuple:
    """Edges and a hash of every position's options, in sorted order (the order moves are listed may differ)."""
    rows = np.repeat(np.arange(graph.size), np.diff(graph.indptr))
    order = np.lexsort((graph.targets[:, 0], rows))
    return graph.edges, _digest(graph.indptr, graph.targets[order, 0])


def _rule_digest(found, positions) -> tuple:
    proof = None if found.proof is None else (found.proof.status, found.proof.line())
    return found.status, found.rule.text(), _digest(found.rule.predicate(positions)), proof


def _peak(status: str) -> int:
    """``VmHWM`` (or ``VmRSS``) of this process, in bytes."""
    with open("/proc/self/status") as handle:
        return next(int(line.split()[1]) * 1024 for line in handle if line.startswith(status))


def _cpu() -> float:
    """CPU seconds (user + system) of this process and of the child processes it has waited for."""
    return sum(getattr(resource.getrusage(who), field) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for field in ("ru_utime", "ru_stime"))


def _forked(step, digest) -> tuple:
    """``(seconds, CPU seconds, peak bytes, largest worker's peak bytes or 0, digest(step()))``, ``step`` run in a
    forked child (its CPU seconds include its workers')."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: measure, write, leave at once (no cleanup of the parent's state)
        os.close(read)
        try:
            with open("/proc/self/clear_refs", "w") as handle:
                handle.write("5")  # the peak so far is the current size: the step's own peak from here
            start, cpu = time.perf_counter(), _cpu()
            result = step()
            seconds, cpu, peak = time.perf_counter() - start, _cpu() - cpu, _peak("VmHWM")  # before the digest's
            workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
            payload = pickle.dumps((seconds, cpu, peak, workers, digest(result)))
        except BaseException as err:  # noqa: BLE001 - carried to the parent and raised there
            payload = pickle.dumps(RuntimeError(f"{type(err).__name__}: {err}"))
        with os.fdopen(write, "wb") as out:
            out.write(payload)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        payload = pipe.read()
    os.waitpid(pid, 0)
    answer = pickle.loads(payload)
    if isinstance(answer, BaseException):
        raise answer
    return answer


def _best(step, digest, repeats: int) -> tuple:
    """The fastest of ``repeats`` forked runs (its wall and CPU seconds), with the highest peaks seen."""
    runs = [_forked(step, digest) for _ in range(repeats)]
    fastest = min(runs, key=lambda r: r[0])
    return fastest[0], fastest[1], max(r[2] for r in runs), max(r[3] for r in runs), runs[-1][4]


def _run(key: str, quick: bool, repeats: int) -> list:
    family, params, declaration, moves, dims, sizes = CASES[key]
    bound, rule_bound, verify_bound = sizes["quick" if quick else "full"]
    repeats = 1 if key in ISSUE_SIZES else repeats
    games = {"built-in": make_game(family, **params), "declared": declared_game({"name": key, **declaration}),
             "python": custom_game(key, moves, dims=dims)}
    universe = games["built-in"].universe(bound)
    positions = games["built-in"].universe(verify_bound).positions()
    heading(f"{key}: graph and solve on {universe.size:,} positions, find_rule on bound {rule_bound} "
            f"(verified on {verify_bound})")
    rows, results = [], {}
    for label, game in games.items():
        solve(game, bound=2)  # warm-up: numba's compilation and caches are not timed (nor repeated in each child)
        build_graph(game, game.universe(2))
        steps = [(lambda: build_graph(game, universe), _graph_digest),
                 (lambda: solve(game, bound=bound), lambda s: _digest(s.outcome(universe.positions()))),
                 (lambda: find_rule(game, bound=rule_bound, verify_bound=verify_bound, games=10, strategy=False,
                                    prove=False), lambda found: _rule_digest(found, positions))]
        if label != "python":  # a Python game has no relation to prove with
            steps.append((lambda: find_rule(game, bound=rule_bound, verify_bound=verify_bound, games=10),
                          lambda found: _rule_digest(found, positions)))
        measured = [_best(step, digest, repeats) for step, digest in steps] + [None] * (4 - len(steps))
        results[label] = [m[4] if m else None for m in measured]
        rows.append((label, results[label][0][0], measured))
    _table(rows)
    _agree(key, results)
    alone = _best(lambda: _moves_alone(moves, positions), lambda count: count, repeats)
    print(f"   the moves function alone over the verification bound ({alone[4]:,} options, one process): "
          f"{fmt_time(alone[0])}, {alone[1]:.2f} s CPU = {alone[1] / max(rows[1][2][2][1], 1e-3):.1f}x the declared "
          f"find_rule's CPU", flush=True)
    theirs, ours = results["built-in"][3], results["declared"][3]
    if "unknown" not in (ours[3][0], theirs[3][0]):  # a proof cut short by its time budget contradicts nothing
        assert ours[3][0] == theirs[3][0], f"{key}: proofs {ours[3][1]} / {theirs[3][1]}"
    elif ours[3][0] != theirs[3][0]:
        print(f"   proofs differ by their time budgets: built-in {theirs[3][1]}", flush=True)
    print(f"   declared: {ours[1]}; {ours[3][1]}", flush=True)
    return rows


def _moves_alone(moves, positions) -> int:
    """The count of options of ``moves`` over ``positions``, called 160 positions at a time, each list dropped once
    counted and the garbage collector paused (as the graph builder does): the least a Python build can spend."""
    points = list(map(tuple, positions.tolist()))
    gc.disable()
    try:
        return sum(sum(map(len, map(moves, points[lo:lo + 160]))) for lo in range(0, len(points), 160))
    finally:
        gc.enable()


def _gb(nbytes: int) -> str:
    return f"{nbytes / 2**30:.2f} GB" if nbytes else "-"


def _table(rows) -> None:
    """Wall times with their ratio to the built-in family's, CPU seconds (with the workers'), and each step's
    peak memory (workers' apart)."""
    steps = ("graph", "solve", "find_rule", "+ proof")
    print(f"   {'':<10} {'edges':>11} " + " ".join(f"{h:>10} {'ratio':>7} {'cpu':>8} {'peak':>8}" for h in steps)
          + f" {'workers':>8}")
    base = rows[0][2]
    for label, edges, measured in rows:
        cells = [f"{fmt_time(m[0]):>10} {m[0] / b[0]:>6.2f}x {m[1]:>7.2f}s {_gb(m[2]):>8}" if m
                 else f"{'-':>10} {'':>7} {'':>8} {'':>8}" for m, b in zip(measured, base)]
        workers = max(m[3] for m in measured if m)
        print(f"   {label:<10} {edges:>11,} " + " ".join(cells) + f" {_gb(workers):>8}", flush=True)
    declared, python = rows[1][2], rows[2][2]
    print("   python / declared: " + ", ".join(f"{h} {p[0] / d[0]:.1f}x wall, {p[1] / max(d[1], 1e-3):.1f}x CPU"
                                         for h, p, d in zip(steps, python, declared) if p), flush=True)


def _agree(key: str, results: dict) -> None:
    graph, outcome, found, _ = results["built-in"]
    for label in ("declared", "python"):
        their_graph, their_outcome, their_found, _ = results[label]
        assert their_graph == graph, f"{key}: the {label} graph differs from the built-in family's"
        assert their_outcome == outcome, f"{key}: the {label} outcomes differ"
        assert their_found[0] == found[0] == "verified", f"{key}: {label} {their_found[0]}"
        assert their_found[2] == found[2], \
            f"{key}: the {label} rule ({their_found[1]}) and the built-in one ({found[1]}) differ"


def main(argv=None) -> None:
    args = arguments(__doc__.splitlines()[0], "tiny sizes: a smoke run", repeats=2, argv=argv, cases=CASES)
    repeats = 1 if args.quick else args.repeats
    print(machine_line(args.quick))
    find_rule(make_game("nim", heaps=2), bound=3, verify_bound=6, games=2)  # warm-up: engines, z3, caches
    for key in args.case or CASES:
        if CASES[key][5]["quick" if args.quick else "full"] is not None:
            _run(key, args.quick, repeats)
    print("\nagreement: graphs, outcomes and rules are the same for built-in, declared and python games")


if __name__ == "__main__":
    main()
