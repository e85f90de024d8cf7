"""Numbers over repeated runs: means with 95% intervals, settings ranked by a metric, mean curves with bands.

A run is a record with ``setting`` (the index of its parameters), ``params``, ``seed``, ``final``
(metric -> number) and ``curve`` (column -> list, ``episode`` first). The interval of a mean over
``n`` seeds is Student's t interval, ``mean +- t(0.975, n - 1) s / sqrt(n)``; one seed has none.
The sweeps (``learners.sweep``) and the Nim study rank their settings with these; the figure of mean curves
with bands is ``discover.render.curves.band_figure``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["mean_interval", "lower_is_better", "rank_settings", "mean_curves", "format_interval"]


def mean_interval(values) -> tuple[float, float, float]:
    """The mean of ``values`` and the two ends of its 95% t interval (NaN ends for fewer than two values).

    Examples
    --------
    >>> [round(x, 3) for x in mean_interval([0.5, 0.7, 0.6])]
    [0.6, 0.352, 0.848]
    """
    from scipy.stats import t

    x = np.asarray(values, dtype=float)
    mean = float(x.mean()) if x.size else math.nan
    if x.size < 2:
        return mean, math.nan, math.nan
    half = float(t.ppf(0.975, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
    return mean, mean - half, mean + half


def format_interval(values, digits: int = 3, within=(-math.inf, math.inf)) -> str:
    """``mean [low, high]`` of ``values`` (``mean`` alone for one value), the interval cut to the range ``within``
    the numbers can take (a rate's [0, 1]).

    Examples
    --------
    >>> format_interval([0.5, 0.7, 0.6]), format_interval([0.9, 1.0, 1.0], within=(0, 1))
    ('0.600 [0.352, 0.848]', '0.967 [0.823, 1.000]')
    """
    mean, low, high = mean_interval(values)
    if math.isnan(low):
        return f"{mean:.{digits}f}"
    low, high = max(low, within[0]), min(high, within[1])
    return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


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
    """Episodes, and the mean of ``metric`` over the setting's seeds with its 95% band, at every point of the curve
    the seeds share; None when the curves do not hold ``metric``."""
    curves = [run["curve"] for run in setting["runs"]]
    if not all(metric in c for c in curves):
        return None
    length = min(len(c["episode"]) for c in curves)
    values = np.array([np.asarray(c[metric][:length], dtype=float) for c in curves])
    bands = np.array([mean_interval(column) for column in values.T]).reshape(-1, 3)
    return np.asarray(curves[0]["episode"][:length]), bands[:, 0], bands[:, 1], bands[:, 2]
