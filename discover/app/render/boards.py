"""Figures of a board game's openings: each cell coloured by the value of a first move there.

Hex is drawn as its rhombus of hexagons with the first player's sides (top and bottom) and the
second player's (left and right) marked; square boards as grids, one per Notakto board.
``plot_openings`` draws the exact values (win, loss, draw); ``learned_openings_figure`` draws learned win
probabilities on Hex, one board per learner, the winning openings ringed.
"""

from __future__ import annotations

import numpy as np

from discover.app.render.figure import COLOURS, check_figure_path, new_figure, save_figure, wrapped

__all__ = ["plot_openings", "learned_openings_figure"]

STYLE = {1: (COLOURS["win"], "W", "the move wins"), -1: (COLOURS["loss"], "L", "the move loses"),
         0: (COLOURS["draw"], "D", "a draw")}
NO_MOVE = "#e6e6e6"
FIRST, SECOND = COLOURS["P"], "#8e8e8e"  # side colours of Hex's first and second player
ROW = np.sqrt(3) / 2  # distance between Hex rows, cells 1 apart


def _cell(ax, patch, x, y, value) -> None:
    colour, letter = (NO_MOVE, "") if np.isnan(value) else STYLE[int(value)][:2]
    patch.set(facecolor=colour, edgecolor="white", linewidth=1.5)
    ax.add_patch(patch)
    ax.text(x, y, letter, ha="center", va="center", color="white", fontsize=11, fontweight="bold")


def _draw_hex(ax, values: np.ndarray) -> None:
    _hex_board(ax, values.shape[0], lambda patch, x, y, r, c: _cell(ax, patch, x, y, values[r, c]))


def _hex_board(ax, n: int, draw_cell) -> None:
    """Hex's rhombus of n x n hexagons, ``draw_cell(patch, x, y, row, column)`` filling each, and the sides."""
    from matplotlib.patches import RegularPolygon

    for r in range(n):
        for c in range(n):
            x, y = c + r / 2, -r * ROW
            draw_cell(RegularPolygon((x, y), numVertices=6, radius=1 / np.sqrt(3)), x, y, r, c)
    rows = np.arange(n)
    pad = 0.75
    ax.plot([-0.5, n - 0.5], [pad, pad], color=FIRST, linewidth=4, solid_capstyle="round")
    ax.plot([(n - 1) / 2 - 0.5, (n - 1) * 1.5 + 0.5], [-(n - 1) * ROW - pad] * 2, color=FIRST, linewidth=4,
            solid_capstyle="round")
    ax.plot(rows / 2 - pad, -rows * ROW, color=SECOND, linewidth=4, solid_capstyle="round")
    ax.plot(n - 1 + rows / 2 + pad, -rows * ROW, color=SECOND, linewidth=4, solid_capstyle="round")
    ax.set_xlim(-1.2, (n - 1) * 1.5 + 1.2)
    ax.set_ylim(-(n - 1) * ROW - 1.2, 1.2)


def _draw_squares(ax, values: np.ndarray) -> None:
    from matplotlib.patches import Rectangle

    boards, n, _ = values.shape
    for b in range(boards):
        left = b * (n + 1)
        for r in range(n):
            for c in range(n):
                x, y = left + c, -r
                _cell(ax, Rectangle((x - 0.5, y - 0.5), 1, 1), x, y, values[b, r, c])
    ax.set_xlim(-0.7, boards * (n + 1) - 1.3)
    ax.set_ylim(-n + 0.3, 0.7)


