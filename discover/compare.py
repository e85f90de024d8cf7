"""Learned against exact: how far a learner's partition and policy are from the solver's.

The learned partition thresholds the value table with a confidence (P at most
``-confidence``, N at least ``confidence``, unsure between), as seed 000 builds its dataset.
The scores: accuracy over the whole universe (unsure counts as wrong), coverage and
accuracy on the confident positions, the optimal-move rate (N positions where every
greedy move reaches a P position) with seed 002's deviation count, and the confusion counts.
"""

from __future__ import annotations

import numpy as np

__all__ = ["compare", "compare_figure"]

_LEARNED = ("P", "N", "unsure")


def compare(value_table, solution=None, confidence: float = 0.3) -> dict:
    """Scores of a ``ValueTable`` against the exact solution of the same universe.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import QLearner
    >>> table = QLearner(random_state=0).fit(make_game("nim", heaps=2), bound=3, episodes=3000).value_table_
    >>> scores = compare(table, confidence=0.5)
    >>> scores["accuracy"], scores["deviations"], scores["confusion"]["P"]
    (1.0, 0, {'P': 4, 'N': 0, 'unsure': 0})
    """
    from learners import Arena
    from learners.metrics import deviations

    arena = Arena(value_table.game, value_table.bound, solution)
    if arena.universe != value_table.universe:
        raise ValueError(f"the solution covers {arena.universe!r}, the value table {value_table.universe!r}")
    learned = value_table.partition(confidence)
    exact = arena.outcome
    wins = (exact == 1) & (np.diff(arena.indptr) > 0)
    wrong = deviations(arena, arena.best_edges(value_table.q))
    sure = learned != 0
    rows = {"P": exact == -1, "N": exact == 1, "draw": exact == 0}
    columns = {"P": learned == -1, "N": learned == 1, "unsure": learned == 0}
    confusion = {r: {c: int((rm & cm).sum()) for c, cm in columns.items()} for r, rm in rows.items() if rm.any()}
    return {
        "game": repr(value_table.game), "bound": value_table.bound, "confidence": confidence,
        "positions": int(exact.size),
        "accuracy": float(np.mean(learned == exact)),
        "coverage": float(np.mean(sure)),
        "accuracy_confident": float(np.mean(learned[sure] == exact[sure])) if sure.any() else float("nan"),
        "optimal_move_rate": float(1 - wrong / wins.sum()) if wins.any() else float("nan"),
        "deviations": int(wrong),
        "confusion": confusion,
        "learner": value_table.meta,
    }


def compare_figure(value_table, path, solution=None, confidence: float = 0.3) -> str:
    """Exact | learned | disagreement, side by side, for a game of one or two coordinates.

    Examples
    --------
    >>> import os, tempfile
    >>> from games import make_game
    >>> from learners import QLearner
    >>> table = QLearner(random_state=0).fit(make_game("wythoff"), bound=6, episodes=3000).value_table_
    >>> out = os.path.join(tempfile.mkdtemp(), "compare.png")
    >>> compare_figure(table, out) == out
    True
    """
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    from discover.figures import _cells, _label_axes, _panels
    from discover.plots import check_plot_path, save_figure
    from solvers import solve

    game, universe = value_table.game, value_table.universe
    fmt = check_plot_path(path, universe.dims)
    solution = solve(game, bound=value_table.bound) if solution is None else solution
    exact = solution.outcome_table
    learned = value_table.partition(confidence)
    sure = learned != 0
    codes = [
        np.where(exact == -1, 1, np.where(exact == 1, 0, 2)),
        np.where(learned == -1, 1, np.where(learned == 1, 0, 2)),
        np.where(~sure, 2, np.where(learned == exact, np.where(exact == -1, 1, 0), np.where(learned == -1, 3, 4))),
    ]
    palettes = [
        [("N", "#ffffff"), ("P", "#1f3a93"), ("draw", "#e08a00")],
        [("learned N", "#ffffff"), ("learned P", "#1f3a93"), (f"unsure (|value| < {confidence})", "#bdbdbd")],
        [("agree: N", "#ffffff"), ("agree: P", "#b9c7ea"), ("unsure", "#bdbdbd"),
         ("learned P, exact N", "#d62728"), ("learned N, exact P", "#7b2cbf")],
    ]
    titles = ["exact (solver)", f"learned ({value_table.meta.get('learner', 'learner')})", "disagreement"]
    panel = _panels(game, universe)[0]
    fig = Figure(figsize=(18, 6.8) if universe.dims == 2 else (14, 5), layout="constrained")
    axes = fig.subplots(3 if universe.dims == 1 else 1, 1 if universe.dims == 1 else 3, squeeze=False).ravel()
    for ax, code, palette, title in zip(axes, codes, palettes, titles):
        grid = _cells(panel, code) - 1
        shown = np.ma.masked_less(grid, 0)
        ax.imshow(shown, origin="lower", cmap=ListedColormap([c for _, c in palette]), vmin=-0.5,
                  vmax=len(palette) - 0.5, interpolation="nearest",
                  aspect="auto" if universe.dims == 1 else "equal")
        _label_axes(ax, game, universe.dims)
        ax.set_title(title, fontsize=11)
        counts = np.bincount(code, minlength=len(palette))
        ax.legend(handles=[Patch(facecolor=c, edgecolor="#555555", label=f"{n} ({counts[i]:,})")
                           for i, (n, c) in enumerate(palette) if counts[i]],
                  loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=8, frameon=False)
    fig.suptitle(f"{game!r}, bound {value_table.bound}: learned against exact", fontsize=12)
    return save_figure(fig, path, fmt)
