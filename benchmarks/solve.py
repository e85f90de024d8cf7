"""Speed of the exact solver, each figure set beside a baseline timed in the same process.

Run by hand from the repository root (nothing here is asserted on time; ratios are printed
to be quoted in notes)::

    python benchmarks/solve.py            # full sizes, a few minutes on 2 cores
    python benchmarks/solve.py --quick    # tiny sizes, a smoke run of every part

1. Wythoff P/N on a 20000 x 20000 box: ``solve`` (the line fast path) against a plain numba
   kernel written here (one flag per row, column and diagonal; O(1) per cell).
2. The generic graph path on 3-heap Nim up to 63: ``build_graph`` then the outcome pass,
   in edges per second (``solve`` itself would take the line fast path for Nim).
3. Nim with 4 heaps of 15: ``solve`` against OpenSpiel's memoised ``MinimaxSolver`` and a
   memoised pure-Python recursion.
4. Wythoff Grundy values on a 2000 x 2000 box, with known values checked.

The answers of both sides are compared in every part (an ``AssertionError`` if they differ).
"""

from __future__ import annotations

import sys
import time

import numba as nb
import numpy as np

from games import make_game
from solvers import build_graph, solve
from solvers.retrograde import outcome_descending, retrograde
from timing import arguments, best_of, fmt_time, heading, load_average, machine_line, print_table

FULL = {"wythoff": 19999, "nim3": 63, "nim4": 15, "nim4_small": 7, "grundy": 1999, "openspiel_limit": 120.0}
QUICK = {"wythoff": 199, "nim3": 15, "nim4": 3, "nim4_small": 2, "grundy": 99, "openspiel_limit": 120.0}


# -- helpers -------------------------------------------------------------------------------
def say(label: str, text: str) -> None:
    print(f"   {label:<24}: {text}", flush=True)


# -- 1. Wythoff P/N: line fast path against a textbook numba kernel ---------------------------
@nb.njit(cache=True)
def reference_wythoff(bound):
    """Outcome (+1 N / -1 P) of every (a, b) with a, b <= bound, as an int8 table ``[b, a]``.

    The textbook pass: scan cells in order (a fastest, the solver's id order); a cell is P
    when no earlier cell on its row, column or diagonal is P.  Every cell is written, so it
    produces the same full table as the solver.
    """
    n = bound + 1
    row_has_p = np.zeros(n, dtype=np.bool_)  # by a
    col_has_p = np.zeros(n, dtype=np.bool_)  # by b
    diag_has_p = np.zeros(2 * n - 1, dtype=np.bool_)  # by a - b + bound
    out = np.empty((n, n), dtype=np.int8)
    for b in range(n):
        for a in range(n):
            d = a - b + bound
            if row_has_p[a] or col_has_p[b] or diag_has_p[d]:
                out[b, a] = 1
            else:
                out[b, a] = -1
                row_has_p[a] = True
                col_has_p[b] = True
                diag_has_p[d] = True
    return out


def bench_wythoff_outcome(bound: int, repeats: int) -> dict:
    n = bound + 1
    heading(f"1. Wythoff P/N, {n} x {n} = {n * n:,} cells: solve() line fast path vs numba reference kernel")
    game = make_game("wythoff")
    warm = min(bound, 50)
    reference_wythoff(warm)
    solve(game, bound=warm)

    t_ref, table = best_of(lambda: reference_wythoff(bound), repeats)
    t_ours, solution = best_of(lambda: solve(game, bound=bound), repeats)
    assert np.array_equal(table.reshape(-1), solution.outcome_table), "Wythoff P/N tables differ"
    p_count = int(np.count_nonzero(solution.outcome_table == -1))
    del table, solution
    ratio = t_ref / t_ours
    say("reference numba kernel", f"{fmt_time(t_ref)}  (best of {repeats})")
    say(f"solve(bound={bound})", f"{fmt_time(t_ours)}  (best of {repeats})")
    say("ratio reference/ours", f"{ratio:.3f}  (aim >= 0.5)")
    print(f"   agree ({p_count:,} P positions in both tables)")
    return {"t_ref": t_ref, "t_ours": t_ours, "ratio": ratio, "cells": n * n}


