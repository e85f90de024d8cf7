"""Learning-curve figures: the records of learners' ``history_`` against episodes."""

from __future__ import annotations

import numpy as np

__all__ = ["curve_figure"]

PANELS = (("optimal_move_rate", "optimal-move rate in play (N positions)"),
          ("deviations", "optimality deviations (greedy policy)"),
          ("win_rate_optimal", "win rate against the optimal player (from N positions)"))


def curve_figure(histories: dict, path, title: str) -> str:
    """One panel per metric of ``PANELS``, one line per learner (name -> history records).

    Examples
    --------
    >>> import os, tempfile
    >>> history = [{"episode": e, "optimal_move_rate": 0.5, "deviations": 9 - e, "win_rate_optimal": 0.1 * e}
    ...            for e in range(1, 10)]
    >>> out = os.path.join(tempfile.mkdtemp(), "curve.png")
    >>> curve_figure({"q": history}, out, "test") == out
    True
    """
    from discover.render.figure import check_figure_path, new_figure, save_figure

    check_figure_path(path)
    fig, axes = new_figure(15, 4.4, cols=len(PANELS))
    for ax, (key, label) in zip(axes, PANELS):
        for name, history in histories.items():
            x = np.array([r["episode"] for r in history])
            y = np.array([r.get(key, np.nan) for r in history], dtype=float)
            ax.plot(x, y, label=name, linewidth=1.4)
        ax.set_xlabel("episodes (games)")
        ax.set_title(label, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=9)
    fig.suptitle(title, fontsize=11)
    return save_figure(fig, path)
