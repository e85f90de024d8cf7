"""Speed of the board-game solvers (Hex, Notakto, tic-tac-toe), beside baselines timed in the same process.

Run by hand from the repository root (nothing here is asserted on time; figures are printed to
be quoted in notes)::

    python benchmarks/boards.py               # full sizes: about a minute on 2 cores
    python benchmarks/boards.py --quick       # small sizes, a smoke run of every part (seconds)
    python benchmarks/boards.py --notakto5    # also Notakto 5 x 5 from the start (about 40 s more)
    python benchmarks/boards.py --openspiel-hex4   # also OpenSpiel on Hex 4 x 4 (about 3 minutes)

1. Hex 4 x 4, exact retrograde over every reachable position: ``solve(make_game("hex", n=4))``
   (universe, graph, outcome pass), with positions, moves, peak memory and winning openings.
2. Notakto 4 x 4 (and 3 x 3 on 1, 2, 3 boards): ``solve`` and ``solvers.search.search``.
3. Hex 5 x 5, every opening by proof-number search (``search(game)``: the start and its 25 moves).
4. Baselines: OpenSpiel's memoised ``MinimaxSolver`` on ``tic_tac_toe`` and ``hex`` 3 x 3 (4 x 4
   on request), and a plain-Python memoised minimax asked for every position of Hex 3 x 3,
   Notakto 4 x 4, Notakto 3 x 3 on two boards and Hex 4 x 4 after four stones, each against
   ``solve`` on the same universe, with every value compared.
"""

from __future__ import annotations

import functools
import resource
import sys

import numpy as np

from games import make_game
from solvers import build_graph, solve
from solvers.retrograde import outcome_ascending, terminal_values
from solvers.search import search
from timing import arguments, best_of, fmt_time, heading, load_average, machine_line


# -- helpers -------------------------------------------------------------------------------
def say(label: str, text: str) -> None:
    print(f"   {label:<28}: {text}", flush=True)


def peak_memory() -> str:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return f"{kb / 1024 ** 2:.2f} GB"


def grid(values, n: int) -> str:
    marks = {1: "W", -1: "L", 0: "D"}
    return "\n".join("   " + " " * r + " ".join(marks[int(v)] for v in values[r * n:(r + 1) * n]) for r in range(n))


# -- 1. Hex n x n by retrograde --------------------------------------------------------------
def bench_hex_retrograde(n: int, repeats: int) -> dict:
    heading(f"1. Hex {n} x {n}: exact retrograde over every position reachable from the empty board")
    solve(make_game("hex", n=2))  # load numba's cache
    t_total, sol = best_of(lambda: solve(make_game("hex", n=n)), repeats)  # a fresh game: no cached universe
    game = make_game("hex", n=n)
    t_universe, universe = best_of(lambda: make_game("hex", n=n).universe(), 1)
    t_graph, graph = best_of(lambda: build_graph(game, universe), 1)
    terminal = terminal_values(game, universe, graph)
    t_pass, outcome = best_of(lambda: outcome_ascending(graph.indptr, graph.targets[:, 0], terminal), 1)
    assert np.array_equal(outcome, sol.outcome_table)
    start = int(sol.outcome([game.start])[0])
    openings = -sol.outcome([[1 << c, 0] for c in range(n * n)])
    say("solve(hex n=%d)" % n, f"{fmt_time(t_total)}  (best of {repeats})")
    say("  universe / graph / pass", f"{fmt_time(t_universe)} / {fmt_time(t_graph)} / {fmt_time(t_pass)}")
    say("positions / moves", f"{universe.size:,} / {graph.edges:,}")
    say("wins / losses", f"{int((sol.outcome_table == 1).sum()):,} / {int((sol.outcome_table == -1).sum()):,}")
    say("empty board", f"{start:+d} for the first player")
    say("peak memory (process)", peak_memory())
    print("   openings (W wins for the first player):\n" + grid(openings, n))
    return {"n": n, "t": t_total, "positions": universe.size, "edges": graph.edges, "start": start}