# -- 2. the generic graph path in edges per second --------------------------------------------
def _graph_path(game, universe, terminal):
    t0 = time.perf_counter()
    graph = build_graph(game, universe)
    t1 = time.perf_counter()
    descending = graph.descending  # solve() checks this before choosing the one-pass outcome
    t2 = time.perf_counter()
    if descending:
        outcome = outcome_descending(graph.indptr, graph.targets[:, 0], terminal)
    else:
        outcome, _ = retrograde(graph, int(terminal))
    t3 = time.perf_counter()
    return {"build": t1 - t0, "check": t2 - t1, "outcome": t3 - t2, "total": t3 - t0,
            "graph": graph, "outcome_table": outcome, "descending": descending}


def bench_graph_path(bound: int, repeats: int) -> dict:
    heading(f"2. Generic graph path: Nim, 3 heaps <= {bound} (build_graph + outcome pass)")
    game = make_game("nim", heaps=3)
    terminal = np.int8(game.terminal_outcome())
    small = game.universe(min(bound, 7))
    warm = _graph_path(game, small, terminal)
    retrograde(warm["graph"], int(terminal))

    universe = game.universe(bound)
    best = None
    for _ in range(repeats):
        run = _graph_path(game, universe, terminal)
        if best is None or run["total"] < best["total"]:
            best = run
        run = None
    graph = best["graph"]
    edges = graph.edges
    t_retro, (retro_outcome, _) = best_of(lambda: retrograde(graph, int(terminal)), repeats)

    line = solve(game, bound=bound).outcome_table
    assert np.array_equal(best["outcome_table"], line), "graph path and line fast path disagree"
    assert np.array_equal(retro_outcome, line), "retrograde and line fast path disagree"
    rate = edges / best["total"]
    rate_retro = edges / (best["build"] + t_retro)
    print(f"   positions {universe.size:,}, edges {edges:,}, descending ids: {best['descending']}")
    say("build_graph", f"{fmt_time(best['build'])}")
    say("descending check", f"{fmt_time(best['check'])}")
    say("outcome_descending", f"{fmt_time(best['outcome'])}")
    say(f"total (best of {repeats})", f"{fmt_time(best['total'])}  ->  {rate:.3g} edges/s  (aim >= 2e7)")
    say("retrograde instead", f"{fmt_time(t_retro)}  ->  build + retrograde {rate_retro:.3g} edges/s "
          f"(the path for games with cycles or remoteness)")
    print("   agree (graph path = retrograde = line fast path)")
    return {"edges": edges, "t_total": best["total"], "rate": rate, "t_build": best["build"],
            "t_retro": t_retro, "rate_retro": rate_retro, "positions": universe.size}


# -- 3. Nim 4 x 15 against OpenSpiel and plain Python ------------------------------------------
def python_memo_nim(start: tuple[int, ...]):
    """Memoised recursion in plain Python: True when the player to move wins (normal play)."""
    memo: dict[tuple[int, ...], bool] = {}

    def wins(pos):
        known = memo.get(pos)
        if known is not None:
            return known
        result = False
        for i, h in enumerate(pos):
            for k in range(h):
                if not wins(pos[:i] + (k,) + pos[i + 1:]):
                    result = True
                    break
            if result:
                break
        memo[pos] = result
        return result

    return wins(start), memo


def openspiel_nim(heap: int, heaps: int = 4):
    """Solve Nim with OpenSpiel's MinimaxSolver; returns (seconds, start value, table, game)."""
    import pyspiel
    from open_spiel.python.algorithms.minimax_solver import MinimaxSolver

    # OpenSpiel's nim is misere unless told otherwise.
    game = pyspiel.load_game("nim", {"pile_sizes": ";".join([str(heap)] * heaps), "is_misere": False})
    start = time.perf_counter()
    table = MinimaxSolver(str(game)).solve()
    seconds = time.perf_counter() - start
    return seconds, table[str(game.new_initial_state())].value, table, game


