"""Numbers over repeated runs: means with 95% intervals, settings ranked by a metric, mean curves with bands.

A run is a record with ``setting`` (the index of its parameters), ``params``, ``seed``, ``final``
(metric -> number) and ``curve`` (column -> list, ``episode`` first). Each interval fits its quantity, and every
one comes from statsmodels (no formula is written here):

- a share counted once, k of n items (positions, games), gets Wilson's score interval (``share_interval``,
  ``proportion_confint``);
- a mean over seeds of shares each counted on ``trials`` items (a win rate over 200 games: ``trials=200``) gets
  Wilson's interval of the pooled count (k_1 + ... + k_m of m * trials), widened to hold the t interval over the
  seeds where they differ more than the counting would: never a zero width, even when every seed won every game;
- a mean over seeds of other numbers gets Student's t interval (``DescrStatsW.tconfint_mean``), cut to the range
  the numbers can take (a share's [0, 1]), only where the sample allows one: with one value it is "n = 1", with
  values all equal "all equal", never an interval of zero width;
- a mean of counts over seeds (``count=True``: deviations, episodes) gets the exact Poisson interval of their
  total (``confint_poisson``, "exact-c") divided by the number of seeds, widened to hold the t interval where the
  seeds differ more than a Poisson count would; counts print without decimals where whole.

A sweep's win rates know their games from the curve's ``eval_games`` column (``TRIALS``, ``share_trials``).
Every interval of the toolkit's reports comes from here and prints as ``mean [low, high]`` (``interval_text``).
The sweeps (``learners.sweep``) and the Nim study rank their settings with these; the figure of mean curves
with bands is ``discover.app.render.curves.band_figure``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["mean_interval", "share_interval", "interval", "interval_note", "interval_text", "format_interval",
           "format_metric", "SHARE", "TRIALS", "share_trials", "metric_range", "is_count", "lower_is_better",
           "rank_settings", "mean_curves"]

SHARE = (0.0, 1.0)  # the range of a share, a rate or an accuracy: intervals are cut to it
COUNTS = ("deviations", "episodes")  # words of the metrics that count things (never negative, whole numbers)
#: a metric's prefix -> the curve column holding the items each of its values was counted on
TRIALS = {"win_rate": "eval_games"}


def interval_note(values) -> str | None:
    """Why a mean over ``values`` has no t interval: ``"n = 1"``, ``"all equal"`` (``"no values"``); None when it
    has one.

    Examples
    --------
    >>> interval_note([0.5]), interval_note([1.0, 1.0, 1.0]), interval_note([0.5, 0.7])
    ('n = 1', 'all equal', None)
    """
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return "no values"
    if x.size == 1:
        return "n = 1"
    return "all equal" if np.ptp(x) == 0 else None


def mean_interval(values, within=(-math.inf, math.inf), count: bool = False,
                  trials: int | None = None) -> tuple[float, float, float]:
    """The mean of ``values`` and the two ends of its 95% interval, cut to the range ``within`` the numbers can
    take (``SHARE`` for shares); NaN ends where the sample allows no t interval (``interval_note``), except for
    counts (``count``: whole numbers >= 0), whose exact Poisson interval always exists, and for shares each counted
    on ``trials`` items, whose pooled Wilson interval always exists.

    Examples
    --------
    >>> [round(x, 3) for x in mean_interval([0.5, 0.7, 0.6])]
    [0.6, 0.352, 0.848]
    >>> [round(x, 3) for x in mean_interval([0.8, 0.9, 1.0], within=SHARE)]
    [0.9, 0.652, 1.0]
    >>> mean_interval([1.0, 1.0, 1.0], within=SHARE)
    (1.0, nan, nan)
    >>> [round(x, 4) for x in mean_interval([1.0, 1.0, 1.0], trials=200)]  # 600 of 600 games: Wilson, not zero
    [1.0, 0.9936, 1.0]
    >>> [round(x, 3) for x in mean_interval([0.9, 0.5, 0.7], trials=200)]  # seeds far apart: the t interval
    [0.7, 0.203, 1.0]
    >>> [round(x, 3) for x in mean_interval([0, 0, 0, 0, 2], count=True)]
    [0.4, 0.0, 1.511]
    >>> [round(x, 3) for x in mean_interval([0, 0, 0, 0, 0], count=True)]
    [0.0, 0.0, 0.738]
    """
    x = np.asarray(values, dtype=float)
    mean = float(x.mean()) if x.size else math.nan
    low = high = math.nan
    if interval_note(x) is None:
        from statsmodels.stats.weightstats import DescrStatsW

        low, high = (float(v) for v in DescrStatsW(x).tconfint_mean(alpha=0.05))
    pooled = None
    if count and x.size:
        if (x < 0).any() or (x != np.round(x)).any():
            raise ValueError(f"counts are whole numbers >= 0, got {x.tolist()}")
        from statsmodels.stats.rates import confint_poisson

        pooled = confint_poisson(int(x.sum()), x.size, method="exact-c")
    elif trials is not None and x.size:
        pooled = _pooled_share(x, trials)
    if pooled is not None:
        lo, hi = (float(v) for v in pooled)
        low, high = (lo, hi) if math.isnan(low) else (min(low, lo), max(high, hi))
    if math.isnan(low):
        return mean, low, high
    return mean, max(low, within[0], 0.0 if count or trials else -math.inf), min(high, within[1], 1.0 if trials
                                                                                  else math.inf)


def _pooled_share(x: np.ndarray, trials) -> tuple[float, float]:
    """Wilson's 95% interval of the share counted over every seed: sum(x_i * trials) of len(x) * trials items."""
    from statsmodels.stats.proportion import proportion_confint

    from cgbase.validation import positive_int

    trials = positive_int(trials, "trials")
    counted = x * trials
    if (x < 0).any() or (x > 1).any() or (np.abs(counted - np.round(counted)) > 1e-6 * trials).any():
        raise ValueError(f"shares of {trials} items each are k / {trials} for whole k in [0, {trials}], got "
                         f"{x.tolist()[:5]}")
    return proportion_confint(int(np.round(counted).sum()), trials * x.size, alpha=0.05, method="wilson")