# -- 2. Notakto ------------------------------------------------------------------------------
def bench_notakto(n: int, repeats: int, five: bool) -> dict:
    heading(f"2. Notakto {n} x {n} (retrograde and search); 3 x 3 on 1, 2, 3 boards (search)")
    game = make_game("notakto", n=n)
    solve(make_game("notakto", n=2))
    t_solve, sol = best_of(lambda: solve(make_game("notakto", n=n)), repeats)
    start = int(sol.outcome([game.start])[0])
    t_search, result = best_of(lambda: search(game), repeats)
    assert result.value == start
    for option, v in result.moves.items():
        assert v == -int(sol.outcome([option])[0])
    say(f"solve(notakto n={n})", f"{fmt_time(t_solve)}  ({sol.universe.size:,} positions), start {start:+d}")
    say("search (start + its moves)", f"{fmt_time(t_search)}  ({result.nodes:,} positions expanded)")
    out = {"n": n, "t_solve": t_solve, "t_search": t_search, "start": start, "boards": {}}
    for boards in (1, 2, 3):
        t, r = best_of(lambda: search(make_game("notakto", n=3, boards=boards), moves=False), repeats)
        say(f"3 x 3, {boards} board(s)", f"{r.value:+d} for the first player, {fmt_time(t)}, {r.nodes:,} positions")
        out["boards"][boards] = (r.value, t)
    if five:
        r = search(make_game("notakto", n=5), moves=False, table_bits=24)
        say("5 x 5 (search)", f"{r.value:+d} for the first player, {fmt_time(r.seconds)}, {r.nodes:,} positions")
        out["five"] = (r.value, r.seconds, r.nodes)
    return out


# -- 3. Hex 5 x 5 openings by search -----------------------------------------------------------
def bench_hex_openings(n: int) -> dict:
    heading(f"3. Hex {n} x {n}: every opening by proof-number search")
    search(make_game("hex", n=3))
    result = search(make_game("hex", n=n))
    values = [result.moves[(1 << c, 0)] for c in range(n * n)]
    say("search(hex n=%d)" % n, f"{fmt_time(result.seconds)}  ({result.nodes:,} positions expanded)")
    say("empty board", f"{result.value:+d} for the first player; {values.count(1)} winning openings of {n * n}")
    print("   openings (W wins for the first player):\n" + grid(values, n))
    return {"n": n, "t": result.seconds, "nodes": result.nodes, "wins": values.count(1), "start": result.value}


# -- 4. baselines ------------------------------------------------------------------------------
def python_notakto(n: int, k: int):
    lines = [frozenset(m) for m in _lines(n, k)]

    def dead(board):
        return any(line <= board for line in lines)

    @functools.cache
    def value(boards: tuple) -> int:
        live = [q for q, b in enumerate(boards) if not dead(b)]
        if not live:
            return 1  # the previous player killed the last board
        for q in live:
            for c in range(n * n):
                if c not in boards[q] and value(boards[:q] + (boards[q] | {c},) + boards[q + 1:]) == -1:
                    return 1
        return -1

    return value


def _lines(n: int, k: int):
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr) * n + c + i * dc for i in range(k) if 0 <= r + i * dr < n and 0 <= c + i * dc < n]
                if len(cells) == k:
                    yield cells