def _check_openspiel_table(table, outcome) -> int:
    """Compare every state OpenSpiel solved ("(player): h1 h2 ...") with our outcome table."""
    positions = np.array([[int(x) for x in key.split(":")[1].split()] for key in table], dtype=np.int64)
    values = np.array([entry.value for entry in table.values()])
    ours = outcome(positions)
    mismatched = int(np.count_nonzero(ours != np.rint(values).astype(np.int64)))
    assert mismatched == 0, f"{mismatched} OpenSpiel states disagree with solve()"
    return len(table)


def bench_nim_openspiel(heap: int, small_heap: int, limit: float, repeats: int, skip_openspiel: bool) -> dict:
    heading(f"3. Nim, 4 heaps of {heap} (universe: every position <= {heap}): solve() vs OpenSpiel vs Python")
    game = make_game("nim", heaps=4)
    start = (heap,) * 4
    solve(game, bound=2)
    t_ours, solution = best_of(lambda: solve(game, bound=heap), max(repeats, 5))
    ours_value = int(solution.outcome([start])[0])
    say(f"solve(bound={heap})", f"{fmt_time(t_ours)}  (best of {max(repeats, 5)}, "
          f"{solution.universe.size:,} positions), start value {ours_value:+d}")

    python_memo_nim((1, 1, 1, 1))
    t_py, (py_wins, memo) = best_of(lambda: python_memo_nim(start), repeats)
    py_value = 1 if py_wins else -1
    memo_positions = np.array(list(memo), dtype=np.int64)
    memo_values = np.where(np.array(list(memo.values())), 1, -1)
    assert np.array_equal(solution.outcome(memo_positions), memo_values), "Python recursion disagrees"
    assert py_value == ours_value
    say("memoised Python", f"{fmt_time(t_py)}  (best of {repeats}, {len(memo):,} positions memoised, "
          f"stops at the first winning move), start value {py_value:+d}  ->  {t_py / t_ours:,.0f}x")

    result = {"t_ours": t_ours, "t_py": t_py, "ratio_py": t_py / t_ours, "openspiel": []}
    if skip_openspiel:
        print("   OpenSpiel              : skipped (--skip-openspiel)")
        return result
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("   OpenSpiel              : not installed (pip install open_spiel)")
        return result

    openspiel_nim(1)  # warm-up: imports and first game load
    sizes = [heap]
    while sizes:
        size = sizes.pop(0)
        t_os, os_value, table, os_game = openspiel_nim(size)
        if size == heap:
            sol, t_sol = solution, t_ours
        else:
            t_sol, sol = best_of(lambda: solve(game, bound=size), max(repeats, 5))
        checked = _check_openspiel_table(table, sol.outcome)
        assert int(round(os_value)) == int(sol.outcome([(size,) * 4])[0])
        print(f"   OpenSpiel MinimaxSolver, {os_game}:")
        print(f"       {fmt_time(t_os)}  (1 run, {checked:,} (position, player) states memoised), "
              f"start value {os_value:+.0f}; all {checked:,} states agree  ->  {t_os / t_sol:,.0f}x"
              + ("" if size == heap else f" (against solve(bound={size}) = {fmt_time(t_sol)})"))
        result["openspiel"].append({"heap": size, "t_os": t_os, "t_ours": t_sol, "ratio": t_os / t_sol})
        del table
        if size == heap and t_os > limit:
            sizes.append(small_heap)
    return result


# -- 4. Wythoff Grundy values ---------------------------------------------------------------
def _mex_corner(size: int) -> np.ndarray:
    """Wythoff Grundy values of a small corner by the definition (plain Python mex)."""
    g = np.zeros((size, size), dtype=np.int64)
    for a in range(size):
        for b in range(size):
            seen = {int(g[k, b]) for k in range(a)} | {int(g[a, k]) for k in range(b)}
            seen |= {int(g[a - t, b - t]) for t in range(1, min(a, b) + 1)}
            m = 0
            while m in seen:
                m += 1
            g[a, b] = m
    return g


