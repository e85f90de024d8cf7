"""The take-and-break engine against the definition, the graph solver and the periodicity theorem.

Every value of the sparse engine is compared with the plain kernel (the mex over every option) on
the overlap, and the plain kernel with ``solvers.solve`` on small bounds, for named and random
octal codes, hexadecimal codes and Grundy's game.  A proved period is checked far beyond the
theorem's range by the plain kernel, so a wrong proof fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

from games import make_game
from solvers import solve
from solvers.periods.sequences import PeriodWatch
from solvers.take_and_break import (
    grundy_sequence,
    plain_grundy_values,
    sparse_grundy_values,
    take_and_break_rules,
)

NAMED = [("octal", "0.77"), ("octal", "0.07"), ("octal", "0.137"), ("octal", "0.16"), ("octal", "0.354"),
         ("octal", "0.6"), ("octal", "0.376"), ("octal", "0.127"), ("octal", "4.07"), ("octal", "0.000001"), ("octal", "0.0"),
         ("hexadecimal", "0.7F"), ("hexadecimal", "8.0"), ("hexadecimal", "0.B"), ("hexadecimal", "C.48")]


def random_code(rng: np.random.Generator, radix: int) -> str:
    head = rng.choice(["0", "4"] if radix == 8 else ["0", "4", "8", "C"])
    tail = rng.integers(0, radix, size=rng.integers(1, 5))
    return f"{head}." + "".join(f"{d:X}" for d in tail)


def game_of(name: str, code: str | None = None):
    return make_game(name) if code is None else make_game(name, code=code)


# -- values -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,code", NAMED + [("grundy_game", None)])
def test_plain_kernel_matches_the_graph_solver(name, code):
    game = game_of(name, code)
    bound = 25 if name == "hexadecimal" else 60
    truth = solve(game, bound=bound, grundy=True).grundy_table
    np.testing.assert_array_equal(plain_grundy_values(game, bound + 1), truth)


@pytest.mark.parametrize("name,code", NAMED + [("grundy_game", None)])
def test_engine_matches_the_plain_kernel(name, code):
    game = game_of(name, code)
    heaps = 300 if name == "hexadecimal" else 20_000
    np.testing.assert_array_equal(sparse_grundy_values(game, heaps), plain_grundy_values(game, heaps))


def test_engine_matches_the_plain_kernel_on_random_codes():
    rng = np.random.default_rng(13)
    for radix, heaps in [(8, 3000)] * 40 + [(16, 150)] * 15:
        game = make_game("octal" if radix == 8 else "hexadecimal", code=random_code(rng, radix))
        np.testing.assert_array_equal(sparse_grundy_values(game, heaps), plain_grundy_values(game, heaps),
                                      err_msg=repr(game))


def test_the_plain_kernel_resumes_after_known_values():
    game = make_game("octal", code="0.16")
    values = plain_grundy_values(game, 500)
    np.testing.assert_array_equal(plain_grundy_values(game, 500, known=values[:300]), values)


def test_every_octal_code_is_the_same_hexadecimal_game():
    for code in ["0.77", "4.07", "0.354"]:
        np.testing.assert_array_equal(sparse_grundy_values(make_game("hexadecimal", code=code), 2000),
                                      sparse_grundy_values(make_game("octal", code=code), 2000))


# -- periods -------------------------------------------------------------------------------------
def check_period_beyond(result, heaps: int) -> None:
    """The proved period holds on ``heaps`` plain values; n0 and p are the smallest that do."""
    truth = plain_grundy_values(result.game, heaps).astype(np.int64)
    n0, p = result.preperiod, result.period
    np.testing.assert_array_equal(result.value(np.arange(heaps)), truth, err_msg=repr(result.game))
    if n0 > 0:
        assert truth[n0 - 1] != truth[n0 - 1 + p], "the pre-period is not the smallest"
    for q in range(1, p):
        assert not np.array_equal(truth[n0 + q:], truth[n0:heaps - q]), f"period {q} < {p} also holds"


@pytest.mark.parametrize("code,t,preperiod,period",
                         [("0.77", 2, 71, 12), ("0.137", 3, 52, 34), ("0.07", 2, 53, 34)])
def test_kayles_and_dawson_periods_are_proved(code, t, preperiod, period):
    result = grundy_sequence(make_game("octal", code=code))
    assert (result.preperiod, result.period, result.proved) == (preperiod, period, True)
    # the Guy-Smith hypothesis: G(n + p) = G(n) for n0 <= n < 2 n0 + p + t
    assert result.hypothesis == (preperiod, 2 * preperiod + period + t - 1)
    check_period_beyond(result, 3 * result.heaps)


def test_dawsons_chess_is_dawsons_kayles_one_heap_later():
    chess = sparse_grundy_values(make_game("octal", code="0.137"), 500)
    kayles = sparse_grundy_values(make_game("octal", code="0.07"), 501)
    np.testing.assert_array_equal(chess, kayles[1:])


def test_kayles_exceptions_and_one_period():
    kayles = grundy_sequence(make_game("octal", code="0.77"))
    # Winning Ways, chapter 4: the fourteen exceptional values of Kayles
    assert kayles.exceptions.tolist() == [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]
    # and its period 4 1 2 8 1 4 7 2 1 8 2 7, read from n = 71
    assert kayles.period_values.tolist() == [7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2]


@pytest.mark.parametrize("code", ["0.16", "0.127", "0.6"])
def test_rare_heaps_are_the_heaps_of_the_rare_class(code):
    result = grundy_sequence(make_game("octal", code=code), heaps=60_000)
    rare, n = result.rare, np.arange(result.heaps)
    ones = np.array([bin(int(v) & rare.mask).count("1") for v in result.values])
    if rare.heap_parity:
        ones = ones + n + rare.offset
    np.testing.assert_array_equal(rare.heaps, n[ones % 2 == 0])
    assert 0 < rare.heaps.size < result.heaps // 20


def test_proved_periods_of_random_codes_hold_far_beyond_the_theorem():
    rng = np.random.default_rng(2024)
    proved = 0
    for _ in range(60):
        result = grundy_sequence(make_game("octal", code=random_code(rng, 8)), heaps=3000)
        if result.proved:
            proved += 1
            check_period_beyond(result, 2 * result.heaps + 100)
    assert proved >= 30


@pytest.mark.parametrize("code", ["0.F", "0.D", "0.30A", "0.A", "0.F26", "0.B3", "0.A6"])
def test_proved_periods_of_hexadecimal_codes_hold_beyond_the_theorem(code):
    # three-heap moves: the theorem's range is 3 (n0 + p) + t - 1
    result = grundy_sequence(make_game("hexadecimal", code=code), heaps=400)
    assert result.proved and result.hypothesis[1] + result.period == 3 * (max(result.preperiod, 1) + result.period) \
        + len(code) - 3
    check_period_beyond(result, 600)


def test_a_period_from_zero_needs_the_heap_after_the_theorem_range():
    # 0.04: G = 0 for heaps 0 to 3 and G(4) = 1; reading the theorem with n0 = 0 would prove
    # "G = 0 everywhere" from four values
    values = plain_grundy_values(make_game("octal", code="0.04"), 6)
    assert values.tolist() == [0, 0, 0, 0, 1, 1]
    watch = PeriodWatch(removal_limit=2, parts=2)
    assert not watch.check(values, 4) and watch.candidate == (0, 1)
    assert not watch.check(values, 5) and watch.candidate != (0, 1)


@pytest.mark.parametrize("name,code", [("octal", "0.6"), ("grundy_game", None)])
def test_open_games_are_never_proved(name, code):
    result = grundy_sequence(game_of(name, code), heaps=1 << 14)
    assert not result.proved and result.heaps == 1 << 14
    assert result.statement.startswith("no period up to n = 16,383")
    with pytest.raises(ValueError, match="no period is proved"):
        result.value([1 << 14])


def test_grundys_game_candidate_is_not_proved_by_any_theorem():
    # Grundy's game: a period seen in the values is still not a proof
    watch = PeriodWatch(removal_limit=0, parts=2, theorem_applies=False)
    assert not watch.check(np.zeros(1000, dtype=np.uint16), 1000)
    assert watch.candidate == (0, 1)


def test_budget_in_seconds_stops_an_open_game():
    result = grundy_sequence(make_game("octal", code="0.6"), seconds=0.5)
    assert not result.proved and 1024 <= result.heaps < 1 << 25


def test_progress_reports_heaps_rate_and_candidate():
    calls = []
    result = grundy_sequence(make_game("octal", code="0.45"), progress=lambda *args: calls.append(args))
    heaps = [c[0] for c in calls]
    assert heaps == sorted(heaps) and heaps[-1] == result.heaps
    assert all(c[1] > 0 for c in calls) and calls[-1][2] == (498, 20)


# -- bad input -----------------------------------------------------------------------------------
def test_rules_of_the_families():
    digits, unequal = take_and_break_rules(make_game("hexadecimal", code="C.0F0"))
    assert digits.tolist() == [12, 0, 15] and not unequal
    with pytest.raises(ValueError, match="not a take-and-break game"):
        take_and_break_rules(make_game("nim"))


@pytest.mark.parametrize("kwargs,match", [({"heaps": 0}, "positive integer"), ({"heaps": 2.5}, "positive integer"),
                                          ({"seconds": 0}, "seconds must be positive"),
                                          ({"heaps": 10**14}, "needs about")])
def test_bad_budgets(kwargs, match):
    with pytest.raises(ValueError, match=match):
        grundy_sequence(make_game("octal"), **kwargs)


@pytest.mark.parametrize("name,code", [("octal", "0.8"), ("octal", "1.7"), ("octal", "0."), ("octal", ".77"),
                                       ("hexadecimal", "0.G"), ("hexadecimal", "2.F"), ("hexadecimal", "0,7")])
def test_bad_codes(name, code):
    with pytest.raises(ValueError, match=f"{name} code must look like"):
        make_game(name, code=code)
