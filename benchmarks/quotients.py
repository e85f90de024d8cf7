"""Misère quotients of octal games beside MisereSolver's: time, heap reached and the quotient, with the ratios.

Run by hand from the repository root (nothing here is asserted on time)::

    python benchmarks/quotients.py                 # partial codes get 240 s each: about 17 minutes on 2 cores
    python benchmarks/quotients.py --seconds 20    # a dry run: partial codes get 20 s each
    python benchmarks/quotients.py --quick         # the same as --seconds 20

Every game of the reference file ``shared/anchors/misere-solver.md`` (MisereSolver, Siegel's program behind
Plambeck and Siegel, "Misère quotients for impartial games", run on a 2-core machine of this project's kind while
other work loaded it; its figures are quoted in ``FINAL`` and ``PARTIAL`` below).  For a final quotient: the
record's ``seconds`` of ``discover_quotient`` (heap by heap until the periodicity theorem proves the period),
the heap where it stopped, order, P-portion, period and pre-period, beside MisereSolver's, and the ratio of the
seconds (the aim: at most 2).  For a partial code: the heap reached within ``--seconds`` and the quotient there,
beside MisereSolver's heap within its 240 s and its growth (the aim: a heap at least as far); ``growth`` says
whether the two quotients had the same order at every heap both computed.  ``brute T``: the rule against the
misère sum solver on every sum of heaps of at most T tokens (of the heaps computed, for a partial code:
``discover.quotients.brute``), outside the timing.  ``kernels``: what making the numba kernels ready cost before
the record's ``seconds`` (``discover.quotients.kernels``: read from numba's cache, or compiled), the first game's
in the process, so 0.31's.  The load average is printed with every row: other work on the machine slows every
figure.
"""

from __future__ import annotations

import argparse
import os
import sys

# Run as a script, this file's folder is first on sys.path and benchmarks/discover.py would shadow the package.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

from discover.quotients import HeapComponents, check_token_sums, discover_quotient  # noqa: E402
from games import make_game  # noqa: E402

sys.path.append(_HERE)  # the timing helpers, once the packages are imported
from timing import heading, load_average, machine_line, print_table  # noqa: E402

SOURCE = "MisereSolver (shared/anchors/misere-solver.md)"
# code -> (|Q|, |P|, period, pre-period, heap where it stopped, seconds): MisereSolver's final quotients
FINAL = {"0.31": (6, 2, 2, 3, 13, 0.14), "0.52": (6, 2, 4, 6, 34, 0.35), "0.53": (16, 3, 9, 21, 94, 0.52),
         "0.71": (36, 9, 6, 3, 31, 0.44), "0.75": (8, 2, 2, 8, 34, 0.42), "0.77": (40, 9, 12, 71, 253, 0.73),
         "0.15": (42, 12, 10, 66, 232, 1.63)}
# code -> (last heap in its 240 s, {heap: |Q|} where the quotient grew): MisereSolver's partial quotients
PARTIAL = {
    "0.07": (33, {2: 2, 4: 6, 10: 12, 14: 24, 25: 144, 27: 176, 30: 360, 31: 520, 32: 552, 33: 638}),
    "0.137": (32, {1: 2, 3: 6, 9: 12, 13: 24, 24: 144, 26: 176, 29: 360, 30: 520, 31: 552, 32: 638}),
    "0.35": (18, {1: 2, 2: 6, 4: 14, 6: 38, 7: 70, 8: 106, 10: 246, 11: 426, 12: 774, 13: 1174, 14: 1382,
                  15: 1650, 16: 1714, 17: 1826, 18: 2050}),
    "0.16": (17, {1: 2, 5: 6, 8: 10, 12: 36, 13: 44, 14: 88, 15: 124, 16: 154, 17: 434}),
}
HEAPS = 400  # heaps at most (every final quotient proves its period well before)
FINAL_SECONDS = 120.0  # budget of a final quotient (the toolkit's default)
TOKENS = {"full": 24, "quick": 12}  # the brute-force check's sums of at most T tokens