def bench_wythoff_grundy(bound: int, repeats: int) -> dict:
    n = bound + 1
    heading(f"4. Wythoff Grundy values, {n} x {n}: solve(grundy=True)")
    game = make_game("wythoff")
    solve(game, bound=9, grundy=True)
    t, solution = best_of(lambda: solve(game, bound=bound, grundy=True), repeats)
    values = solution.grundy_table.reshape(n, n)  # [b, a]
    k = np.arange(n)
    assert np.array_equal(values[:, 0], k) and np.array_equal(values[0, :], k), "G(0, n) = n fails"
    row1 = np.where(k % 3 == 2, k - 2, k + 1)  # G(1, n): 1 2 0 4 5 3 7 8 6 ...
    assert np.array_equal(values[:, 1], row1), "G(1, n) fails"
    assert np.array_equal(values, values.T), "G(a, b) = G(b, a) fails"
    assert np.array_equal(solution.outcome_table, reference_wythoff(bound).reshape(-1)), "G = 0 differs from P"
    corner = min(n, 40)
    assert np.array_equal(values[:corner, :corner].T, _mex_corner(corner)), "mex by definition differs"
    say(f"solve(bound={bound}, grundy=True)", f"{fmt_time(t)}  (best of {repeats}), "
          f"{n * n / t:.3g} cells/s, largest value {int(values.max())}")
    say("checked", f"G(0,n) = G(n,0) = n; G(1,n) = 1 2 0 4 5 3 ...; symmetry; G = 0 exactly on the "
          f"reference P positions; the {corner} x {corner} corner equals the mex definition")
    return {"t": t, "cells": n * n}


# -- the run ------------------------------------------------------------------------------
def main(argv=None) -> int:
    args = arguments(__doc__.splitlines()[0], "tiny sizes: a smoke run of every part", 3, argv,
                     [("--skip-openspiel", "leave OpenSpiel out of part 3")])
    sizes = QUICK if args.quick else FULL

    print(machine_line(args.quick))
    began = time.perf_counter()
    w = bench_wythoff_outcome(sizes["wythoff"], args.repeats)
    g = bench_graph_path(sizes["nim3"], args.repeats)
    o = bench_nim_openspiel(sizes["nim4"], sizes["nim4_small"], sizes["openspiel_limit"], args.repeats,
                            args.skip_openspiel)
    r = bench_wythoff_grundy(sizes["grundy"], args.repeats)

    heading(f"Summary (whole run {time.perf_counter() - began:.0f} s, load average now {load_average()})")
    rows = [("benchmark", "size", "ours", "baseline", "ratio", "aim")]
    n1 = sizes["wythoff"] + 1
    rows.append(("Wythoff P/N, line fast path", f"{n1}x{n1}", fmt_time(w["t_ours"]),
                 f"{fmt_time(w['t_ref'])} numba ref", f"{w['ratio']:.3f} ref/ours", ">= 0.5"))
    rows.append(("generic graph path, Nim 3 heaps", f"<= {sizes['nim3']}, {g['edges']:,} edges",
                 fmt_time(g["t_total"]), "-", f"{g['rate']:.3g} edges/s", ">= 2e7"))
    rows.append(("  (build + retrograde)", "", fmt_time(g["t_build"] + g["t_retro"]), "-",
                 f"{g['rate_retro']:.3g} edges/s", ""))
    h = sizes["nim4"]
    for entry in o["openspiel"]:
        label = "Nim 4 heaps vs OpenSpiel" + ("" if entry["heap"] == h else " (smaller)")
        rows.append((label, f"4 x {entry['heap']}", fmt_time(entry["t_ours"]),
                     f"{fmt_time(entry['t_os'])} MinimaxSolver", f"{entry['ratio']:,.0f}x", ">= 1000x"))
    rows.append(("Nim 4 heaps vs Python memo", f"4 x {h}", fmt_time(o["t_ours"]),
                 f"{fmt_time(o['t_py'])} memo recursion", f"{o['ratio_py']:,.0f}x", ""))
    n4 = sizes["grundy"] + 1
    rows.append(("Wythoff Grundy values", f"{n4}x{n4}", fmt_time(r["t"]), "-",
                 f"{r['cells'] / r['t']:.3g} cells/s", ""))
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
