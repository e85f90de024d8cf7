"""The catalogue of issue 3: ``find_rule`` on every game the issue names, at the default bounds.

For every case that verifies, the test asserts the status, a training bound of at most 30 per
coordinate (Nim: at most 15), the default verification bound (at least ten times the training bound on one
or two coordinates; on more, as large as ``discover.bounds.VERIFY_POSITIONS`` allows: Nim on 3 heaps, 124 for
15), and then re-checks the rule itself, never trusting the tool's own claim: against ``solvers.solve``
on the verified bound and, where a closed form is known, against that form computed here
(nim-sum, Wythoff pairs from exact integer square roots, Lasker's Nim, Kayles' period from
Winning Ways, Moore's digit sums). Kayles is found by default by the take-and-break engine (its
training bound is then the heaps it computed), and from a training table when a bound is given.  The negative controls (Grundy's game, 3-heap Wythoff) must
not come out verified.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import pytest

from discover.expr.features import DERIVED
from discover.expr.features import expand_derived
from discover.bounds import default_verify_bound, take_and_break_verify_bound
from discover.find import find_rule
from games import make_game
from solvers import solve

CHUNK = 1 << 20


@functools.lru_cache(maxsize=None)
def discovered(name: str, bound: int | None = None, **params):
    """``find_rule`` on a registered game with default settings (no strategy search: test_strategy's), once
    per process."""
    return find_rule(make_game(name, **params), bound=bound, strategy=False)


def wrong_at(rule, game, position) -> bool:
    """The rule's P label at ``position`` differs from the solver's."""
    position = np.asarray([position], dtype=np.int64)
    truth = solve(game, bound=int(position.max())).outcome(position) == -1
    return bool(rule.predicate(position)[0] != truth[0])


def assert_refuted_for_real(found):
    """A refuted rule has a failed check with a counterexample, and the solver confirms it is wrong."""
    failed = [c for c in found.checks if not c.passed]
    assert len(failed) == 1 and failed[0] is found.checks[-1] and failed[0].counterexample
    if failed[0].name == "agreement with the solver":
        assert wrong_at(found.rule, found.game, failed[0].counterexample["position"])
    else:
        assert not agrees_with_solver(found.rule, found.game, found.verify_bound)


def agrees_with_solver(rule, game, bound: int) -> bool:
    """The rule's labels (or Grundy values) equal the solver's on every position of ``game.universe(bound)``."""
    grundy = rule.target == "grundy"
    solution = solve(game, bound=bound, grundy=grundy)
    universe = solution.universe
    for lo in range(0, universe.size, CHUNK):
        ids = np.arange(lo, min(lo + CHUNK, universe.size))
        positions = universe.positions(ids)
        if grundy:
            same = np.array_equal(rule.evaluate(positions), solution.grundy_table[ids])
        else:
            same = np.array_equal(rule.predicate(positions), solution.outcome_table[ids] == -1)
        if not same:
            return False
    return True


def assert_verified(found, train_max: int = 30):
    """The claims every verified catalogue case must satisfy, with the rule re-checked independently."""
    assert found.status == "verified", (found.status, found.best_partial and found.best_partial.text())
    assert found.rule is not None and found.rule.train_accuracy == 1.0
    assert found.train_bound <= train_max
    assert found.verified_bound == found.verify_bound
    by_default = take_and_break_verify_bound(found.game, found.train_bound + 1) if found.source == "take_and_break" \
        else default_verify_bound(found.game, found.train_bound)
    assert found.verified_bound == by_default
    if found.game.dims <= 2:  # on more coordinates the tenfold box may exceed the budget (VERIFY_POSITIONS)
        assert found.verified_bound >= 10 * found.train_bound, (found.train_bound, found.verified_bound)
    assert [c.passed for c in found.checks] == [True] * len(found.checks)
    assert {"agreement with the solver", "closure certificate", "self-play"} <= {c.name for c in found.checks}
    assert agrees_with_solver(found.rule, found.game, found.verified_bound)


def nim_sum_zero(positions) -> np.ndarray:
    return np.bitwise_xor.reduce(positions, axis=1) == 0


def heaps_with_xor_zero(rng, count: int, heaps: int, top: int) -> np.ndarray:
    """Random positions whose last heap is the xor of the others (all below a power of two ``top``)."""
    positions = rng.integers(0, top, size=(count, heaps))
    positions[:, -1] = np.bitwise_xor.reduce(positions[:, :-1], axis=1)
    return positions


# -- Nim and misere Nim ---------------------------------------------------------------------


@pytest.mark.parametrize("heaps", [2, 3, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)])
def test_nim_rule_is_the_nim_sum(heaps):
    # Nim trains on heaps <= 15 (the issue); the default for two heaps would be 30 (the general
    # 2-D default), so that case is given bound 15.  Defaults for 3, 4, 5 heaps: 15, 7, 3.
    found = discovered("nim", bound=15 if heaps == 2 else None, heaps=heaps)
    assert_verified(found, train_max=15)  # the issue: Nim heaps <= 15
    rng = np.random.default_rng(heaps)
    if heaps == 2:
        # Two heaps come out as "|a - b| = 0" (a = b): the nim-sum rule for two heaps, but stated
        # with spread, so it does not carry over to more heaps; checked on two heaps only.
        positions = np.vstack([rng.integers(0, 10**6, size=(5000, 2)), heaps_with_xor_zero(rng, 5000, 2, 2**20)])
    else:
        # the rule is stated for any number of heaps: check it on 7 heaps <= 31
        assert "⊕" in found.rule.text()
        positions = np.vstack([rng.integers(0, 32, size=(20000, 7)), heaps_with_xor_zero(rng, 20000, 7, 32)])
    assert np.array_equal(found.rule.predicate(positions), nim_sum_zero(positions))


def test_misere_nim_three_heaps():
    found = discovered("nim", heaps=3, misere=True)
    assert_verified(found, train_max=15)
    rng = np.random.default_rng(7)
    positions = np.vstack([
        rng.integers(0, 32, size=(20000, 7)),
        heaps_with_xor_zero(rng, 20000, 7, 32),
        (np.arange(128)[:, None] >> np.arange(7)) & 1,  # every position of heaps <= 1
    ])
    xor = np.bitwise_xor.reduce(positions, axis=1)
    expected = np.where(positions.max(axis=1) <= 1, xor == 1, xor == 0)
    assert np.array_equal(found.rule.predicate(positions), expected)


# -- Wythoff and Euclid ----------------------------------------------------------------------


def wythoff_pairs(limit: int) -> list[tuple[int, int]]:
    """(floor(k phi), floor(k phi^2)) with b <= limit, exactly: floor(k phi) = (k + isqrt(5 k^2)) // 2."""
    pairs, k = [], 0
    while True:
        a = (k + math.isqrt(5 * k * k)) // 2
        if a + k > limit:
            return pairs
        pairs.append((a, a + k))
        k += 1


def test_wythoff_pairs_words_and_exact_pairs_to_5000():
    found = discovered("wythoff")
    assert_verified(found)
    assert "{⌊kφ⌋, ⌊kφ²⌋}" in found.rule.words and "mex" in found.rule.words
    assert "φ" in found.rule.text()
    limit = 5000
    truth = np.zeros((limit + 1, limit + 1), dtype=bool)
    for a, b in wythoff_pairs(limit):
        truth[a, b] = truth[b, a] = True
    column = np.arange(limit + 1)
    for lo in range(0, limit + 1, 250):
        rows = np.arange(lo, min(lo + 250, limit + 1))
        positions = np.stack(np.meshgrid(rows, column, indexing="ij"), axis=-1).reshape(-1, 2)
        assert np.array_equal(found.rule.predicate(positions), truth[rows].reshape(-1)), f"rows from {lo}"


def test_euclid_and_its_diagonal():
    found = discovered("euclid")
    assert_verified(found)
    # What the solver shows on the diagonal: (a, a) with a >= 1 is N (move to (a, 0), which has
    # no move, so its player loses); a zero coordinate is P.  The rule says the same.
    solution = solve(found.game, bound=found.verified_bound)
    a = np.arange(1, found.verified_bound + 1)
    diagonal = np.stack([a, a], axis=1)
    assert (solution.outcome(diagonal) == 1).all()
    assert not found.rule.predicate(diagonal).any()
    zeros = np.stack([a, np.zeros_like(a)], axis=1)
    assert (solution.outcome(zeros) == -1).all() and found.rule.predicate(zeros).all()


# -- subtraction games, octal games, Lasker's Nim ---------------------------------------------


@pytest.mark.parametrize(
    "subtract, text, p_residues, period",
    [((1, 2, 3), "n mod 4 = 0", {0}, 4), ((1, 3, 4), "n mod 7 ∈ {0, 2}", {0, 2}, 7), ((2, 3, 7), None, {0, 1}, 5)],
)
def test_subtraction_games(subtract, text, p_residues, period):
    found = discovered("subtraction", subtract=subtract)
    assert_verified(found)
    if text is not None:
        assert found.rule.text() == text
    assert found.proof.status == "proved" and found.proof.method.startswith("theorem: periodicity")
    n = np.arange(100_000)
    assert np.array_equal(found.rule.predicate(n[:, None]), np.isin(n % period, list(p_residues)))


KAYLES_PERIOD = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]  # G(n) for n mod 12 = 0..11, n >= 71 (Winning Ways)
KAYLES_EXCEPTIONS = "{0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70}"  # last exception at n = 70


