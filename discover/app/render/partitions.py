"""Report figures: the exact partition, a rule's partition, where the two disagree, and Grundy values.

Every figure is a map of cells, one per position: a strip for games of one coordinate, a square
board for two, and for more coordinates two slices of the first two coordinates with the others
fixed at 0 and at 1 (labelled as such). Cells that are not positions of the game are grey.
The exact values come from the solver; the rule's from its predicate (or Grundy values); a learned
partition from a value table (``compare_figure``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from discover import defaults
from discover.app.render.document import FigureFile
from discover.app.render.figure import (COLOURS, DPI, coordinate_labels, legend_below, legend_columns, new_figure,
                                    save_figure, wrapped)
from discover.verify import rule_values
from games import coordinate_names
from solvers import solve

__all__ = ["FIGURE_BOUND", "partition_figures", "grundy_figure", "compare_figure"]

FIGURE_BOUND = 300  # largest coordinate drawn in a partition figure
PIXELS_PER_CELL = 4  # the least side of a drawn cell in pixels: larger windows are drawn in blocks of positions
LAID_OUT = 0.85  # share of an axes' first width left after the layout makes room for labels and colour bars
ANNOTATE_SIDE = 32  # Grundy maps with at most this many cells per side print each value
CELL_FONT = 6  # points: the size of a Grundy value printed in its cell (one size, whatever its digits)

_OUTSIDE = ("not a position of the game", COLOURS["outside"])
_EXACT = [_OUTSIDE, ("N: the player to move wins", COLOURS["N"]), ("P: the player to move loses", COLOURS["P"]),
          ("draw", COLOURS["draw"])]


def _rule_palette(who: str) -> list:
    return [_OUTSIDE, (f"{who} says N", COLOURS["N"]), (f"{who} says P", COLOURS["P"])]


def _diff_palette(who: str) -> list:
    return [_OUTSIDE, ("agree: N", "#ffffff"), ("agree: P", "#b9c7ea"),
            (f"{who} says P, the solver does not", "#d62728"), (f"{who} says not P, the solver says P", "#7b2cbf"),
            ("P/N agree, the Grundy value differs", "#f2a900")]


@dataclass
class _Panel:
    label: str  # "" for 1-D and 2-D games, "slice c = 0" above
    dims: int  # coordinates of the game's positions
    ids: np.ndarray  # (h, w) universe ids, -1 where the cell is not a position
    origin: tuple = (0, 0)  # the coordinates of the lower left cell
    name: str = "n"  # the first coordinate's name

    @property
    def extent(self) -> tuple:
        (h, w), (x0, y0) = self.ids.shape, self.origin
        return x0 - 0.5, x0 + w - 0.5, y0 - 0.5, y0 + h - 0.5


def _window(limit: int, centre: int | None) -> np.ndarray:
    """At most ``FIGURE_BOUND + 1`` values of one coordinate: from 0, or around ``centre``."""
    lo = 0 if centre is None else max(0, min(centre - FIGURE_BOUND // 2, limit - FIGURE_BOUND))
    return np.arange(lo, min(limit, lo + FIGURE_BOUND) + 1)


def _panels(game, universe, through=None) -> list[_Panel]:
    """The cells to draw: a strip, a board, or slices of the first two coordinates with the others fixed.

    Without ``through``, slices fix the other coordinates at 0 and at 3/5 of the bound (Nim's slices at 0
    and 1 are both diagonals; a middle slice shows the pattern); with ``through`` (a position), one
    window and one slice hold it.
    """
    limits = universe.limits
    dims = universe.dims
    names = list(getattr(game, "feature_names", ()))
    if len(names) != dims:
        names = list(coordinate_names(dims))
    centre = [None] * dims if through is None else list(through)
    xs = _window(int(limits[0]), centre[0])
    if dims == 1:
        grids = [("", xs[None, :, None])]
    else:
        a, b = np.meshgrid(xs, _window(int(limits[1]), centre[1]))
        if dims == 2:
            fixed = [None]
        elif through is not None:
            fixed = [tuple(centre[2:])]
        else:
            middle = max(1, round(0.6 * int(limits[2:].min())))
            fixed = [(0,) * (dims - 2), (middle,) * (dims - 2)]
        grids = []
        for values in fixed:
            rest = [] if values is None else [np.full_like(a, v) for v in values]
            label = "" if values is None else "slice " + ", ".join(f"{n} = {v}" for n, v in zip(names[2:], values))
            grids.append((label, np.stack([a, b, *rest], axis=-1).astype(np.int64)))
    panels = []
    for label, grid in grids:
        ids = universe.index(grid.reshape(-1, dims), strict=False).reshape(grid.shape[:2])
        origin = (int(grid[0, 0, 0]), int(grid[0, 0, 1]) if dims > 1 else 0)
        panels.append(_Panel(label, dims, ids, origin, names[0]))
    return panels


def _cells(panel: _Panel, table: np.ndarray) -> np.ndarray:
    """A universe-ordered table laid out on the panel; 0 outside the universe, code + 1 inside."""
    out = np.zeros(panel.ids.shape, dtype=np.int64)
    inside = panel.ids >= 0
    out[inside] = table[panel.ids[inside]] + 1
    return out


def _new_figure(dims: int, panels: int, colorbar: bool = False):
    if dims == 1:
        return new_figure(12, 2.6, cols=panels)
    return new_figure(6.4 * panels + (1.0 if colorbar else 0.0), 7.0, cols=panels)


def _integer_ticks():
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _label_axes(ax, game, dims: int) -> None:
    labels = coordinate_labels(game, dims)
    ax.set_xlabel(labels[0])
    ax.xaxis.set_major_locator(_integer_ticks())
    if dims == 1:
        ax.set_yticks([])
    else:
        ax.set_ylabel(labels[1])
        ax.yaxis.set_major_locator(_integer_ticks())


def _block_side(fig, ax, cells: int) -> int:
    """Positions a side of one drawn cell: 1, or more when ``cells`` cells would be under ``PIXELS_PER_CELL``
    pixels each in ``ax`` (a fine pattern drawn at a few pixels a cell is a moire, not a map)."""
    pixels = ax.get_position().width * fig.get_figwidth() * DPI * LAID_OUT
    return max(1, -(-cells * PIXELS_PER_CELL // int(pixels)))


def _blocks(grid, side: int, reduce):
    """``grid`` in blocks of ``side`` x ``side`` cells (of ``side`` cells for a strip), each ``reduce`` of its
    cells; the edges padded (masked cells for a masked array, 0 otherwise)."""
    if side == 1:
        return grid
    rows = 1 if grid.shape[0] == 1 else side
    h, w = -(-grid.shape[0] // rows) * rows, -(-grid.shape[1] // side) * side
    if np.ma.isMaskedArray(grid):
        padded = np.ma.masked_all((h, w), dtype=grid.dtype)
    else:
        padded = np.zeros((h, w), dtype=grid.dtype)
    padded[:grid.shape[0], :grid.shape[1]] = grid
    return reduce(reduce(padded.reshape(h // rows, rows, w // side, side), axis=3), axis=1)


def _extent(panel: _Panel, shown, side: int) -> tuple:
    """The extent of a drawn grid of blocks of ``side`` cells, from the panel's lower left cell."""
    (h, w), (x0, y0) = shown.shape, panel.origin
    rows = 1 if panel.ids.shape[0] == 1 else side
    return x0 - 0.5, x0 + w * side - 0.5, y0 - 0.5, y0 + h * rows - 0.5


