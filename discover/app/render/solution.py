"""Figures of solved games: where the P positions lie, for games of one or two coordinates.

Only the solver's values are drawn (never a formula), so a figure shows what the search found.
"""

from __future__ import annotations

import numpy as np

from discover.app.render.figure import (COLOURS, check_figure_path, coordinate_labels, new_figure, save_figure,
                                    shared_legend, wrapped)

__all__ = ["check_plot_path", "plot_p_positions"]

_AXES_INCHES = 6.0  # side of the square axes of a 2-D figure
_MARGINS = (1.0, 1.3, 0.5, 0.8)  # inches around them: left (tick labels, y label), bottom (x label, legend), right, top


def check_plot_path(path, dims: int) -> str:
    """Refuse, before any work, a figure that cannot be drawn or written; return its format.

    Parameters
    ----------
    path : str or path-like
        Target file; its suffix picks the format (``.png``, ``.pdf``, ``.svg``, ...).
    dims : int
        Coordinates per position of the game to draw (1 or 2 can be drawn).

    Returns
    -------
    str
        The file format, e.g. ``"png"``.

    Examples
    --------
    >>> check_plot_path("wythoff.png", dims=2)
    'png'
    """
    if dims not in (1, 2):
        raise ValueError(
            f"--plot draws games of 1 or 2 coordinates; this game has {dims}: leave out --plot"
        )
    return check_figure_path(path)


def _title(solution, what: str) -> str:
    game = solution.game
    where = f"bound {solution.bound}" if solution.bound is not None else "positions reachable from the starts"
    return f"{what} of {game.title()}, {where}"


def _draw_2d(fig, solution) -> None:
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    table = solution.outcome_table
    universe = solution.universe
    limits = universe.limits
    (left, bottom, _, _), (width, height) = _MARGINS, fig.get_size_inches()
    ax = fig.add_axes((left / width, bottom / height, _AXES_INCHES / width, _AXES_INCHES / height))
    side = _AXES_INCHES * 72 / (int(limits.max()) + 1)  # points per cell
    size = max(side * side * 0.8, 1.2)
    p = solution.p_positions()
    handles = [ax.scatter(p[:, 0], p[:, 1], s=size, marker="s", linewidths=0, color=COLOURS["P"],
                          label=f"P positions ({len(p):,}): the player to move loses")]
    if (table == 0).any():
        d = universe.positions(np.flatnonzero(table == 0))
        handles.append(ax.scatter(d[:, 0], d[:, 1], s=size, marker="s", linewidths=0, color=COLOURS["draw"],
                                  label=f"draws ({len(d):,})"))
    if not universe.is_box and float(np.prod(limits + 1)) <= 16e6:
        # shade the cells that belong to the universe, so "not a position" differs from "an N position"
        inside = np.zeros((int(limits[1]) + 1, int(limits[0]) + 1), dtype=np.uint8)
        cells = universe.positions()
        inside[cells[:, 1], cells[:, 0]] = 1
        ax.imshow(
            inside, origin="lower", cmap="Greys", vmin=0, vmax=10, interpolation="nearest",
            extent=(-0.5, limits[0] + 0.5, -0.5, limits[1] + 0.5), aspect="equal", zorder=0,
        )
        handles.append(Patch(facecolor="#efefef", edgecolor="none", label="other positions of the game"))
    ax.set_xlim(-0.5, limits[0] + 0.5)
    ax.set_ylim(-0.5, limits[1] + 0.5)
    ax.set_aspect("equal")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    xlabel, ylabel = coordinate_labels(solution.game, 2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(_title(solution, "P positions") + f"\n{len(p):,} of {universe.size:,} positions", fontsize=11)
    fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.02), fontsize=8, frameon=False,
              markerscale=max(1.0, 6.0 / np.sqrt(size)))  # under the axes: never over the positions


def _draw_1d(fig, ax, solution) -> None:
    table = solution.outcome_table
    universe = solution.universe
    limit = int(universe.limits[0])
    ids = np.flatnonzero(table == -1)
    p = universe.positions(ids)[:, 0]
    ax.vlines(p, 0, 1, color=COLOURS["P"], linewidth=1.2 if limit < 200 else 0.6,
              label=f"P positions ({len(p):,}): the player to move loses")
    if (table == 0).any():
        d = universe.positions(np.flatnonzero(table == 0))[:, 0]
        ax.vlines(d, 0, 1, color=COLOURS["draw"], linewidth=1.2 if limit < 200 else 0.6, label=f"draws ({len(d):,})")
    ax.set_xlim(-0.5, limit + 0.5)
    ax.set_ylim(0, 1)
    ax.set_yticks([])
    ax.set_xlabel(coordinate_labels(solution.game, 1)[0])
    title = _title(solution, "P positions") + f": {len(p):,} of {universe.size:,}"
    ax.set_title(wrapped(title, fig.get_figwidth(), 11), fontsize=11)
    shared_legend(fig, ax, columns=2)


def plot_p_positions(solution, path) -> str:
    """Draw the P positions of a solved game of 1 or 2 coordinates into an image file.

    A 2-D game gets a square board with one mark per P position; a 1-D game a strip with
    one tick per P position. No formula is drawn: only what the solver found.

    Parameters
    ----------
    solution : solvers.Solution
        A solved game whose positions have 1 or 2 coordinates.
    path : str or path-like
        Target file; the suffix picks the format. Written atomically.

    Returns
    -------
    str
        The path written.

    Examples
    --------
    >>> import tempfile, os
    >>> from games import make_game
    >>> from solvers import solve
    >>> out = os.path.join(tempfile.mkdtemp(), "w.png")
    >>> plot_p_positions(solve(make_game("wythoff"), bound=20), out) == out
    True
    """
    dims = solution.universe.dims
    check_plot_path(path, dims)
    if dims == 2:
        left, bottom, right, top = _MARGINS
        fig, _ = new_figure(left + _AXES_INCHES + right, bottom + _AXES_INCHES + top, rows=0, layout=None)
        _draw_2d(fig, solution)
    else:
        fig, (ax,) = new_figure(10, 2.4)
        _draw_1d(fig, ax, solution)
    return save_figure(fig, path)