def test_kayles_period_12_from_71_with_a_proof():
    found = discovered("octal", code="0.77")
    # By default the take-and-break engine computes Kayles' Grundy values until the periodicity
    # theorem proves the period; the rule is the periodic table, put on trial like any other.
    assert found.status == "verified" and found.source == "take_and_break"
    assert [c.passed for c in found.checks] == [True] * 3
    assert agrees_with_solver(found.rule, found.game, found.verified_bound)
    rule = found.rule
    assert (rule.target, rule.preperiod, rule.period) == ("grundy", 71, 12)
    assert rule.sequence.values.tolist() == KAYLES_PERIOD
    assert f"{{{', '.join(map(str, rule.sequence.exceptions[:, 0]))}}}" == KAYLES_EXCEPTIONS
    assert found.proof.status == "proved" and "Guy and Smith" in found.proof.method
    n = np.arange(71, 100_000)
    assert np.array_equal(rule.evaluate(n[:, None]), np.array(KAYLES_PERIOD)[n % 12])


def test_kayles_from_a_training_table():
    # With a training bound the engine portfolio runs instead: Kayles' period starts at n = 71, so
    # heaps <= 120 are needed to see it (the next test: not on heaps <= 30).
    found = discovered("octal", bound=120, code="0.77")
    assert_verified(found, train_max=120)
    assert found.rule.target == "grundy" and found.rule.period is None
    assert "period 12 from n = 71" in found.rule.words
    assert f"exceptions at n in {KAYLES_EXCEPTIONS}" in found.rule.words
    assert found.proof.status == "proved" and "Guy and Smith" in found.proof.method
    n = np.arange(71, 100_000)
    assert np.array_equal(found.rule.evaluate(n[:, None]), np.array(KAYLES_PERIOD)[n % 12])