def _in_blocks(side: int, dims: int, how: str) -> str:
    """The caption's sentence for a map drawn in blocks ("" when every cell is one position)."""
    if side == 1:
        return ""
    block = f"{side} positions" if dims == 1 else f"{side} x {side} positions"
    return f" Drawn in blocks of {block} (too many cells for the page's pixels), each block {how}."


def _category_map(fig, axes, game, panels, codes, palette, title: str) -> int:
    """Draw integer-coded cells with a fixed palette; a legend lists the codes present, with counts (of positions).

    A window with more cells than the axes' pixels show is drawn in blocks, each coloured by the code that
    comes last in the palette among its positions (P over N, a disagreement over an agreement); the block's
    side is returned (1: one cell per position).
    """
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

    cmap = ListedColormap([color for _, color in palette])
    norm = BoundaryNorm(np.arange(len(palette) + 1) - 0.5, len(palette))
    dims = panels[0].dims
    side = _block_side(fig, axes[0], max(panels[0].ids.shape))
    for ax, panel, grid in zip(axes, panels, codes):
        shown = _blocks(grid, side, np.max)
        ax.imshow(shown, origin="lower", cmap=cmap, norm=norm, interpolation="nearest",
                  extent=_extent(panel, shown, side), aspect="auto" if dims == 1 else "equal")
        _label_axes(ax, game, dims)
        if panel.label:
            ax.set_title(panel.label, fontsize=10)
    counts = np.bincount(np.concatenate([g.ravel() for g in codes]), minlength=len(palette))
    handles = [Patch(facecolor=color, edgecolor="#555555", linewidth=0.5, label=f"{label} ({counts[i]:,})")
               for i, (label, color) in enumerate(palette) if counts[i]]
    fig.suptitle(wrapped(title, fig.get_figwidth(), 11), fontsize=11)
    fig.legend(handles=handles, loc="outside lower center", fontsize=8, frameon=False,
               ncol=legend_columns([h.get_label() for h in handles], fig.get_figwidth(), 8, 3))
    return side