def plot_openings(openings, path) -> str:
    """Draw the value of every first move of a board game into an image file (written atomically);
    return its path.

    Parameters
    ----------
    openings : solvers.openings.Openings
    path : str or path-like
        Target file; the suffix picks the format.

    Examples
    --------
    >>> import os, tempfile
    >>> from solvers.openings import openings
    >>> from games import make_game
    >>> from solvers import solve
    >>> hex3 = make_game("hex", n=3)
    >>> plot_openings(openings(hex3, solve(hex3)), os.path.join(tempfile.mkdtemp(), "hex.svg")).endswith("hex.svg")
    True
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    check_figure_path(path)
    game, values = openings.game, openings.values
    is_hex = getattr(game, "layout", "grid") == "rhombus"
    panels, n = values.shape[0], values.shape[1]
    width = (n - 1) * 1.5 + 2.4 if is_hex else panels * (n + 1)
    fig, (ax,) = new_figure(max(4.5, 0.75 * width + 1), 0.75 * n + 2.2, layout=None)
    (_draw_hex(ax, values[0]) if is_hex else _draw_squares(ax, values))
    ax.set_aspect("equal")
    ax.axis("off")
    present = [v for v in (1, -1, 0) if openings.count(v)]
    handles = [Patch(facecolor=STYLE[v][0], label=f"{STYLE[v][1]}: {STYLE[v][2]} ({openings.count(v)})") for v in present]
    if is_hex:
        handles += [Line2D([], [], color=FIRST, linewidth=4, label="first player's sides"),
                    Line2D([], [], color=SECOND, linewidth=4, label="second player's sides")]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(len(handles), 3),
              fontsize=8, frameon=False)
    ax.set_title(f"First moves of {game.title()}: {openings.count(1)} of {openings.moves} win\n"
                 f"empty board: {openings.winner} ({openings.source}, {openings.seconds:.1f} s)", fontsize=10)
    return save_figure(fig, path)


def learned_openings_figure(panels: dict, wins, path, title: str) -> str:
    """Hex boards of learned first-move values: ``panels`` maps a name (a learner) to the learned win probability
    of each first move (n * n, row by row); every cell is coloured by it (0 red, 1/2 white, 1 green) with the
    number written in, and a black ring marks the openings that win (``wins``, n * n booleans).

    Examples
    --------
    >>> import os, tempfile
    >>> out = os.path.join(tempfile.mkdtemp(), "openings.png")
    >>> q = [0.2, 0.4, 0.9, 0.3, 0.8, 0.3, 0.9, 0.4, 0.2]
    >>> wins = [False, False, True, False, True, False, True, False, False]
    >>> learned_openings_figure({"minimax": q, "joint": q}, wins, out, "test") == out
    True
    """
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    from matplotlib import colormaps

    check_figure_path(path)
    wins = np.asarray(wins, dtype=bool)
    n = int(round(np.sqrt(wins.size)))
    if n * n != wins.size or not panels:
        raise ValueError(f"learned openings need n * n values of a Hex board and at least one learner; got "
                         f"{wins.size} cells and {len(panels)} learners")
    cmap, norm = colormaps["RdYlGn"], Normalize(0.0, 1.0)
    fig, axes = new_figure(3.6 * len(panels), 0.62 * n + 1.0, cols=len(panels))
    for ax, (name, values) in zip(axes, panels.items()):
        q = np.asarray(values, dtype=float).reshape(n, n)

        def draw(patch, x, y, r, c, ax=ax, q=q):
            won = wins[r * n + c]
            patch.set(facecolor=cmap(norm(q[r, c])), edgecolor="black" if won else "white",
                      linewidth=2.2 if won else 1.0, zorder=2 if won else 1)
            ax.add_patch(patch)
            ax.text(x, y, f"{q[r, c]:.2f}", ha="center", va="center", fontsize=7 if n > 4 else 8, zorder=3)

        _hex_board(ax, n, draw)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(name, fontsize=10)
    fig.colorbar(ScalarMappable(norm, cmap), ax=axes, location="bottom", shrink=0.5, aspect=40,
                 label=wrapped(f"learned win probability of the first move (ringed: the {int(wins.sum())} openings "
                               "that win)", fig.get_figwidth(), 10))
    fig.suptitle(title, fontsize=11)
    return save_figure(fig, path)
