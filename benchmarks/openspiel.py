"""OpenSpiel games solved here against OpenSpiel's own value iteration, on the same game in the same run.

Run by hand from the repository root (nothing is asserted on time; ratios are printed to be quoted in notes)::

    python benchmarks/openspiel.py            # tic-tac-toe, Nim, dots and boxes 2 x 2, connect four and breakthrough 4 x 4
    python benchmarks/openspiel.py --quick    # small games, a smoke run

Ours: ``make_game("openspiel:...")`` (every reachable state enumerated through pyspiel) then ``solve`` (retrograde
over the graph).  Theirs: ``open_spiel.python.algorithms.value_iteration.value_iteration`` with
``cyclic_game=True`` (its state walk stops at a state seen before, far faster than the default walk of the whole
game tree) and ``threshold=1e-9``.  Every state's value is compared by its text, as value iteration keys it (an
``AssertionError`` if any differs, unless a text is shared by states of either player to move, which misleads a
text-keyed table and stops its walk early: dots and boxes, breakthrough).
Wall and CPU seconds are printed for both; the ratio is theirs / ours.
"""

from __future__ import annotations

import importlib
import sys
import time
import types

import numpy as np

from games import make_game
from solvers import solve
from solvers.openspiel_summary import values_by_text
from timing import arguments, fmt_time, heading, load_average, machine_line, print_table

FULL = ["tic_tac_toe", "nim(pile_sizes=1;3;5;7)", "dots_and_boxes(num_rows=2,num_cols=2)",
        "connect_four(rows=4,columns=4)", "breakthrough(rows=4,columns=4)"]
QUICK = ["tic_tac_toe", "nim(pile_sizes=1;2;3)", "dots_and_boxes(num_rows=1,num_cols=1)"]


def timed(fn):
    """(wall seconds, CPU seconds, result) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def value_iteration():
    """OpenSpiel's value iteration; its module imports ``lp_solver`` (and cvxpy) for simultaneous-move nodes only,
    and a blank module stands in for it where cvxpy is missing (these games have no such node)."""
    name = "open_spiel.python.algorithms.lp_solver"
    try:
        importlib.import_module(name)
    except ImportError:
        sys.modules[name] = types.ModuleType(name)
    from open_spiel.python.algorithms.value_iteration import value_iteration as run

    return run


def bench(name: str, run_value_iteration) -> dict:
    heading(f"openspiel:{name}")
    t_make, c_make, game = timed(lambda: make_game("openspiel:" + name))
    t_solve, c_solve, solution = timed(lambda: solve(game))
    ours = values_by_text(game, solution.outcome_table)
    states = int((game.kinds == 0).sum() + (game.kinds == 2).sum())
    print(f"   ours: enumerate {fmt_time(t_make)} ({c_make:.2f} s CPU), solve {fmt_time(t_solve)} "
          f"({c_solve:.2f} s CPU); {game.size:,} positions ({states:,} OpenSpiel states)", flush=True)
    t_vi, c_vi, theirs = timed(lambda: run_value_iteration(game.spiel, depth_limit=-1, threshold=1e-9,
                                                           cyclic_game=True))
    assert set(theirs) <= set(ours), "value_iteration saw a state we did not"
    unseen = len(set(ours) - set(theirs))  # its walk stops at a text seen before, whoever was to move
    shared = {k for k, v in ours.items() if v is None}
    wrong = sum(int(np.sign(v)) != ours[k] for k, v in theirs.items() if k not in shared)
    assert wrong == 0 or shared, f"{wrong} states differ"  # only a text shared by both players misleads theirs
    ours_wall, ours_cpu = t_make + t_solve, c_make + c_solve
    agree = (f"all {len(theirs):,} texts agree" if not shared else
             f"{len(shared):,} texts are shared by states of either player to move; its text-keyed table differs "
             f"from ours on {wrong:,} more texts, and its walk never reaches {unseen:,} texts")
    print(f"   value_iteration: {fmt_time(t_vi)} ({c_vi:.2f} s CPU); {agree}  ->  "
          f"{t_vi / ours_wall:.1f}x wall, {c_vi / ours_cpu:.1f}x CPU", flush=True)
    return {"name": name, "states": len(ours), "ours": ours_wall, "ours_cpu": ours_cpu, "enumerate": t_make,
            "theirs": t_vi, "theirs_cpu": c_vi}


def main(argv=None) -> int:
    args = arguments(__doc__.splitlines()[0], "small games: a smoke run", 1, argv)
    print(machine_line(args.quick))
    run = value_iteration()
    solve(make_game("openspiel:nim(pile_sizes=1;2)"))  # warm-up: imports and numba's compiled kernels
    results = [bench(name, run) for name in (QUICK if args.quick else FULL)]
    heading(f"Summary (load average now {load_average()})")
    rows = [("game", "texts", "ours (enumerate + solve)", "value_iteration", "ratio wall", "ratio CPU")]
    for r in results:
        rows.append((r["name"], f"{r['states']:,}", f"{fmt_time(r['ours'])} ({fmt_time(r['enumerate'])} + solve)",
                     fmt_time(r["theirs"]), f"{r['theirs'] / r['ours']:.1f}x", f"{r['theirs_cpu'] / r['ours_cpu']:.1f}x"))
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