def _where(panels) -> str:
    """The drawn window in words: "0 ≤ n ≤ 300", "0 ≤ a, b ≤ 150, slices c = 0 and c = 90"."""
    (h, w), (x0, y0) = panels[0].ids.shape, panels[0].origin
    if panels[0].dims == 1:
        what = f"{x0} ≤ {panels[0].name} ≤ {x0 + w - 1}"
    elif (x0, y0, w) == (0, 0, h):
        what = f"coordinates 0 to {w - 1}"
    else:
        what = f"first coordinate {x0} to {x0 + w - 1}, second {y0} to {y0 + h - 1}"
    if panels[0].label:
        what += ", " + " and ".join(p.label for p in panels)
    return what


def _save(fig, folder, name: str) -> None:
    save_figure(fig, os.path.join(folder, name))


def partition_figures(game, rule, bound: int, folder, who: str = "the rule", through=None) -> list:
    """Draw the exact partition and, where a rule differs from it, the rule's partition and the disagreement.

    Parameters
    ----------
    game : games.Game
    rule : discover.rule.Rule or None
        With ``None`` only the exact partition is drawn.
    bound : int
        The verification bound: the drawn window is at most ``FIGURE_BOUND`` cells a side within it.
    folder : str or path-like
        Existing folder that receives ``exact.png`` and, when the rule disagrees with the solver in the
        window, ``rule.png`` and ``disagreement.png`` (a rule that agrees gets a sentence instead of two
        figures repeating the exact one).
    who : str
        How captions name the rule (e.g. ``"the best candidate"``).
    through : tuple of int, optional
        A position the figures must show (a counterexample): the window is centred on it, it is ringed.

    Returns
    -------
    list of document blocks: ``("figure", FigureFile)`` and ``("p", text)``

    Examples
    --------
    >>> import tempfile, sympy as sp
    >>> from games import make_game
    >>> from discover.rule import Rule
    >>> n = sp.Symbol("n")
    >>> game = make_game("subtraction", subtract=(1, 3, 4))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     [b[1].name for b in partition_figures(game, Rule(sp.Eq(sp.Mod(n, 4), 0), ("n",)), 60, tmp)]
    ['exact.png', 'rule.png', 'disagreement.png']
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     [b[0] for b in partition_figures(game, Rule(sp.Contains(sp.Mod(n, 7), sp.FiniteSet(0, 2)), ("n",)), 60, tmp)]
    ['figure', 'p']
    """
    reach = min(int(bound), FIGURE_BOUND)
    if through is not None:  # far enough to hold the position and the window around it
        reach = max(reach, min(int(bound), max(through[:2]) + FIGURE_BOUND // 2), *through)
    grundy = rule is not None and rule.target == "grundy"
    solution = solve(game, bound=reach, grundy=grundy)
    universe = solution.universe
    panels = _panels(game, universe, through)
    where = _where(panels)
    drawn = np.concatenate([p.ids[p.ids >= 0] for p in panels])
    truth_p = solution.outcome_table == -1
    exact = np.where(truth_p, 1, np.where(solution.outcome_table == 0, 2, 0)).astype(np.int8)

    fig, axes = _new_figure(universe.dims, len(panels))
    side = _category_map(fig, axes, game, panels, [_cells(p, exact) for p in panels], _EXACT,
                         f"Exact partition of {game.title()} (solver), {where}")
    _save(fig, folder, "exact.png")
    in_blocks = _in_blocks(side, universe.dims, "in the colour of its most telling position (a draw over P over N)")
    blocks = [("figure", FigureFile("exact.png", "Exact partition",
                                    f"The solver's P positions: {int(truth_p[drawn].sum()):,} of {drawn.size:,} "
                                    f"positions drawn ({where}).{in_blocks}"))]
    if rule is None:
        return blocks

    values = rule_values(rule, universe)
    said_p = values == 0 if grundy else values
    diff = np.where(said_p == truth_p, np.where(truth_p, 1, 0), np.where(said_p, 2, 3)).astype(np.int8)
    if grundy:
        diff[(diff < 2) & (values != solution.grundy_table)] = 4
    wrong = int((diff[drawn] >= 2).sum())
    compared = " (Grundy values compared)" if grundy else ""
    if wrong == 0:
        return blocks + [("p", f"{who.capitalize()} and the solver agree on every one of the {drawn.size:,} "
                               f"positions drawn{compared}: the rule's partition is the exact one above.")]

    fig, axes = _new_figure(universe.dims, len(panels))
    side = _category_map(fig, axes, game, panels, [_cells(p, said_p.astype(np.int8)) for p in panels],
                         _rule_palette(who), f"Partition by {who}: {rule.text()}\n{where}")
    _save(fig, folder, "rule.png")
    in_blocks = _in_blocks(side, universe.dims, f"P where {who} calls one of its positions P, else N")
    blocks.append(("figure", FigureFile("rule.png", f"Partition by {who}",
                                        f"The positions {who} calls P: {int(said_p[drawn].sum()):,} of "
                                        f"{drawn.size:,} drawn.{in_blocks}")))

    fig, axes = _new_figure(universe.dims, len(panels))
    side = _category_map(fig, axes, game, panels, [_cells(p, diff) for p in panels], _diff_palette(who),
                         f"Where {who} and the solver disagree: {wrong:,} of {drawn.size:,} positions drawn, {where}")
    if through is not None:
        axes[0].plot(through[0], through[1] if universe.dims > 1 else 0, "o", markersize=14, fillstyle="none",
                     color="black", markeredgewidth=1.5)
    _save(fig, folder, "disagreement.png")
    ringed = f"; the ring marks the counterexample {tuple(through)}" if through is not None else ""
    in_blocks = _in_blocks(side, universe.dims, "in the colour of its position that comes last in the legend (a "
                                                  "disagreement over an agreement)")
    blocks.append(("figure", FigureFile("disagreement.png", "Disagreement",
                                        f"{who.capitalize()} and the solver disagree on {wrong:,} of {drawn.size:,} "
                                        f"positions drawn ({where}){compared}{ringed}.{in_blocks}")))
    return blocks


def grundy_figure(game, bound: int, folder) -> FigureFile | None:
    """Draw the Grundy values of an impartial normal-play game as ``grundy.png``; None for other games.

    A 1-D game gets a bar per heap size; 2-D games a heat map (values printed in the cells when
    the board is at most 32 cells a side); more coordinates two slices.

    Examples
    --------
    >>> import tempfile
    >>> from games import make_game
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     grundy_figure(make_game("wythoff"), 12, tmp).name, grundy_figure(make_game("wythoff", misere=True), 12, tmp)
    ('grundy.png', None)
    """
    if not getattr(game, "impartial", False) or getattr(game, "misere", False):
        return None
    solution = solve(game, bound=int(bound), grundy=True)
    universe = solution.universe
    values = solution.grundy_table
    panels = _panels(game, universe)
    where = _where(panels)
    title = f"Grundy values of {game.title()}, {where}"
    caption = f"Grundy values at bound {universe.bound}, from 0 (the P positions) to {int(values.max())}."

    if universe.dims == 1:
        fig, (ax,) = _new_figure(1, 1)
        n = universe.positions()[:, 0]
        ax.bar(n, values, width=0.8, color="#7f9cc9")
        zero = values == 0
        ax.plot(n[zero], values[zero], "o", color="#1f3a93", markersize=4 if len(n) <= 100 else 2, clip_on=False)
        ax.set_xlim(-0.5, int(n.max()) + 0.5)
        ax.set_xlabel(coordinate_labels(game, 1)[0])
        ax.set_ylabel("Grundy value")
        ax.yaxis.set_major_locator(_integer_ticks())
        ax.set_title(wrapped(title + " (dots: value 0, the P positions)", fig.get_figwidth(), 11), fontsize=11)
    else:
        fig, side = _grundy_map(game, panels, values, title)
        caption += _in_blocks(side, universe.dims, "the smallest value among its positions")
    _save(fig, folder, "grundy.png")
    return FigureFile("grundy.png", "Grundy values", caption)


def _grundy_map(game, panels, values, title):
    """The Grundy map's figure and its block side: one colour per value (a discrete colour bar, ticks at the
    values), each value printed in its cell at one size when the board is small."""
    from matplotlib import colormaps
    from matplotlib.colors import BoundaryNorm
    fig, axes = _new_figure(2, len(panels), colorbar=True)
    top = max(int(values.max()), 1) if values.size else 1
    cmap = colormaps["viridis"].resampled(top + 1).with_extremes(bad=_OUTSIDE[1])
    norm = BoundaryNorm(np.arange(top + 2) - 0.5, top + 1)
    side = _block_side(fig, axes[0], max(panels[0].ids.shape))
    for ax, panel in zip(axes, panels):
        grid = _blocks(np.ma.masked_array(_cells(panel, values) - 1, mask=panel.ids < 0), side, np.ma.min)
        image = ax.imshow(grid, origin="lower", cmap=cmap, norm=norm, interpolation="nearest",
                          extent=_extent(panel, grid, side))
        _label_axes(ax, game, panel.dims)
        if panel.label:
            ax.set_title(panel.label, fontsize=10)
        if max(grid.shape) <= ANNOTATE_SIDE:
            for y, x in zip(*np.nonzero(~np.ma.getmaskarray(grid))):
                v = int(grid[y, x])
                ax.text(x + panel.origin[0], y + panel.origin[1], str(v), ha="center", va="center",
                        fontsize=CELL_FONT if top < 100 else CELL_FONT - 1, color="white" if v < 0.6 * top else "black")
    bar = fig.colorbar(image, ax=list(axes), shrink=0.8, label="Grundy value")
    bar.locator = _integer_ticks()
    bar.update_ticks()
    bar.minorticks_off()
    fig.suptitle(wrapped(title, fig.get_figwidth(), 11), fontsize=11)
    return fig, side


def compare_figure(value_table, path, solution=None, confidence: float | None = None) -> str:
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
    from matplotlib.patches import Patch

    from discover.app.render.solution import check_plot_path

    game, universe = value_table.game, value_table.universe
    check_plot_path(path, universe.dims)
    solution = solve(game, bound=value_table.bound) if solution is None else solution
    exact = solution.outcome_table
    confidence = defaults.ENGINES.confidence if confidence is None else confidence
    learned = value_table.partition(confidence)
    sure = learned != 0
    codes = [
        np.where(exact == -1, 1, np.where(exact == 1, 0, 2)),
        np.where(learned == -1, 1, np.where(learned == 1, 0, 2)),
        np.where(~sure, 2, np.where(learned == exact, np.where(exact == -1, 1, 0), np.where(learned == -1, 3, 4))),
    ]
    palettes = [
        [("N", COLOURS["N"]), ("P", COLOURS["P"]), ("draw", COLOURS["draw"])],
        [("learned N", COLOURS["N"]), ("learned P", COLOURS["P"]), (f"unsure (|value| < {confidence})", "#bdbdbd")],
        [("agree: N", COLOURS["N"]), ("agree: P", "#b9c7ea"), ("unsure", "#bdbdbd"),
         ("learned P, exact N", "#d62728"), ("learned N, exact P", "#7b2cbf")],
    ]
    titles = ["exact (solver)", f"learned ({value_table.meta.get('learner', 'learner')})", "disagreement"]
    panel = _panels(game, universe)[0]
    fig, axes = new_figure(*((18, 6.8, 1, 3) if universe.dims == 2 else (14, 5, 3, 1)))
    for ax, code, palette, title in zip(axes, codes, palettes, titles):
        grid = _cells(panel, code) - 1
        shown = np.ma.masked_less(grid, 0)
        ax.imshow(shown, origin="lower", cmap=ListedColormap([c for _, c in palette]), vmin=-0.5,
                  vmax=len(palette) - 0.5, interpolation="nearest",
                  aspect="auto" if universe.dims == 1 else "equal")
        _label_axes(ax, game, universe.dims)
        ax.set_title(title, fontsize=11)
        counts = np.bincount(code, minlength=len(palette))
        legend_below(ax, columns=2, handles=[Patch(facecolor=c, edgecolor="#555555", label=f"{n} ({counts[i]:,})")
                                             for i, (n, c) in enumerate(palette) if counts[i]])
    fig.suptitle(wrapped(f"{game.title()}, bound {value_table.bound}: learned against exact", fig.get_figwidth(), 12),
                 fontsize=12)
    return save_figure(fig, path)