def test_kayles_is_not_found_on_heaps_up_to_30():
    found = discovered("octal", bound=30, code="0.77")
    assert found.status != "verified" and found.verified_bound is None


def test_lasker_nim_grundy_values():
    found = discovered("lasker")
    assert_verified(found)
    assert found.rule.target == "grundy"
    n = np.arange(1, 100_000)
    closed_form = np.select([n % 4 == 0, n % 4 == 3], [n - 1, n + 1], n)  # G(4k+3) = 4k+4, G(4k+4) = 4k+3
    assert np.array_equal(found.rule.evaluate(n[:, None]), closed_form)
    assert found.rule.evaluate(np.zeros((1, 1), dtype=np.int64)).tolist() == [0]


# -- Chomp and Moore's Nim ---------------------------------------------------------------------


def test_two_row_chomp():
    found = discovered("chomp", rows=2)
    assert_verified(found)
    positions = solve(found.game, bound=found.verified_bound).universe.positions()  # rows a >= b
    assert np.array_equal(found.rule.predicate(positions), positions[:, 0] == positions[:, 1] + 1)


def moore_p(positions, k: int) -> np.ndarray:
    """Moore's theorem: P iff in every binary digit the heaps with a 1 number 0 mod (k + 1)."""
    positions = np.asarray(positions, dtype=np.int64)
    bits = (positions[:, :, None] >> np.arange(int(positions.max()).bit_length() + 1)) & 1
    return (bits.sum(axis=1) % (k + 1) == 0).all(axis=1)


