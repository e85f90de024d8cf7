"""The solver against theorems of combinatorial game theory.

Tests may use closed forms (the solver may not).  Where a claimed rule is less standard, the
test first checks the rule itself with an independent pure-Python brute force, so that a wrong
expectation cannot pass silently; where a periodicity theorem gives a finite certificate
(subtraction games, the Guy-Smith theorem for octal games), the check covers it.
"""

from __future__ import annotations

import math
from functools import reduce
from operator import xor

import numpy as np
import pytest

from games import make_game
from solvers import solve


def table(game, bound, **flags):
    """(positions, solution) over the whole universe."""
    sol = solve(game, bound=bound, **flags)
    return sol.universe.positions(), sol


def nim_sum(positions) -> np.ndarray:
    return np.bitwise_xor.reduce(positions, axis=1)


# -- brute forces, independent of games/ and solvers/ ---------------------------------------
def mex(values) -> int:
    values = set(values)
    g = 0
    while g in values:
        g += 1
    return g


def subtraction_p(subtract, n_max) -> list[bool]:
    p = []
    for n in range(n_max + 1):
        p.append(not any(s <= n and p[n - s] for s in subtract))
    return p


def octal_grundy(code: str, n_max: int) -> list[int]:
    digits = [int(code[0])] + [int(c) for c in code.split(".")[1]]
    g = []
    for n in range(n_max + 1):
        values = set()
        for k, d in enumerate(digits):
            if k > n or not d:
                continue
            rest = n - k
            if d & 1 and rest == 0 and k:
                values.add(0)
            if d & 2 and rest > 0 and k:
                values.add(g[rest])
            if d & 4:
                values.update(g[rest - left] ^ g[left] for left in range(1, rest // 2 + 1))
        g.append(mex(values))
    return g


# -- Nim -------------------------------------------------------------------------------------
NIM_BOUNDS = {2: 63, 3: 15, 4: 7, 5: 5, 6: 3}


@pytest.mark.parametrize("heaps", sorted(NIM_BOUNDS))
def test_bouton(heaps):
    """Bouton (1901): P iff the nim-sum is 0; Sprague-Grundy: the Grundy value is the nim-sum."""
    positions, sol = table(make_game("nim", heaps=heaps), NIM_BOUNDS[heaps])
    np.testing.assert_array_equal(sol.outcome_table == -1, nim_sum(positions) == 0)
    positions, sol = table(make_game("nim", heaps=heaps), NIM_BOUNDS[heaps], grundy=True)
    np.testing.assert_array_equal(sol.grundy_table, nim_sum(positions))


@pytest.mark.parametrize("heaps", [1, 2, 3, 4, 5])
def test_misere_nim(heaps):
    """Misere Nim: P iff (every heap <= 1 and the nim-sum is 1) or (some heap >= 2 and the nim-sum is 0)."""
    bound = {1: 30, 2: 40, 3: 12, 4: 6, 5: 4}[heaps]
    positions, sol = table(make_game("nim", heaps=heaps, misere=True), bound)
    small = (positions <= 1).all(axis=1)
    x = nim_sum(positions)
    np.testing.assert_array_equal(sol.outcome_table == -1, np.where(small, x == 1, x == 0))


# -- Wythoff ---------------------------------------------------------------------------------
def wythoff_pairs(bound):
    """{(floor(k phi), floor(k phi^2))} with exact integers: floor(k phi) = (k + isqrt(5 k^2)) // 2."""
    pairs = set()
    k = 0
    while True:
        a = (k + math.isqrt(5 * k * k)) // 2
        b = a + k  # floor(k phi^2) = floor(k phi) + k
        if a > bound:
            return pairs
        if b <= bound:
            pairs.update({(a, b), (b, a)})
        k += 1


def test_wythoff_pairs_at_2000():
    """Wythoff (1907): P iff {a, b} = {floor(k phi), floor(k phi^2)}; line fast path at bound 2000."""
    bound = 2000
    sol = solve(make_game("wythoff"), bound=bound)
    p = sol.p_positions()
    assert {tuple(int(x) for x in q) for q in p} == wythoff_pairs(bound)
    assert len(p) == len(wythoff_pairs(bound))


def test_wythoff_pair_formula_is_exact():
    """The integer formula agrees with the mex construction of the pairs (a_k = mex of earlier, b_k = a_k + k)."""
    used, k, a_seq = set(), 0, []
    for k in range(3000):
        a = mex(used)
        a_seq.append(a)
        used.update({a, a + k})
    assert a_seq == [(k + math.isqrt(5 * k * k)) // 2 for k in range(3000)]


def test_misere_wythoff():
    """Misere Wythoff: the normal-play P positions, with (0,0), (1,2), (2,1) replaced by (0,1), (1,0), (2,2)."""
    bound = 500
    sol = solve(make_game("wythoff", misere=True), bound=bound)
    got = {tuple(int(x) for x in q) for q in sol.p_positions()}
    expected = (wythoff_pairs(bound) - {(0, 0), (1, 2), (2, 1)}) | {(0, 1), (1, 0), (2, 2)}
    assert got == expected


# -- subtraction games ---------------------------------------------------------------------
SUBTRACTION_RULES = [
    ((1, 2, 3), 4, {0}),
    ((1, 3, 4), 7, {0, 2}),
    # S(2,3,7): P iff n mod 5 in {0, 1} (period 5, not 10: checked by brute force below)
    ((2, 3, 7), 5, {0, 1}),
    ((1, 2), 3, {0}),
    ((3, 5), 8, {0, 1, 2}),
]


@pytest.mark.parametrize("subtract, period, residues", SUBTRACTION_RULES, ids=lambda v: str(v))
def test_subtraction_periodic(subtract, period, residues):
    """The claimed rule holds by brute force with a periodicity certificate, and the solver agrees far out."""
    # the rule itself: two windows of max(S) values one period apart coincide, so the P/N
    # sequence repeats forever (each value depends only on the max(S) before it)
    brute = subtraction_p(subtract, 4 * period + 2 * max(subtract))
    assert all(brute[n] == (n % period in residues) for n in range(len(brute)))
    width = max(subtract)
    assert brute[period: period + width] == brute[:width]
    bound = 100_000
    sol = solve(make_game("subtraction", subtract=subtract), bound=bound)
    n = np.arange(bound + 1)
    np.testing.assert_array_equal(sol.outcome_table == -1, np.isin(n % period, list(residues)))


def test_subtraction_237_claim_of_period_10():
    """The claim 'S(2,3,7): P iff n mod 10 in {0,1,4,5}' is false: 4 is N (take 3, leaving 1, which has no move)."""
    brute = subtraction_p((2, 3, 7), 30)
    assert brute[4] is False and brute[1] is True
    sol = solve(make_game("subtraction", subtract=(2, 3, 7)), bound=30)
    assert sol.outcome([[4]]).tolist() == [1]


# -- octal games -----------------------------------------------------------------------------
# Kayles (0.77): period 12 from 71 on, 14 exceptional heaps below (Guy and Smith 1956;
# Winning Ways ch. 4), the last one G(70) = 6 where the period would give 2.
KAYLES_PERIOD = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]  # G(n) for n mod 12 = 0..11, n >= 71
KAYLES_EXCEPTIONS = [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]
# Dawson's Kayles (0.07): period 34 from 53 on; exceptions 0 and the classical 0, 14, 16, 17, 31, 34, 51
# of Dawson's chess shifted by one (a heap of n here is a row of n - 1 there).
DAWSON_EXCEPTIONS = [0, 1, 15, 17, 18, 32, 35, 52]


def _octal_periodicity(code, period, start, exceptions, bound):
    g = solve(make_game("octal", code=code), bound=bound, grundy=True).grundy_table.tolist()
    assert g == octal_grundy(code, bound)  # the brute force in this file
    digits = len(code.split(".")[1])
    # Guy-Smith: equal over start <= n < 2 start + period + digits implies periodic forever
    assert bound >= 2 * start + 2 * period + digits
    assert all(g[n] == g[n + period] for n in range(start, bound + 1 - period))
    assert g[start - 1] != g[start - 1 + period]
    periodic = [n for n in range(start) if g[n] == g[n + period * ((start - n) // period + 1)]]
    assert sorted(set(range(start)) - set(periodic)) == exceptions
    return g


def test_kayles_period_12_from_71():
    g = _octal_periodicity("0.77", 12, 71, KAYLES_EXCEPTIONS, 300)
    assert g[70] == 6 and g[82] == 2
    assert [g[n] for n in range(72, 84)] == KAYLES_PERIOD


def test_dawson_kayles_period_34_from_53():
    _octal_periodicity("0.07", 34, 53, DAWSON_EXCEPTIONS, 300)


def test_lasker_nim():
    """Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3 (G(0) = 0)."""
    g = solve(make_game("lasker"), bound=400, grundy=True).grundy_table
    n = np.arange(401)
    expected = np.select([n % 4 == 0, n % 4 == 3], [n - 1, n + 1], n)
    expected[0] = 0
    np.testing.assert_array_equal(g, expected)


# -- Moore, staircase, Chomp, Euclid --------------------------------------------------------
@pytest.mark.parametrize("heaps, k, bound", [(3, 2, 7), (4, 2, 5), (4, 3, 4), (5, 2, 3), (3, 1, 7)])
def test_moore(heaps, k, bound):
    """Moore (1910): P iff every binary digit column sum is divisible by k + 1."""
    positions, sol = table(make_game("moore", heaps=heaps, k=k), bound)
    bits = (positions[:, :, None] >> np.arange(8)) & 1
    expected = (bits.sum(axis=1) % (k + 1) == 0).all(axis=1)
    np.testing.assert_array_equal(sol.outcome_table == -1, expected)


@pytest.mark.parametrize("stairs, bound", [(1, 30), (2, 20), (3, 6), (4, 3), (5, 2)])
def test_staircase(stairs, bound):
    """Staircase Nim: P iff the nim-sum of the odd-numbered stairs (coordinates 0, 2, 4, ...) is 0."""
    positions, sol = table(make_game("staircase", stairs=stairs), bound)
    np.testing.assert_array_equal(sol.outcome_table == -1, nim_sum(positions[:, 0::2]) == 0)


def test_chomp_two_rows():
    """2-row Chomp: P iff the bottom row is one longer than the top row."""
    positions, sol = table(make_game("chomp", rows=2), 100)
    np.testing.assert_array_equal(sol.outcome_table == -1, positions[:, 0] == positions[:, 1] + 1)


def test_chomp_first_player_wins_rectangles():
    """Gale's strategy stealing: every rectangle other than the single square is a first-player win."""
    for rows, bound in [(2, 30), (3, 12), (4, 6)]:
        sol = solve(make_game("chomp", rows=rows), bound=bound)
        rectangles = [[n] * rows for n in range(1, bound + 1)]
        assert (sol.outcome(rectangles) == 1).all()


def test_euclid_golden_ratio():
    """Euclid: a zero coordinate is P; for max > min > 0, P iff max < phi * min; on the diagonal N.

    The HQN paper, Theorem 5 states "hot iff a/b > phi" for a >= b; on the diagonal a == b > 0 the
    mover takes everything from one side, leaving (0, b): the solver (rightly) says N there."""
    bound = 300
    positions, sol = table(make_game("euclid"), bound)
    hi, lo = positions.max(axis=1), positions.min(axis=1)
    # hi < phi * lo  <=>  2 hi - lo < sqrt(5) lo  <=>  (2 hi - lo)^2 < 5 lo^2  (2 hi - lo > 0)
    below_phi = (2 * hi - lo) ** 2 < 5 * lo**2
    expected = (lo == 0) | ((hi != lo) & below_phi)
    np.testing.assert_array_equal(sol.outcome_table == -1, expected)
    assert (sol.outcome([[b, b] for b in range(1, bound + 1)]) == 1).all()
    # Theorem 5 off the diagonal: hot iff the ratio exceeds phi
    off = (lo > 0) & (hi != lo)
    np.testing.assert_array_equal(sol.outcome_table[off] == 1, ~below_phi[off])


def test_nim_sum_helper():
    assert reduce(xor, [1, 2, 3]) == 0 and nim_sum(np.array([[1, 2, 3], [1, 2, 4]])).tolist() == [0, 7]