def share_interval(k: int, n: int) -> tuple[float, float, float]:
    """The share ``k / n`` of counted items (positions, games) and its 95% Wilson score interval, inside [0, 1].

    Examples
    --------
    >>> [round(x, 3) for x in share_interval(9, 10)]
    [0.9, 0.596, 0.982]
    >>> share_interval(0, 0)
    Traceback (most recent call last):
    ...
    ValueError: a share needs at least one item: got k = 0 of n = 0
    """
    from statsmodels.stats.proportion import proportion_confint

    if not 0 <= k <= n or n < 1:
        raise ValueError(f"a share needs at least one item: got k = {k} of n = {n}")
    low, high = proportion_confint(int(k), int(n), alpha=0.05, method="wilson")
    return k / n, float(low), float(high)


def interval(values, within=(-math.inf, math.inf), count: bool = False, trials: int | None = None) -> dict:
    """``mean_interval`` as a record, over the finite numbers of ``values`` (None and NaN left out): ``mean``,
    ``low``, ``high``, ``n``, ``note`` (``interval_note``: why there is no interval) and the ``values`` kept.

    Examples
    --------
    >>> {k: round(v, 3) for k, v in interval([0.8, 0.9, None, 1.0], SHARE).items() if k not in ("values", "note")}
    {'mean': 0.9, 'low': 0.652, 'high': 1.0, 'n': 3}
    >>> interval([1.0, 1.0], SHARE)["note"]
    'all equal'
    """
    x = [float(v) for v in values if v is not None and np.isfinite(v)]
    mean, low, high = mean_interval(x, within, count, trials)
    return {"mean": mean, "low": low, "high": high, "n": len(x), "values": x,
            "note": None if not math.isnan(low) else interval_note(x)}


