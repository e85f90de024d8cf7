"""The octal periodicity proof with a period from heap 0: n0 counts as 1.

0.04 (remove two tokens and split the rest into two heaps) has G = 0 on heaps 0 to 3 and G(4) = 1.
Read with n0 = 0, the hypothesis "G(n + 1) = G(n) for 0 <= n < 2 n0 + p + t = 3" holds on those
four values and would prove G = 0 everywhere; the proof must ask for more values.
"""

from __future__ import annotations

from discover.proofs.periodicity import octal_periodicity_proof
from games import make_game
from solvers.eventual_period import hypothesis_end
from solvers.take_and_break import plain_grundy_values


def test_a_period_from_heap_zero_is_not_proved_by_too_few_values():
    values = plain_grundy_values(make_game("octal", code="0.04"), 8)
    assert values[:5].tolist() == [0, 0, 0, 0, 1]
    for checked in range(1, 9):
        assert not octal_periodicity_proof(2, 0, 1, values[:checked]).proven


def test_the_proof_asks_for_the_values_the_engine_checks():
    kayles = plain_grundy_values(make_game("octal", code="0.77"), 400)
    for t, n0, p in [(2, 71, 12), (3, 0, 4), (1, 5, 7)]:
        assert octal_periodicity_proof(t, n0, p, kayles).needed == hypothesis_end(n0, p, t, 2) + 1
    assert octal_periodicity_proof(2, 71, 12, kayles).proven
