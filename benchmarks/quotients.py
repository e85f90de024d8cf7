"""Misère quotients of octal games: Plambeck and Siegel's construction beside the plain construction.

Run by hand from the repository root (nothing here is asserted on time)::

    python benchmarks/quotients.py            # full sizes: several minutes on 2 cores
    python benchmarks/quotients.py --quick    # tiny sizes: a smoke run

For each octal game: the time ``discover_quotient`` takes (heap by heap until the periodicity theorem proves
the heap-to-element period, or the heaps or seconds run out), the quotient's order and P-portion, and beside
them the published order and P-portion with a match column ("--": no published figure was read in a source;
see ``PUBLISHED``).  Two theorems every misère quotient obeys are checked on each: its order is even (Plambeck
and Siegel, "Misère quotients for impartial games"), and a finite quotient with a P-portion of 2 elements has
order 2^n + 2 or 2^n + 4 (Siegel, "The structure and classification of misère quotients").  Independent of the
construction, the brute-force columns (``discover.quotients.brute``): the rule's prediction on every sum of
heaps of at most T tokens against the sum solver, and the sums of at most A tokens classed by their outcomes
beside every sum of at most A tokens (a lower bound on the order, from the solver alone; an element of the
quotient split across two classes would be a false quotient, an ``AssertionError``).  Last, the plain
construction (``plain_quotient``: every sum of up to two heaps of size <= N classed by its outcomes beside
every other, read from the sum solver) and its time; its class count is a lower bound on the order of the
quotient of those heaps.  Agreement check: the plain classes never split an element of the proved quotient
(an ``AssertionError`` otherwise).
"""

from __future__ import annotations

import os
import sys
import time

# Run as a script, this file's folder is first on sys.path and benchmarks/discover.py would shadow the package.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

from discover.quotients import (HeapComponents, check_token_sums, discover_quotient, outcome_classes,  # noqa: E402
                                plain_quotient, quotient_rule)
from games import make_game  # noqa: E402

sys.path.append(_HERE)  # the timing helpers, once the packages are imported
from timing import arguments, fmt_time, heading, machine_line  # noqa: E402

CODES = ("0.75", "0.77", "0.07", "0.31", "0.52", "0.71", "0.35", "0.53", "0.15")
# code -> (order, P-portion size, "source, table"): only figures read in a source.  Searched (this toolkit's search
# tool, every corpus, and the repositories it stores): Plambeck and Siegel, "Misère quotients for impartial games";
# Plambeck, "Taming the wild in impartial combinatorial games" and "Advances in losing"; Siegel, "Misère games and
# misère quotients"; CGSuite's sources (its documentation says it has no misère quotients) and MisereSolver.  The
# stored copies of the papers hold only their opening pages, not their tables, so no figure could be read: the
# table stays empty rather than hold a remembered one.
PUBLISHED: dict[str, tuple[int, int, str]] = {}
FULL = {"heaps": 200, "seconds": 240.0, "plain": 8, "tokens": 24, "classes": 10}
QUICK = {"heaps": 8, "seconds": 10.0, "plain": 5, "tokens": 8, "classes": 4}


def theory(order: int, p: int) -> str:
    """"ok" when the order is even and, for a P-portion of 2, of the form 2^n + 2 or 2^n + 4; else what fails."""
    if order % 2:
        return "odd order"
    if p == 2 and not any(order - d > 0 and (order - d) & (order - d - 1) == 0 for d in (2, 4)):
        return "not 2^n+2/4"
    return "ok"


def match(code: str, order: int, p: int) -> tuple[str, str]:
    """The published figure of ``code`` and whether ours matches it ("--" when none was read)."""
    published = PUBLISHED.get(code)
    if published is None:
        return "--", "--"
    return f"{published[0]}/{published[1]}", "yes" if published[:2] == (order, p) else "NO"


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
    start = time.perf_counter()
    most = min(sizes["tokens"], found.heaps)  # no heap beyond those computed
    tokens = check_token_sums(rule, components.solver, most)
    classes = outcome_classes(rule, components.solver, min(sizes["classes"], most), sizes["classes"])
    brute_seconds = time.perf_counter() - start
    assert tokens.passed, f"{code}: {tokens.line()}"
    assert classes.passed, f"{code}: {classes.line()}"
    return {"code": code, "order": rule.monoid.order, "p": int(rule.monoid.p_portion.sum()), "heaps": found.heaps,
            "status": found.status, "period": rule.period, "seconds": seconds, "plain_order": plain.order,
            "small_order": small.monoid.order, "plain_heaps": plain_heaps, "plain_seconds": plain.seconds,
            "stopped": found.stopped, "tokens": tokens.sums, "most": most, "classes": classes.classes, "class_elements": classes.elements,
            "brute_seconds": brute_seconds}


def main(argv=None) -> None:
    args = arguments(__doc__.splitlines()[0], "tiny sizes: a smoke run", 1, argv)
    sizes = QUICK if args.quick else FULL
    print(machine_line(args.quick))
    heading(f"misère quotients of octal games (heaps <= {sizes['heaps']}, {sizes['seconds']:g} s each) beside the "
            f"plain construction (sums of up to 2 heaps <= {sizes['plain']})")
    print(f"   {'code':<6} {'|Q|':>5} {'|P|':>4} {'published':>10} {'match':>5} {'theory':>6} {'heaps':>6} {'status':>9} "
          f"{'period':>14} {'time':>9} | {'brute T: n':>11} {'classes':>8} {'time':>9} | {'plain N':>7} {'plain':>6} "
          f"{'proved':>6} {'time':>9}", flush=True)
    for code in CODES:
        r = run(code, sizes)
        pub, same = match(code, r["order"], r["p"])
        period = f"{r['period'].period} from {r['period'].preperiod}" if r["period"] is not None else "none"
        print(f"   {code:<6} {r['order']:>5} {r['p']:>4} {pub:>10} {same:>5} {theory(r['order'], r['p']):>6} "
              f"{r['heaps']:>6} {r['status']:>9} {period:>14} {fmt_time(r['seconds']):>9} | {str(r['most']) + ': ' + format(r['tokens'], ','):>11} "
              f"{r['classes']:>3}/{r['class_elements']:<4} {fmt_time(r['brute_seconds']):>9} | {r['plain_heaps']:>7} "
              f"{r['plain_order']:>6} {r['small_order']:>6} {fmt_time(r['plain_seconds']):>9}", flush=True)
        if not r["stopped"].startswith("a proved") and not args.quick:
            print(f"          stopped at {r['stopped']}", flush=True)
    print(f"   (|Q|, |P|: the quotient of the heaps computed; published: order/P-portion read in a source, '--' none "
          f"read; theory: order even, and 2^n+2 or 2^n+4 when |P| = 2; brute T: n: every sum of at most T tokens "
          f"(n sums; T = {sizes['tokens']}, or the heaps computed if fewer) agreed with the sum solver; classes: sums of at most {sizes['classes']} tokens classed by their "
          f"outcomes beside every sum of at most {sizes['classes']} tokens / the elements the quotient gives them; "
          "'proved' beside 'plain': the order of the proved quotient of the plain construction's heaps, which the "
          "plain class count bounds from below)")

if __name__ == "__main__":
    main()