def _number(x: float, digits: int, count: bool) -> str:
    return str(int(round(x))) if count and x == round(x) else f"{x:.{1 if count else digits}f}"


def interval_text(mean: float, low: float, high: float, digits: int = 3, note: str | None = None,
                  count: bool = False) -> str:
    """``mean [low, high]``; ``mean (note)`` when there is no interval (NaN ends: ``note`` says why, such as
    ``"n = 1"`` or ``"all equal"``), ``-`` with no mean. Counts print with one decimal, whole numbers with none.

    Examples
    --------
    >>> interval_text(0.9, 0.652, 1.0), interval_text(0.5, float("nan"), float("nan"), 2, "n = 1")
    ('0.900 [0.652, 1.000]', '0.50 (n = 1)')
    >>> interval_text(55.6, 52.94, 58.26, count=True), interval_text(3, 1.5, 4.8, count=True)
    ('55.6 [52.9, 58.3]', '3 [1.5, 4.8]')
    """
    if math.isnan(mean):
        return "-"
    if math.isnan(low) or math.isnan(high):
        return _number(mean, digits, count) + (f" ({note})" if note else "")
    return f"{_number(mean, digits, count)} [{_number(low, digits, count)}, {_number(high, digits, count)}]"


def format_interval(values, digits: int = 3, within=(-math.inf, math.inf), count: bool = False,
                    trials: int | None = None) -> str:
    """``mean [low, high]`` of ``values`` (``mean (n = 1)`` for one value, ``mean (all equal)`` for equal ones), the
    interval of ``mean_interval`` cut to the range ``within`` the numbers can take (``SHARE`` for a rate).

    Examples
    --------
    >>> format_interval([0.5, 0.7, 0.6]), format_interval([0.9, 1.0, 1.0], within=SHARE)
    ('0.600 [0.352, 0.848]', '0.967 [0.823, 1.000]')
    >>> format_interval([1.0, 1.0, 1.0], within=SHARE), format_interval([4, 4], count=True)
    ('1.000 (all equal)', '4 [1.7, 7.9]')
    >>> format_interval([1.0, 1.0, 1.0], within=SHARE, trials=1000)
    '1.000 [0.999, 1.000]'
    """
    return interval_text(*mean_interval(values, within, count, trials), digits, interval_note(values), count)


def format_metric(values, metric: str, digits: int = 3, trials: int | None = None) -> str:
    """``format_interval`` of a metric's values over seeds, with the metric's range and, for a count, the interval
    for counts; for a share counted on ``trials`` items each (``share_trials``), the pooled Wilson interval (NaN
    values left out).

    Examples
    --------
    >>> format_metric([55, 58, 54], "deviations"), format_metric([1.0, 1.0], "win_rate_random")
    ('55.7 [47.5, 64.8]', '1.000 (all equal)')
    >>> format_metric([1.0, 1.0], "win_rate_random", trials=200)
    '1.000 [0.990, 1.000]'
    """
    x = [float(v) for v in values if v is not None and np.isfinite(v)]
    return format_interval(x, digits, metric_range(metric), is_count(metric), trials) if x else "-"


def share_trials(runs: list, metric: str, point: int = -1) -> int | None:
    """The items each value of ``metric`` was counted on at curve ``point`` (the end by default), read from the
    runs' curves (``TRIALS``: a win rate's ``eval_games``); None when the metric is not such a share or the runs
    do not record it, or record different numbers.

    Examples
    --------
    >>> runs = [{"curve": {"win_rate_random": [0.5, 1.0], "eval_games": [200, 200]}}] * 2
    >>> share_trials(runs, "win_rate_random"), share_trials(runs, "deviations")
    (200, None)
    """
    column = next((c for prefix, c in TRIALS.items() if metric.startswith(prefix)), None)
    if column is None or not runs or not all(column in run["curve"] for run in runs):
        return None
    counts = {run["curve"][column][point] for run in runs}
    return int(counts.pop()) if len(counts) == 1 and None not in counts else None


