"""Misère quotients against MisereSolver's figures (Siegel's program behind Plambeck and Siegel, "Misère quotients
for impartial games"), quoted from ``shared/anchors/misere-solver.md``: the seven final quotients (order,
P-portion, heap-to-element period and pre-period) and the growth of the partial ones, heap by heap."""

from __future__ import annotations

import pytest

from discover.quotients import discover_quotient
from games import make_game

# code: (|Q|, |P|, period, pre-period), MisereSolver's final quotients (its periodicity test ended the run)
FINAL = {"0.31": (6, 2, 2, 3), "0.52": (6, 2, 4, 6), "0.53": (16, 3, 9, 21), "0.71": (36, 9, 6, 3),
         "0.75": (8, 2, 2, 8), "0.77": (40, 9, 12, 71), "0.15": (42, 12, 10, 66)}
# code: {heap: (|Q|, |P|)} at every heap where the quotient of heaps 1..heap grew, MisereSolver's partial quotients
GROWTH = {
    "0.07": {2: (2, 1), 4: (6, 2), 10: (12, 3), 14: (24, 5), 25: (144, 23), 27: (176, 28), 30: (360, 65),
             31: (520, 89), 32: (552, 93), 33: (638, 109)},
    "0.137": {1: (2, 1), 3: (6, 2), 9: (12, 3), 13: (24, 5), 24: (144, 23), 26: (176, 28), 29: (360, 65),
              30: (520, 89), 31: (552, 93), 32: (638, 109)},
    "0.35": {1: (2, 1), 2: (6, 2), 4: (14, 4), 6: (38, 9), 7: (70, 17), 8: (106, 26), 10: (246, 53), 11: (426, 92),
             12: (774, 165), 13: (1174, 249), 14: (1382, 294), 15: (1650, 347), 16: (1714, 358), 17: (1826, 383),
             18: (2050, 432)},
    "0.16": {1: (2, 1), 5: (6, 2), 8: (10, 2), 12: (36, 6), 13: (44, 8), 14: (88, 14), 15: (124, 19), 16: (154, 27),
             17: (434, 65)},
}
SLOW_FINAL = {"0.53", "0.77", "0.15"}


def _found(code: str, heaps: int):
    return discover_quotient(make_game("octal", code=code, misere=True), heaps=heaps, seconds=600.0, checks=())


@pytest.mark.parametrize("code", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_FINAL else c for c in FINAL])
def test_final_quotients_match_misere_solver(code):
    found = _found(code, 400)
    m = found.rule.monoid
    assert found.status == "proved"
    assert (m.order, int(m.p_portion.sum()), found.rule.period.period, found.rule.period.preperiod) == FINAL[code]


def _growth(found) -> dict:
    """Heap -> (|Q|, |P|) where the quotient grew; |P| read from the quotient of the heaps up to there."""
    return {heap: order for heap, order in found.growth}


@pytest.mark.parametrize("code, heaps", [("0.07", 14), ("0.137", 13), ("0.35", 8), ("0.16", 13),
                                         *(pytest.param(c, h, marks=pytest.mark.slow)
                                           for c, h in (("0.07", 30), ("0.137", 29), ("0.35", 12), ("0.16", 17)))])
def test_partial_growth_matches_misere_solver(code, heaps):
    found = _found(code, heaps)
    want = {h: q for h, (q, _) in GROWTH[code].items() if h <= heaps}
    assert found.heaps == heaps and _growth(found) == want
    assert int(found.rule.monoid.p_portion.sum()) == GROWTH[code][max(want)][1]
