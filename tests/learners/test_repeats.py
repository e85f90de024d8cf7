"""Issue 39: every interval fits its quantity (shares, counts, means over seeds), never of zero width presented as
certainty and never outside the quantity's range; counts print without decimals where whole."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chi2

from discover.app.render.sweep import settings_table
from learners.repeats import (SHARE, format_interval, format_metric, interval, interval_note, mean_interval,
                              rank_settings, share_interval)


@pytest.mark.parametrize("values, note", [([0.7], "n = 1"), ([1.0, 1.0, 1.0], "all equal"), ([0.0] * 4, "all equal")])
def test_a_mean_without_spread_has_no_interval_and_says_why(values, note):
    mean, low, high = mean_interval(values, SHARE)
    assert mean == values[0] and math.isnan(low) and math.isnan(high)
    assert interval_note(values) == note and interval(values, SHARE)["note"] == note
    assert format_interval(values, within=SHARE) == f"{values[0]:.3f} ({note})"


@pytest.mark.parametrize("counts", [[0, 0, 0, 0, 2], [0, 0, 0], [7], [3, 3, 3], [55, 58, 54, 60, 52]])
def test_a_count_gets_the_exact_poisson_interval_of_its_total_at_least(counts):
    """Garwood's exact interval of the total, from chi-square quantiles, checked independently of statsmodels."""
    n, total = len(counts), sum(counts)
    poisson_low = chi2.ppf(0.025, 2 * total) / 2 / n if total else 0.0
    poisson_high = chi2.ppf(0.975, 2 * total + 2) / 2 / n
    mean, low, high = mean_interval(counts, (0.0, math.inf), count=True)
    assert mean == pytest.approx(total / n)
    assert 0.0 <= low <= poisson_low + 1e-9 and high >= poisson_high - 1e-9
    assert high > low  # never a width of zero, even for one count or equal counts
    assert low <= mean <= high


def test_counts_must_be_whole_numbers():
    with pytest.raises(ValueError, match="whole numbers"):
        mean_interval([0.5, 2], count=True)


def test_random_samples_never_leave_their_range():
    rng = np.random.default_rng(39)
    for _ in range(200):
        n = int(rng.integers(1, 8))
        shares = rng.choice([0.0, 0.5, 0.9, 1.0], size=n)
        _, low, high = mean_interval(shares, SHARE)
        assert math.isnan(low) or 0.0 <= low <= high <= 1.0
        counts = rng.poisson(0.5, size=n)
        _, low, high = mean_interval(counts, (0.0, math.inf), count=True)
        assert 0.0 <= low < high
    for k in range(11):
        share, low, high = share_interval(k, 10)
        assert 0.0 <= low < high <= 1.0 and low <= share <= high


@pytest.mark.parametrize("values, metric, text", [
    ([4, 4, 4], "deviations", "4 [2.1, 7.0]"),
    ([55, 58, 54], "deviations", "55.7 [47.5, 64.8]"),
    ([1.0, 1.0], "win_rate_random", "1.000 (all equal)"),
    ([0.5], "optimal_move_rate", "0.500 (n = 1)"),
    ([None, float("nan")], "deviations", "-"),
])
def test_metrics_print_as_their_kind(values, metric, text):
    assert format_metric(values, metric) == text


def test_the_sweep_table_shows_no_zero_width_interval_and_whole_counts():
    runs = [{"setting": 0, "params": {"alpha": 0.5}, "seed": k,
             "final": {"deviations": 3, "win_rate_random": 1.0, "optimal_move_rate": 0.5 + k / 10}, "curve": {}}
            for k in range(3)]
    headers, rows = settings_table(rank_settings(runs, "deviations"), "deviations", ["alpha"])
    cells = dict(zip(headers, rows[0]))
    assert cells["deviations at the end"].startswith("3 [") and ".000" not in cells["deviations at the end"]
    assert cells["win rate against random"] == "1.000 (all equal)"
    assert "[1.000, 1.000]" not in " ".join(rows[0])


@pytest.mark.parametrize("shares, trials", [([1.0, 1.0, 1.0], 200), ([0.0, 0.0], 50), ([0.9, 0.5, 0.7], 200),
                                            ([0.41, 0.43, 0.42, 0.40], 100), ([0.75], 4)])
def test_a_win_rate_over_seeds_counts_its_games(shares, trials):
    """Wilson's interval of the games won over every seed (checked here from the formula, apart from statsmodels),
    widened to the t interval where the seeds differ more: inside [0, 1], never of zero width."""
    k, n, z = round(sum(shares) * trials), len(shares) * trials, 1.959963984540054
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    mean, low, high = mean_interval(shares, SHARE, trials=trials)
    assert mean == pytest.approx(k / n)
    assert 0.0 <= low <= centre - half + 1e-9 and centre + half - 1e-9 <= high <= 1.0
    assert low < high and low <= mean <= high
    t_low, t_high = mean_interval(shares, SHARE)[1:]
    assert math.isnan(t_low) or (low <= t_low + 1e-12 and t_high - 1e-12 <= high)


def test_a_win_rate_must_be_a_share_of_its_games():
    with pytest.raises(ValueError, match="k / 200"):
        mean_interval([0.5, 0.1234], SHARE, trials=200)


def test_the_sweep_table_counts_the_games_of_its_win_rates():
    """A sweep's curves record the games behind each win rate (``eval_games``): all won is no certainty."""
    runs = [{"setting": 0, "params": {"alpha": 0.5}, "seed": k, "final": {"win_rate_random": 1.0},
             "curve": {"episode": [10], "win_rate_random": [1.0], "eval_games": [200]}} for k in range(3)]
    headers, rows = settings_table(rank_settings(runs, "win_rate_random"), "win_rate_random", ["alpha"])
    assert dict(zip(headers, rows[0]))["win rate against random"] == "1.000 [0.994, 1.000]"