def test_moore_nim2_three_heaps_default_bound():
    found = discovered("moore", heaps=3, k=2)
    # Default: trained on heaps <= 15, but the moves of two heaps at once make the verification
    # graph large, so the default verification bound is only 28 (< 150): the tenfold claim is
    # checked with a smaller training bound in the next test.
    assert found.status == "verified" and found.train_bound <= 15
    assert agrees_with_solver(found.rule, found.game, 20)
    rng = np.random.default_rng(3)
    equal = np.repeat(rng.integers(0, 10**6, size=(2000, 1)), 3, axis=1)
    positions = np.vstack([rng.integers(0, 10**6, size=(20000, 3)), equal])
    assert np.array_equal(found.rule.predicate(positions), moore_p(positions, 2))


def test_moore_nim2_three_heaps_verified_tenfold():
    found = discovered("moore", bound=4, heaps=3, k=2)
    assert_verified(found)


@pytest.mark.slow
def test_moore_nim2_four_heaps_stretch():
    # Stretch goal, not asserted to succeed.  Recorded outcome (seed 0, default bounds 7 and 17):
    # "refuted": a 100% decision list on heaps <= 7 disagrees with the solver at (8, 6, 5, 3).
    found = discovered("moore", heaps=4, k=2)
    if found.status == "verified":
        assert agrees_with_solver(found.rule, found.game, found.verified_bound)
        rng = np.random.default_rng(4)
        positions = rng.integers(0, 64, size=(20000, 4))
        assert np.array_equal(found.rule.predicate(positions), moore_p(positions, 2))
    elif found.status == "refuted":
        assert_refuted_for_real(found)


# -- negative controls ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, bound, params",
    # Grundy's game on the largest table the one-heap growth loop reached (30, 120, 480); by
    # default the take-and-break engine computes it instead (tests/discover/test_take_and_break_rules.py)
    [pytest.param("grundy_game", 480, {}, marks=pytest.mark.slow), ("wythoff_nd", None, {"heaps": 3})],
    ids=["grundy_game", "wythoff_nd-3"],
)
def test_negative_controls_are_not_verified(name, bound, params):
    found = discovered(name, bound, **params)
    assert found.status != "verified" and found.verified_bound is None
    if found.status == "refuted":
        assert_refuted_for_real(found)
        assert found.best_partial is not None
    else:
        assert found.rule is None
        assert found.best_partial is not None and found.best_partial.train_accuracy < 1


@pytest.mark.parametrize("name, bound, params", [
    ("nim", None, {"heaps": 3}), ("nim", None, {"heaps": 3, "misere": True}), ("wythoff", None, {}),
    ("euclid", None, {}), ("subtraction", None, {"subtract": (1, 3, 4)}), ("chomp", None, {"rows": 2}),
    ("moore", None, {"heaps": 3, "k": 2}), ("lasker", None, {}),
])
def test_printed_rules_name_only_the_games_coordinates(name, bound, params):
    """Internal feature names (xor_all, sorted3, spread, ...) never reach the user: the text and LaTeX, printed
    and in the JSON record, are written over the game's coordinates (counts as #{non-zero}, #{> 1})."""
    found = discovered(name, bound, **params)
    record = found.to_record()["rule"]
    shown = " ".join([found.rule.text(), found.rule.latex(), record["text"], record["latex"]])
    internal = [n for n in DERIVED if re.search(rf"\b{n}\b", shown)] + re.findall(r"sorted_?\d", shown)
    assert not internal, (internal, shown)
    assert {s.name for s in expand_derived(found.rule.expr, found.game.feature_names).free_symbols} <= \
        set(found.game.feature_names) | {"nonzero", "big"}
