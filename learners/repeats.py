"""Numbers over repeated runs: means with 95% intervals, settings ranked by a metric, mean curves with bands.

A run is a record with ``setting`` (the index of its parameters), ``params``, ``seed``, ``final``
(metric -> number) and ``curve`` (column -> list, ``episode`` first). The interval of a mean over
``n`` seeds is Student's t interval, ``mean +- t(0.975, n - 1) s / sqrt(n)``, cut to the range the
numbers can take (a share's [0, 1]); one seed has none. A share counted once, k of n items (positions,
games), gets Wilson's score interval (``share_interval``), which lies inside [0, 1] by construction.
Every interval of the toolkit's reports comes from here, and prints as ``mean [low, high]``
(``interval_text``).
The sweeps (``learners.sweep``) and the Nim study rank their settings with these; the figure of mean curves
with bands is ``discover.app.render.curves.band_figure``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["mean_interval", "share_interval", "interval", "interval_text", "format_interval", "SHARE",
           "metric_range", "lower_is_better", "rank_settings", "mean_curves"]

SHARE = (0.0, 1.0)  # the range of a share, a rate or an accuracy: intervals are cut to it


def mean_interval(values, within=(-math.inf, math.inf)) -> tuple[float, float, float]:
    """The mean of ``values`` and the two ends of its 95% t interval, cut to the range ``within`` the numbers can
    take (``SHARE`` for shares); NaN ends for fewer than two values.

    Examples
    --------
    >>> [round(x, 3) for x in mean_interval([0.5, 0.7, 0.6])]
    [0.6, 0.352, 0.848]
    >>> [round(x, 3) for x in mean_interval([0.8, 0.9, 1.0], within=SHARE)]
    [0.9, 0.652, 1.0]
    """
    from scipy.stats import t

    x = np.asarray(values, dtype=float)
    mean = float(x.mean()) if x.size else math.nan
    if x.size < 2:
        return mean, math.nan, math.nan
    half = float(t.ppf(0.975, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
    return mean, max(mean - half, within[0]), min(mean + half, within[1])


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
    from scipy.stats import binomtest

    if not 0 <= k <= n or n < 1:
        raise ValueError(f"a share needs at least one item: got k = {k} of n = {n}")
    ci = binomtest(int(k), int(n)).proportion_ci(method="wilson")
    return k / n, float(ci.low), float(ci.high)


def interval(values, within=(-math.inf, math.inf)) -> dict:
    """``mean_interval`` as a record, over the finite numbers of ``values`` (None and NaN left out): ``mean``,
    ``low``, ``high``, ``n`` and the ``values`` kept.

    Examples
    --------
    >>> {k: round(v, 3) for k, v in interval([0.8, 0.9, None, 1.0], SHARE).items() if k != "values"}
    {'mean': 0.9, 'low': 0.652, 'high': 1.0, 'n': 3}
    """
    x = [float(v) for v in values if v is not None and np.isfinite(v)]
    mean, low, high = mean_interval(x, within)
    return {"mean": mean, "low": low, "high": high, "n": len(x), "values": x}


def interval_text(mean: float, low: float, high: float, digits: int = 3) -> str:
    """``mean [low, high]``; ``mean`` alone when the interval is unknown (NaN: one seed), ``-`` with no mean.

    Examples
    --------
    >>> interval_text(0.9, 0.652, 1.0), interval_text(0.5, float("nan"), float("nan"), 2)
    ('0.900 [0.652, 1.000]', '0.50')
    """
    if math.isnan(mean):
        return "-"
    if math.isnan(low) or math.isnan(high):
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def format_interval(values, digits: int = 3, within=(-math.inf, math.inf)) -> str:
    """``mean [low, high]`` of ``values`` (``mean`` alone for one value), the t interval cut to the range ``within``
    the numbers can take (``SHARE`` for a rate).

    Examples
    --------
    >>> format_interval([0.5, 0.7, 0.6]), format_interval([0.9, 1.0, 1.0], within=SHARE)
    ('0.600 [0.352, 0.848]', '0.967 [0.823, 1.000]')
    """
    return interval_text(*mean_interval(values, within), digits)


def metric_range(metric: str) -> tuple[float, float]:
    """The range a metric's values can take: ``SHARE`` for rates, shares and accuracies, else [0, inf) (counts,
    seconds, games).

    Examples
    --------
    >>> metric_range("win_rate_random"), metric_range("deviations")
    ((0.0, 1.0), (0.0, inf))
    """
    return SHARE if any(word in metric for word in ("rate", "share", "accuracy")) else (0.0, math.inf)


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
    bands = np.array([mean_interval(column, metric_range(metric)) for column in values.T]).reshape(-1, 3)
    return np.asarray(curves[0]["episode"][:length]), bands[:, 0], bands[:, 1], bands[:, 2]
