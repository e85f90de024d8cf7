"""Learning-curve figures: the records of learners' ``history_`` against episodes, one run each (``curve_figure``)
or a setting's mean over its seeds with a 95% band (``band_figure``, the sweeps' figure)."""

from __future__ import annotations

import numpy as np

__all__ = ["curve_figure", "band_figure", "PANELS", "axis_label"]

PANELS = (("optimal_move_rate", "optimal-move rate in play (N positions)"),
          ("deviations", "optimality deviations (greedy policy)"),
          ("win_rate_optimal", "win rate against the optimal player (from N positions)"))
#: what a metric's y-axis counts (a metric not listed is named by its key)
AXIS_LABELS = {"optimal_move_rate": "share of moves optimal", "deviations": "positions",
               "win_rate_optimal": "share of games won", "win_rate_random": "share of games won"}


def axis_label(metric: str) -> str:
    """The y-axis label of a learning-curve metric.

    Examples
    --------
    >>> axis_label("deviations"), axis_label("update_cost")
    ('positions', 'update cost')
    """
    return AXIS_LABELS.get(metric, metric.replace("_", " "))


def curve_figure(histories: dict, path, title: str) -> str:
    """One panel per metric of ``PANELS``, one line per learner (name -> history records): one run each, which the
    title says (no band without seeds to spread it).

    Examples
    --------
    >>> import os, tempfile
    >>> history = [{"episode": e, "optimal_move_rate": 0.5, "deviations": 9 - e, "win_rate_optimal": 0.1 * e}
    ...            for e in range(1, 10)]
    >>> out = os.path.join(tempfile.mkdtemp(), "curve.png")
    >>> curve_figure({"q": history}, out, "test") == out
    True
    """
    from discover.app.render.figure import check_figure_path, new_figure, save_figure, shared_legend, wrapped

    check_figure_path(path)
    fig, axes = new_figure(15, 4.4, cols=len(PANELS))
    for ax, (key, label) in zip(axes, PANELS):
        for name, history in histories.items():
            x = np.array([r["episode"] for r in history])
            y = np.array([r.get(key, np.nan) for r in history], dtype=float)
            ax.plot(x, y, label=name, linewidth=1.4)
        if "rate" in key:  # shares: every rate panel on the same scale, 0 to 1
            ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("episodes (games)")
        ax.set_ylabel(axis_label(key))
        ax.set_title(wrapped(label, fig.get_figwidth() / 2, 10), fontsize=10)
        ax.grid(alpha=0.3)
    shared_legend(fig, axes[0])
    fig.suptitle(wrapped(f"{title} (one run each, one seed: no band)", fig.get_figwidth(), 11), fontsize=11)
    return save_figure(fig, path)


def band_figure(panels: list, path, title: str, width: float = 15) -> str:
    """Learning curves with bands: ``panels`` is a list of ``(title, metric, [(label, setting), ...])`` or
    ``(title, metric, lines, others)``; each line is a setting's mean over its seeds, the shaded band its 95%
    interval (cut to the metric's range), a setting of one seed says so in its label (no band);
    ``others`` (settings) are drawn behind as thin grey lines without bands.
    Panels of one metric share their y-axis, so that they compare at a glance; one legend under the panels when
    they draw the same lines, else each legend under its panel.

    Examples
    --------
    >>> import os, tempfile
    >>> runs = [{"setting": 0, "params": {}, "seed": k, "final": {}, "curve": {"episode": [1, 2], "m": [k, 2 * k]}}
    ...         for k in range(3)]
    >>> from learners.repeats import rank_settings
    >>> setting = rank_settings([{**r, "final": {"m": 1}} for r in runs], "m")[0]
    >>> out = os.path.join(tempfile.mkdtemp(), "bands.png")
    >>> band_figure([("m", "m", [("a", setting)])], out, "test") == out
    True
    """
    from discover.app.render.figure import check_figure_path, legend_below, new_figure, save_figure, shared_legend, wrapped
    from learners.repeats import mean_curves

    check_figure_path(path)
    fig, axes = new_figure(width, 4.4, cols=len(panels), sharey=len({p[1] for p in panels}) == 1)
    same_lines = len({tuple(label for label, _ in p[2]) for p in panels}) == 1
    for ax, (panel_title, metric, lines, *others) in zip(axes, panels):
        for setting in others[0] if others else []:
            curve = mean_curves(setting, metric)
            if curve is not None:
                ax.plot(curve[0], curve[1], color="0.75", linewidth=0.6, zorder=0)
        for label, setting in lines:
            curve = mean_curves(setting, metric)
            if curve is None:
                continue
            x, mean, low, high = curve
            seeds = len(setting["runs"])
            (line,) = ax.plot(x, mean, label=label if seeds > 1 else f"{label} (one seed: no band)", linewidth=1.4)
            if not np.isnan(low).all():
                ax.fill_between(x, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
        ax.set_xlabel("episodes (games)")
        if not ax.get_shared_y_axes().get_siblings(ax)[1:] or ax.get_subplotspec().is_first_col():
            ax.set_ylabel(axis_label(metric))
        ax.set_title(wrapped(panel_title, fig.get_figwidth() / min(len(panels), 2), 10), fontsize=10)
        ax.grid(alpha=0.3)
        if not same_lines:
            legend_below(ax, columns=1, fontsize=7)
    if same_lines:
        shared_legend(fig, axes[0], columns=2, fontsize=7)
    fig.suptitle(wrapped(title, fig.get_figwidth(), 11), fontsize=11)
    return save_figure(fig, path)
