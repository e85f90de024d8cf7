"""Speed of the take-and-break engine, beside the plain mex kernel timed in the same process.

Run by hand from the repository root (nothing here is asserted on time; ratios are printed to be
quoted in notes)::

    python benchmarks/octal.py                    # full sizes: a few minutes on 2 cores
    python benchmarks/octal.py --quick            # tiny sizes: a smoke run of both parts
    python benchmarks/octal.py --full-baseline    # also time the plain kernel over all 10^6 heaps

1. Heaps per second at 10^5 and 10^6 heaps on sparse games (0.16, 0.354) and a denser one (0.6):
   ``sparse_grundy_values`` (the rare/common split) against ``plain_grundy_values`` (the mex over
   every option, O(n) per heap), both compiled with numba.  At 10^5 both compute every heap.  At
   10^6 the plain kernel computes the last heaps only, after the engine's values for the heaps
   before them: its time per heap grows linearly with n, so its whole run is about N / 2 times its
   time per heap at N (printed as "estimated"; ``--full-baseline`` times the whole run instead).
2. The time to prove each solved game of the published table (``grundy_sequence`` with its
   defaults), its pre-period and period checked against the table; the short-period games of
   the table are timed together.

Every value both sides computed is compared (an ``AssertionError`` if one differs).
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

import numpy as np

from games import make_game
from solvers.take_and_break import grundy_sequence, plain_grundy_values, sparse_grundy_values
from timing import arguments, best_of, fmt_time, heading, load_average, machine_line

TABLE = Path(__file__).resolve().parent.parent / "tests" / "solvers" / "published_octal_games.csv"
FULL = {"sizes": (10**5, 10**6), "codes": ("0.16", "0.354", "0.6"), "window": 2000, "prove_below": None}
QUICK = {"sizes": (10**4, 3 * 10**4), "codes": ("0.16",), "window": 500, "prove_below": 10**4}


def say(label: str, text: str) -> None:
    print(f"   {label:<30}: {text}", flush=True)


# -- 1. heaps per second against the plain kernel ---------------------------------------------
def bench_rate(code: str, heaps: int, window: int, whole: bool, repeats: int) -> dict:
    """Engine and plain kernel on ``heaps`` heaps; the plain kernel on the last ``window`` only unless ``whole``."""
    game = make_game("octal", code=code)
    t_ours, ours = best_of(lambda: sparse_grundy_values(game, heaps), repeats)
    if whole:
        t_plain, plain = best_of(lambda: plain_grundy_values(game, heaps), 1)
        assert np.array_equal(plain, ours), f"{code}: the engine and the plain kernel differ"
        per_heap_at_end = None
    else:
        start = heaps - window
        t_window, plain = best_of(lambda: plain_grundy_values(game, heaps, known=ours[:start]), 1)
        assert np.array_equal(plain[start:], ours[start:]), f"{code}: the engine and the plain kernel differ"
        per_heap_at_end = t_window / window
        t_plain = per_heap_at_end * heaps / 2
    ratio = t_plain / t_ours
    say(f"{code}, {heaps:,} heaps, engine", f"{fmt_time(t_ours)} (best of {repeats}), {heaps / t_ours:,.0f} heaps/s")
    baseline = "measured" if whole else f"estimated from the last {window:,} heaps"
    say(f"{code}, {heaps:,} heaps, plain", f"{fmt_time(t_plain)} ({baseline}), {heaps / t_plain:,.0f} heaps/s"
        f"  ->  {ratio:,.0f}x")
    if per_heap_at_end:
        say("  at the last heaps", f"plain {1 / per_heap_at_end:,.0f} heaps/s; agree on the last {window:,} heaps")
    return {"code": code, "heaps": heaps, "t_ours": t_ours, "t_plain": t_plain, "measured": whole, "ratio": ratio}


# -- 2. time to prove the published games -----------------------------------------------------
def published() -> list[tuple[str, int, int, str]]:
    """(code, pre-period, period, table) for every row of the published table."""
    with TABLE.open() as lines:
        rows = csv.DictReader(line for line in lines if not line.startswith("#"))
        return [(row["code"], int(row["preperiod"]), int(row["period"]), row["table"]) for row in rows]


def prove(code: str, preperiod: int, period: int) -> dict:
    began = time.perf_counter()
    result = grundy_sequence(make_game("octal", code=code))
    seconds = time.perf_counter() - began
    assert result.proved and (result.preperiod, result.period) == (preperiod, period), (code, result.statement)
    return {"code": code, "preperiod": preperiod, "period": period, "heaps": result.heaps, "seconds": seconds}


def bench_proofs(prove_below: int | None) -> list[dict]:
    heading("2. Time to prove each solved game of the published table (grundy_sequence, default budget)")
    rows = published()
    proofs = []
    for code, n0, p, table in rows:
        if table == "solved" and (prove_below is None or n0 < prove_below):
            proofs.append(prove(code, n0, p))
            entry = proofs[-1]
            say(code, f"period {p:,} from n = {n0:,} proved after {entry['heaps']:,} heaps in "
                f"{fmt_time(entry['seconds'])}")
    short = [(code, n0, p) for code, n0, p, table in rows if table == "trivial"]
    began = time.perf_counter()
    for code, n0, p in short:
        prove(code, n0, p)
    seconds = time.perf_counter() - began
    say(f"{len(short)} short-period games", f"all proved with the published pre-period and period in "
        f"{fmt_time(seconds)} together")
    proofs.append({"code": f"{len(short)} short-period games", "preperiod": None, "period": None, "heaps": None,
                   "seconds": seconds})
    return proofs


def main(argv=None) -> int:
    args = arguments(__doc__.splitlines()[0], "tiny sizes: a smoke run of both parts", 2, argv,
                     [("--full-baseline", "time the plain kernel over every heap")])
    sizes = QUICK if args.quick else FULL
    print(machine_line(args.quick))
    began = time.perf_counter()
    sparse_grundy_values(make_game("octal", code="0.16"), 2000)  # compile outside the timings
    plain_grundy_values(make_game("octal", code="0.16"), 2000)
    grundy_sequence(make_game("octal", code="0.77"))
    heading(f"1. Heaps per second: the engine against the plain mex kernel, at {sizes['sizes']} heaps")
    rates = [bench_rate(code, heaps, sizes["window"], args.full_baseline or heaps == sizes["sizes"][0], args.repeats)
             for code in sizes["codes"] for heaps in sizes["sizes"]]
    proofs = bench_proofs(sizes["prove_below"])

    heading(f"Summary (whole run {time.perf_counter() - began:.0f} s, load average now {load_average()})")
    table = [("game", "heaps", "engine", "plain kernel", "ratio")]
    for r in rates:
        plain = f"{fmt_time(r['t_plain'])}" + ("" if r["measured"] else " (estimated)")
        ours = f"{r['heaps'] / r['t_ours']:,.0f} heaps/s ({fmt_time(r['t_ours'])})"
        table.append((r["code"], f"{r['heaps']:,}", ours, f"{r['heaps'] / r['t_plain']:,.0f} heaps/s ({plain})",
                      f"{r['ratio']:,.0f}x"))
    table.append(("game", "pre-period", "period", "heaps to the proof", "time to prove"))
    for p in proofs:
        table.append((p["code"], "" if p["preperiod"] is None else f"{p['preperiod']:,}",
                      "" if p["period"] is None else f"{p['period']:,}",
                      "" if p["heaps"] is None else f"{p['heaps']:,}", fmt_time(p["seconds"])))
    widths = [max(len(row[i]) for row in table) for i in range(5)]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