def _run(code: str, seconds: float, tokens: int):
    game = make_game("octal", code=code, misere=True)
    before = load_average().split()[0]
    found = discover_quotient(game, heaps=HEAPS, seconds=seconds, checks=())
    load = f"{before}-{load_average().split()[0]}"
    largest = None if found.status == "proved" else found.heaps  # a partial quotient decides its heaps only
    check = check_token_sums(found.rule, HeapComponents(game, heaps=found.heaps).solver, tokens, largest)
    kernels = found.kernels
    loaded = f"{kernels.seconds:.2f} ({kernels.compiled} compiled)" if kernels.compiled else f"{kernels.seconds:.2f}"
    return found, load, f"{tokens}: {'ok' if check.passed else 'REFUTED'} ({check.sums:,})", loaded


def _same_growth(found, growth: dict) -> str:
    """"yes" when the orders agree at every heap both computed where either grew, else the first heap that differs."""
    ours = {heap: order for heap, order in found.growth}
    for heap in sorted(set(ours) | set(growth)):
        if heap > found.heaps or heap > max(growth):
            break
        if ours.get(heap) != growth.get(heap):
            return f"NO at {heap}"
    return "yes"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=240.0, help="budget of each partial code (default 240)")
    parser.add_argument("--quick", action="store_true", help="a dry run: the same as --seconds 20")
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")
    seconds = 20.0 if args.quick else args.seconds
    tokens = TOKENS["quick" if seconds < 240 else "full"]
    print(machine_line(seconds < 240))

    heading(f"final quotients beside {SOURCE}: the record's seconds, aim ratio <= 2")
    rows = [["code", "|Q|/|P|", "period", "ours: heap", "seconds", "MS: |Q|/|P|", "period", "heap", "seconds",
             "same", "ratio", "brute T (sums)", "kernels", "load"]]
    for code, (order, p, period, pre, heap, ms) in FINAL.items():
        found, load, brute, kernels = _run(code, FINAL_SECONDS, tokens)
        m, per = found.rule.monoid, found.rule.period
        ours = (m.order, int(m.p_portion.sum()), per.period if per else None, per.preperiod if per else None)
        rows.append([code, f"{ours[0]}/{ours[1]}", f"{ours[2]} from {ours[3]}", f"{found.heaps} ({found.status})",
                     f"{found.seconds:.2f}", f"{order}/{p}", f"{period} from {pre}", str(heap), f"{ms:.2f}",
                     "yes" if ours == (order, p, period, pre) else "NO", f"{found.seconds / ms:.2f}", brute,
                     kernels, load])
        print(f"   {code}: {found.seconds:.2f} s", flush=True)
    print_table(rows)

    heading(f"partial quotients beside {SOURCE}: {seconds:g} s each (MisereSolver's: 240 s), aim heap >= its heap")
    rows = [["code", "ours: heap", "|Q|/|P|", "seconds", "stopped", "MS: heap", "|Q| there", "growth", "heaps ratio",
             "brute T (sums)", "load"]]
    for code, (heap, growth) in PARTIAL.items():
        found, load, brute, _ = _run(code, seconds, tokens)
        m = found.rule.monoid
        rows.append([code, str(found.heaps), f"{m.order}/{int(m.p_portion.sum())}", f"{found.seconds:.1f}",
                     found.stopped.split(",")[0], str(heap), str(growth[max(h for h in growth if h <= heap)]),
                     _same_growth(found, growth), f"{found.heaps / heap:.2f}", brute, load])
        print(f"   {code}: heap {found.heaps} in {found.seconds:.1f} s", flush=True)
    print_table(rows)
    print("   (ratio: our seconds over MisereSolver's; heaps ratio: our heap over its heap; load: the 1-minute load "
          "average before-after the run; brute T: every sum of heaps of at most T tokens, of the heaps computed for a "
          "partial code, against the misère sum solver; kernels: seconds to make numba's kernels ready before the "
          "record's seconds)")


if __name__ == "__main__":
    main()
