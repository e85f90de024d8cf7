"""The Hex solver with virtual connections beside the proof-number search, and its reach on 6 x 6 and 7 x 7.

Run by hand from the repository root (nothing is asserted on time; CPU seconds are printed, since
on a shared machine wall time says more about the load than about the solver)::

    python benchmarks/hex_solver.py            # 5 x 5 both solvers, every 6 x 6 opening (about 1 minute)
    python benchmarks/hex_solver.py --quick    # 4 x 4 both solvers, no 6 x 6 (seconds)
    python benchmarks/hex_solver.py --seven    # also every 7 x 7 opening, 500,000 positions at most each
    python benchmarks/hex_solver.py --hard     # also the four hardest 7 x 7 openings, each alone in a fresh solver

1. Every opening of Hex 5 x 5 (4 x 4 with ``--quick``): ``solvers.search.search`` (df-pn over every
   move, no virtual connections) and ``solvers.hex_solver.hex_openings``; positions, CPU seconds,
   the ratio, and every value compared (an ``AssertionError`` if they differ).
2. Every opening of 6 x 6 (and 7 x 7 on request) by ``hex_openings``, each cell's positions and CPU
   seconds, compared with the published winners (``solvers.hex_published``).
3. Late positions of 6 x 6 (not with ``--quick``): seeded positions of 22, 20, 18 and 16 stones, 8 each, by both
   solvers (the search stops after 2,000,000 positions: counted unsettled, never compared); positions, CPU
   seconds, the ratio, every settled value compared.
4. With ``--hard``: the 7 x 7 openings a cap of 60,000 positions left open, (1, 6), (2, 0), (3, 0) and (3, 1),
   each solved alone (a fresh solver and table), positions and CPU seconds.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from games import make_game
from solvers.hex_published import published_openings
from solvers.hex_solver import HexSolver
from solvers.openings import HEX_OPENING_POSITIONS as SEVEN_CAP  # positions per 7 x 7 opening
from solvers.search import search
from timing import arguments, heading, machine_line

HARD = ((1, 6), (2, 0), (3, 0), (3, 1))  # the 7 x 7 openings 60,000 positions left open
LATE_CAP = 2_000_000  # positions per late 6 x 6 position for the proof-number search


def say(label: str, text: str) -> None:
    print(f"   {label:<34}: {text}", flush=True)


def both_solvers(n: int) -> None:
    heading(f"1. Hex {n} x {n}: every opening, proof-number search against the solver with virtual connections")
    search(make_game("hex", n=3))
    HexSolver(3).value(0, 0)  # compile both before timing
    clock = time.process_time()
    result = search(make_game("hex", n=n))
    search_cpu = time.process_time() - clock
    solver = HexSolver(n)
    clock = time.process_time()
    ours = {cell: -solver.value(1 << cell, 0, 1) for cell in range(n * n)}
    ours_cpu = time.process_time() - clock
    assert all(result.moves[(1 << cell, 0)] == ours[cell] for cell in range(n * n)), "the solvers disagree"
    say("proof-number search", f"{result.nodes:,} positions, {search_cpu:.2f} s CPU")
    say("with virtual connections", f"{solver.nodes:,} positions, {ours_cpu:.2f} s CPU")
    say("ratio (search / ours)", f"{result.nodes / solver.nodes:,.0f}x positions, {search_cpu / ours_cpu:,.1f}x CPU; "
                                 f"all {n * n} openings agree")


def late_positions(n: int, counts: dict, cap: int) -> None:
    """Seeded positions with many stones (none connected, the value not settled by the search's first step),
    solved by both; the search stops after ``cap`` positions (counted as unsettled, never compared)."""
    heading(f"3. Hex {n} x {n}: late positions, proof-number search against the solver with virtual connections")
    game, rng = make_game("hex", n=n), np.random.default_rng(n)
    for stones, count in counts.items():
        found = []
        while len(found) < count:
            cells = rng.permutation(n * n)[:stones]
            a, b = sum(1 << int(c) for c in cells[0::2]), sum(1 << int(c) for c in cells[1::2])
            try:
                search(game, (a, b), moves=False, max_nodes=1)
            except RuntimeError:  # open after one step: a position worth timing
                found.append((a, b))
        cpu = {"search": 0.0, "ours": 0.0}
        nodes, open_ = {"search": 0, "ours": 0}, 0
        for a, b in found:
            clock = time.process_time()
            try:
                result = search(game, (a, b), moves=False, max_nodes=cap)
            except RuntimeError:
                open_ += 1
                continue
            cpu["search"] += time.process_time() - clock
            nodes["search"] += result.nodes
            solver = HexSolver(n)
            value, work, seconds = solver.timed_value(a, b)
            cpu["ours"] += seconds
            nodes["ours"] += work
            assert value == result.value, f"the solvers disagree on {(a, b)}"
        settled = count - open_
        say(f"{stones} stones, {settled} of {count} settled", f"search {nodes['search']:,} positions "
            f"{cpu['search']:.2f} s CPU; ours {nodes['ours']:,} positions {cpu['ours']:.3f} s CPU; ratio "
            f"{nodes['search'] / max(nodes['ours'], 1):,.0f}x positions, {cpu['search'] / max(cpu['ours'], 1e-9):,.0f}x CPU")


def sweep(n: int, cap: int | None, cells=None) -> None:
    """Every opening of the n x n board in one solver, or each of ``cells`` alone in a fresh one."""
    alone = cells is not None
    heading(f"{4 if alone else 2}. Hex {n} x {n}: " + ("the hardest openings, each alone" if alone else "every opening")
            + (f", at most {cap:,} positions each" if cap else ""))
    solver, known = HexSolver(n), published_openings(n)
    total, agree, open_cells, work = time.process_time(), 0, 0, 0
    for r, c in cells or [divmod(cell, n) for cell in range(n * n)]:
        solver = HexSolver(n) if alone else solver
        value, nodes, cpu = solver.timed_value(1 << (r * n + c), 0, 1, cap)
        work += nodes
        value = -value
        open_cells += value == 0
        agree += value == known[r, c]
        if nodes:
            word = {1: "W", -1: "L", 0: "open"}[value]
            say(f"({r}, {c})", f"{word:<4} (published {'W' if known[r, c] == 1 else 'L'})  {nodes:>8,} positions  "
                               f"{cpu:8.1f} s CPU")
    count = len(cells) if alone else n * n
    say("total", f"{work:,} positions, {time.process_time() - total:.1f} s CPU; {agree} of {count} agree with "
                 f"the published winners, {open_cells} left open")


def main(argv=None) -> int:
    args = arguments(__doc__.splitlines()[0], "4 x 4 instead of 5 x 5, no 6 x 6", 1, argv,
                     [("--seven", f"also every 7 x 7 opening, at most {SEVEN_CAP:,} positions each"),
                      ("--hard", f"also the hardest 7 x 7 openings {HARD}, each alone")])
    print(machine_line(args.quick))
    both_solvers(4 if args.quick else 5)
    if not args.quick:
        sweep(6, None)
    if args.seven:
        sweep(7, SEVEN_CAP)
    if not args.quick:
        late_positions(6, {22: 8, 20: 8, 18: 8, 16: 8}, LATE_CAP)
    if args.hard:
        sweep(7, SEVEN_CAP, HARD)
    return 0


if __name__ == "__main__":
    np.seterr(all="raise")
    sys.exit(main())
