"""Misère quotients of octal games: Plambeck and Siegel's construction beside the plain construction.

Run by hand from the repository root (nothing here is asserted on time)::

    python benchmarks/quotients.py            # full sizes: several minutes on 2 cores
    python benchmarks/quotients.py --quick    # tiny sizes: a smoke run

For each octal game: the time ``discover_quotient`` takes (heap by heap until the periodicity theorem proves
the heap-to-element period, or the heaps or seconds run out), the quotient's order and P-portion, and the
published order and P-portion where one was found (Plambeck and Siegel, "Misère quotients for impartial
games"; "--" where the benchmark's author found no published figure).  Beside it, in the same run, the plain
construction (``plain_quotient``: every sum of up to two heaps of size <= N classed by its outcomes beside every
other, read from the sum solver) and its time; its class count is a lower bound on the order of the quotient of
those heaps.  Agreement check: the plain classes never split an element of the proved quotient (an
``AssertionError`` otherwise).
"""

from __future__ import annotations

import os
import sys
import time

# Run as a script, this file's folder is first on sys.path and benchmarks/discover.py would shadow the package.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

from discover.quotients import HeapComponents, discover_quotient, plain_quotient, quotient_rule  # noqa: E402
from games import make_game  # noqa: E402

sys.path.append(_HERE)  # the timing helpers, once the packages are imported
from timing import arguments, fmt_time, heading, machine_line  # noqa: E402

CODES = ("0.75", "0.77", "0.07", "0.31", "0.52", "0.71", "0.35", "0.53", "0.15")
PUBLISHED: dict[str, tuple[int, int]] = {}  # code -> (order, P-portion size), only figures read in a source
FULL = {"heaps": 200, "seconds": 60.0, "plain": 8}
QUICK = {"heaps": 8, "seconds": 10.0, "plain": 5}


def run(code: str, sizes: dict) -> dict:
    game = make_game("octal", code=code, misere=True)
    start = time.perf_counter()
    found = discover_quotient(game, heaps=sizes["heaps"], seconds=sizes["seconds"], checks=())
    seconds = time.perf_counter() - start
    plain_heaps = min(sizes["plain"], found.heaps)
    components = HeapComponents(game, heaps=plain_heaps)
    plain = plain_quotient(components, components.ids(), 2)
    small = quotient_rule(components)
    assert plain.consistent_with(small), f"{code}: the plain classes split an element of the proved quotient"
    rule = found.rule
    return {"code": code, "order": rule.monoid.order, "p": int(rule.monoid.p_portion.sum()), "heaps": found.heaps,
            "status": found.status, "period": rule.period, "seconds": seconds, "plain_order": plain.order,
            "small_order": small.monoid.order, "plain_heaps": plain_heaps, "plain_seconds": plain.seconds,
            "stopped": found.stopped}


def main(argv=None) -> None:
    args = arguments(__doc__.splitlines()[0], "tiny sizes: a smoke run", 1, argv)
    sizes = QUICK if args.quick else FULL
    print(machine_line(args.quick))
    heading(f"misère quotients of octal games (heaps <= {sizes['heaps']}, {sizes['seconds']:g} s each) beside the "
            f"plain construction (sums of up to 2 heaps <= {sizes['plain']})")
    print(f"   {'code':<6} {'|Q|':>5} {'|P|':>4} {'published':>10} {'heaps':>6} {'status':>9} {'period':>14} "
          f"{'time':>9} | {'plain N':>7} {'plain':>6} {'proved':>6} {'time':>9}", flush=True)
    for code in CODES:
        r = run(code, sizes)
        published = PUBLISHED.get(code)
        pub = f"{published[0]}/{published[1]}" if published else "--"
        period = f"{r['period'].period} from {r['period'].preperiod}" if r["period"] is not None else "none"
        print(f"   {code:<6} {r['order']:>5} {r['p']:>4} {pub:>10} {r['heaps']:>6} {r['status']:>9} {period:>14} "
              f"{fmt_time(r['seconds']):>9} | {r['plain_heaps']:>7} {r['plain_order']:>6} {r['small_order']:>6} "
              f"{fmt_time(r['plain_seconds']):>9}", flush=True)
        if not r["stopped"].startswith("a proved") and not args.quick:
            print(f"          stopped at {r['stopped']}", flush=True)
    print("   (|Q|, |P|: the quotient of the heaps computed; 'proved' beside 'plain': the order of the proved quotient "
          "of the plain construction's heaps, which the plain class count bounds from below)")


if __name__ == "__main__":
    main()