def python_hex(n: int):
    def joined(stones, vertical):
        frontier = [s for s in stones if (s // n if vertical else s % n) == 0]
        seen = set(frontier)
        while frontier:
            cell = frontier.pop()
            if (cell // n if vertical else cell % n) == n - 1:
                return True
            r, c = divmod(cell, n)
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)):
                nxt = (r + dr) * n + c + dc
                if 0 <= r + dr < n and 0 <= c + dc < n and nxt in stones and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return False

    @functools.cache
    def value(first: frozenset, second: frozenset) -> int:
        if joined(first, True) or joined(second, False):
            return -1
        mover_first = len(first) == len(second)
        for c in range(n * n):
            if c in first or c in second:
                continue
            child = value(first | {c}, second) if mover_first else value(first, second | {c})
            if child == -1:
                return 1
        return -1

    return value


def cells(b: int) -> frozenset:
    return frozenset(i for i in range(b.bit_length()) if b >> i & 1)


def bench_python(game_name: str, params: dict, start=None) -> dict:
    """``solve`` against a plain-Python memoised minimax asked for every position of the same universe."""
    game = make_game(game_name, **params)
    solve(make_game(game_name, **{**params, "n": 2}))
    starts = None if start is None else [start]
    t_ours, sol = best_of(lambda: solve(make_game(game_name, **params), starts=starts), 3)
    positions = sol.universe.positions()

    def run():
        if game_name == "hex":
            value = python_hex(game.n)
            return [value(cells(int(a)), cells(int(b))) for a, b in positions]
        value = python_notakto(game.n, game.k)
        return [value(tuple(cells(int(x)) for x in p)) for p in positions]

    t_py, values = best_of(run, 1)
    assert np.array_equal(np.array(values), sol.outcome_table), f"plain Python disagrees on {game!r}"
    label = f"{game!r}" + ("" if start is None else f" from {start}")
    say(label, f"solve {fmt_time(t_ours)}, memoised Python over all {len(positions):,} positions "
               f"{fmt_time(t_py)}  ->  {t_py / t_ours:,.0f}x")
    return {"game": label, "t_ours": t_ours, "t_py": t_py, "ratio": t_py / t_ours}


def _parse_openspiel_board(key: str, n: int) -> tuple[int, int]:
    marks = [ch for ch in key if ch in "xo."][: n * n]
    first = sum(1 << i for i, ch in enumerate(marks) if ch == "x")
    second = sum(1 << i for i, ch in enumerate(marks) if ch == "o")
    return first, second


def bench_openspiel(spiel_name: str, params: dict, game_name: str, our_params: dict, n: int) -> dict | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms.minimax_solver import MinimaxSolver
    except ImportError:
        say(spiel_name, "OpenSpiel is not installed: skipped")
        return None
    spiel_game = pyspiel.load_game(spiel_name, params)
    t_os, table = best_of(lambda: MinimaxSolver(str(spiel_game)).solve(), 1)
    t_ours, sol = best_of(lambda: solve(make_game(game_name, **our_params)), 3)
    positions = np.array([_parse_openspiel_board(key, n) for key in table], dtype=np.int64)
    values = np.rint([entry.value for entry in table.values()]).astype(np.int64)
    assert np.array_equal(sol.outcome(positions), values), f"OpenSpiel disagrees on {spiel_name}"
    say(f"OpenSpiel {spiel_name}" + (f" {n}x{n}" if spiel_name == "hex" else ""), f"MinimaxSolver {fmt_time(t_os)} ({len(table):,} states), solve "
                                  f"{fmt_time(t_ours)} ({sol.universe.size:,} positions)  ->  {t_os / t_ours:,.0f}x")
    label = f"OpenSpiel {spiel_name}" + (f" {n}x{n}" if spiel_name == "hex" else "")
    return {"game": label, "t_os": t_os, "t_ours": t_ours, "ratio": t_os / t_ours}


def bench_baselines(quick: bool, openspiel_hex4: bool) -> list:
    heading("4. Baselines in this process: OpenSpiel's memoised MinimaxSolver and plain-Python memoised minimax")
    rows = [bench_openspiel("tic_tac_toe", {}, "tictactoe", {}, 3),
            bench_openspiel("hex", {"board_size": 3}, "hex", {"n": 3}, 3),
            bench_python("hex", {"n": 3}),
            bench_python("notakto", {"n": 3 if quick else 4})]
    if not quick:
        # Hex 4 x 4 after four stones (a, b at opposite corners of the centre): 125,536 positions
        rows.append(bench_python("hex", {"n": 4}, start=((1 << 0) | (1 << 5), (1 << 10) | (1 << 15))))
        rows.append(bench_python("notakto", {"n": 3, "boards": 2}))
    if openspiel_hex4:
        rows.append(bench_openspiel("hex", {"board_size": 4}, "hex", {"n": 4}, 4))
    return [r for r in rows if r is not None]


def main(argv=None) -> int:
    args = arguments(__doc__.splitlines()[0], "small sizes: a smoke run of every part", 2, argv,
                     [("--notakto5", "also Notakto 5 x 5 from the start (about 40 s)"),
                      ("--openspiel-hex4", "also OpenSpiel's MinimaxSolver on hex 4 x 4 (about 3 minutes on a quiet "
                                           "2-core machine)")])
    load = load_average()
    print(machine_line(args.quick))
    hex_n, open_n, notakto_n = (3, 4, 3) if args.quick else (4, 5, 4)
    one = bench_hex_retrograde(hex_n, args.repeats)
    two = bench_notakto(notakto_n, args.repeats, args.notakto5)
    three = bench_hex_openings(open_n)
    four = bench_baselines(args.quick, args.openspiel_hex4)
    heading("Summary")
    say(f"Hex {one['n']}x{one['n']} solve", f"{fmt_time(one['t'])}, {one['positions']:,} positions, "
                                           f"{one['edges']:,} moves, start {one['start']:+d}")
    say(f"Notakto {two['n']}x{two['n']}", f"solve {fmt_time(two['t_solve'])}, search {fmt_time(two['t_search'])}, "
                                         f"start {two['start']:+d}")
    say("Notakto 3x3 boards 1/2/3", " / ".join(f"{v:+d}" for v, _ in two["boards"].values()))
    say(f"Hex {three['n']}x{three['n']} openings", f"{fmt_time(three['t'])}, {three['nodes']:,} positions, "
                                                  f"{three['wins']} winning")
    for row in four:
        say(f"ratio vs {row.get('game')}", f"{row['ratio']:,.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