def metric_range(metric: str) -> tuple[float, float]:
    """The range a metric's values can take: ``SHARE`` for rates, shares and accuracies, else [0, inf) (counts,
    seconds, games).

    Examples
    --------
    >>> metric_range("win_rate_random"), metric_range("deviations")
    ((0.0, 1.0), (0.0, inf))
    """
    return SHARE if any(word in metric for word in ("rate", "share", "accuracy")) else (0.0, math.inf)


def is_count(metric: str) -> bool:
    """Whether a metric counts things (deviations, episodes): its mean gets an interval for counts.

    Examples
    --------
    >>> is_count("deviations"), is_count("episodes_to_optimal"), is_count("win_rate_random")
    (True, True, False)
    """
    return any(word in metric for word in COUNTS) and metric_range(metric) != SHARE


def lower_is_better(metric: str) -> bool:
    """Whether a smaller ``metric`` is the better one (deviations, losses, games to optimal play).

    Examples
    --------
    >>> lower_is_better("deviations"), lower_is_better("win_rate_optimal")
    (True, False)
    """
    return any(word in metric for word in ("deviations", "loss", "episodes_to"))


def rank_settings(runs: list, metric: str) -> list[dict]:
    """The settings of ``runs``, best first by the mean of ``metric`` over their seeds.

    Each is ``{"setting", "params", "runs": [...], "values": {metric: [one per seed]}}``; a metric
    missing (or None) in some run of a setting is left out of its values.

    Examples
    --------
    >>> runs = [{"setting": s, "params": {"a": s}, "seed": k, "final": {"m": s + k}, "curve": {}}
    ...         for s in range(3) for k in range(2)]
    >>> [s["params"]["a"] for s in rank_settings(runs, "m")]
    [2, 1, 0]
    """
    groups: dict[int, dict] = {}
    for run in sorted(runs, key=lambda r: (r["setting"], r["seed"])):
        group = groups.setdefault(run["setting"], {"setting": run["setting"], "params": run["params"], "runs": []})
        group["runs"].append(run)
    for group in groups.values():
        names = dict.fromkeys(k for run in group["runs"] for k in run["final"])
        group["values"] = {k: [run["final"][k] for run in group["runs"]] for k in names
                           if all(isinstance(run["final"].get(k), (int, float)) for run in group["runs"])}
    known = [g for g in groups.values() if metric in g["values"]]
    if not known:
        raise ValueError(f"no run has the metric {metric!r}: use one of "
                         f"{', '.join(sorted({k for g in groups.values() for k in g['values']}))}")
    sign = 1.0 if lower_is_better(metric) else -1.0
    return sorted(known, key=lambda g: (sign * float(np.mean(g["values"][metric])), g["setting"]))


def mean_curves(setting: dict, metric: str):
    """Episodes, and the mean of ``metric`` over the setting's seeds with its 95% band (cut to ``metric_range``), at
    every point of the curve the seeds share; None when the curves do not hold ``metric``."""
    curves = [run["curve"] for run in setting["runs"]]
    if not all(metric in c for c in curves):
        return None
    length = min(len(c["episode"]) for c in curves)
    values = np.array([np.asarray(c[metric][:length], dtype=float) for c in curves])
    bands = np.array([mean_interval(column, metric_range(metric), is_count(metric) and np.isfinite(column).all(),
                                    share_trials(setting["runs"], metric, point) if np.isfinite(column).all()
                                    else None)
                      for point, column in enumerate(values.T)]).reshape(-1, 3)
    return np.asarray(curves[0]["episode"][:length]), bands[:, 0], bands[:, 1], bands[:, 2]
