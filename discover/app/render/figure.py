"""One figure style and one way to save a figure: every picture the toolkit draws goes through here.

``new_figure`` makes a matplotlib ``Figure`` (no pyplot, no global state) with the house layout, fitted to a
report page: at most ``PAGE_WIDTH`` inches wide, so that a figure is shown at its own size, never shrunk until
its words cannot be read; ``legend_below`` puts legends under the axes, off the data. ``save_figure`` writes
a figure atomically (``cgbase.files``), ``check_figure_path`` refuses a file that could not be written before
any work is done.
"""

from __future__ import annotations

import math
import os
import textwrap

__all__ = ["COLOURS", "DPI", "PAGE_WIDTH", "new_figure", "legend_below", "shared_legend", "save_figure",
           "check_figure_path", "coordinate_labels", "wrapped", "legend_columns"]

DPI = 150
PAGE_WIDTH = 7.5  # inches: a report page's text (72em of 16 px, about 1,150 pixels) holds 7.5 inches at DPI
MIN_PANEL = 3.5  # inches: the narrowest panel of a row; more panels than fit go to the next row
MIN_PANEL_HEIGHT = 2.2  # inches: a panel fitted to the page keeps at least this height
LABEL_DEPTH = 0.5  # inches under an axes taken by its tick labels and x label (a legend below starts there)
#: the colours of outcomes, shared by every map of positions
COLOURS = {"P": "#1f3a93", "N": "#ffffff", "draw": "#e08a00", "outside": "#d9d9d9", "win": "#2e7d32",
           "loss": "#c62828"}
FORMATS = ("png", "pdf", "svg", "jpg")
CHAR_WIDTH = 0.62  # the widest average width of a character of the house font (DejaVu Sans), in ems


def wrapped(text: str, inches: float, fontsize: float = 10) -> str:
    """``text`` broken into lines that fit ``inches`` at ``fontsize`` points (its own line breaks kept).

    Examples
    --------
    >>> print(wrapped("Grundy values of the subtraction game S = {1, 3, 4}, 0 <= n <= 300", 3, 10))
    Grundy values of the subtraction
    game S = {1, 3, 4}, 0 <= n <= 300
    """
    width = max(10, int(inches * 72 / (CHAR_WIDTH * fontsize)))
    return "\n".join(textwrap.fill(line, width) for line in text.split("\n"))


def legend_columns(labels, inches: float, fontsize: float, most: int) -> int:
    """How many legend columns (at most ``most``) of ``labels`` fit in ``inches`` at ``fontsize`` points.

    Examples
    --------
    >>> legend_columns(["short", "labels"], 7.5, 8, 3), legend_columns(["a much longer label " * 3] * 3, 7.5, 8, 3)
    (2, 1)
    """
    widest = max((len(label) for label in labels), default=0) * CHAR_WIDTH + 5  # handle, padding, column gap
    return max(1, min(most, len(labels), int(inches * 72 / (widest * fontsize))))


def new_figure(width: float, height: float, rows: int = 1, cols: int = 1, layout: str | None = "constrained",
               sharey: bool = False):
    """A figure of about ``width`` x ``height`` inches and its ``rows * cols`` axes, a flat list in reading order
    (none when ``rows`` is 0: the caller places its own axes).

    A figure wider than ``PAGE_WIDTH`` is fitted to the page: its panels flow into rows of as many as fit at
    ``MIN_PANEL`` inches, each scaled to keep its shape (and at least ``MIN_PANEL_HEIGHT`` high), and the
    cells left over are removed. ``sharey`` gives every panel one y-axis, for panels meant to be compared.

    Examples
    --------
    >>> fig, axes = new_figure(6, 4, cols=2)
    >>> len(axes)
    2
    >>> fig, axes = new_figure(15, 4.4, cols=3, sharey=True)  # three panels of 5 inches: two rows of two
    >>> len(axes), [round(float(x), 2) for x in fig.get_size_inches()]
    (3, [7.5, 6.6])
    """
    from matplotlib.figure import Figure

    panels = rows * cols
    if rows and width > PAGE_WIDTH:
        fitted = max(1, min(cols if rows == 1 else panels, int(PAGE_WIDTH // MIN_PANEL))) if cols > 1 else 1
        scale = PAGE_WIDTH / fitted / (width / cols)
        panel_height = max(MIN_PANEL_HEIGHT, height / rows * scale)
        rows, cols = math.ceil(panels / fitted), fitted
        width, height = PAGE_WIDTH, panel_height * rows
    fig = Figure(figsize=(width, height), layout=layout)
    if rows == 0:
        return fig, []
    axes = list(fig.subplots(rows, cols, squeeze=False, sharey=sharey).ravel())
    for extra in axes[panels:]:
        fig.delaxes(extra)
    return fig, axes[:panels]


def legend_below(ax, columns: int = 3, fontsize: float = 8, source=None, handles=None) -> None:
    """The legend of ``ax`` (or of the axes ``source``, for one legend of several panels, or of the artists
    ``handles``, such as patches of a map's colours) under ``ax``, below its x label, never over the data;
    nothing without labels.

    Examples
    --------
    >>> fig, (ax,) = new_figure(4, 3)
    >>> _ = ax.plot([0, 1], [0, 1], label="q")
    >>> legend_below(ax)
    >>> ax.get_legend() is not None
    True
    """
    from matplotlib.transforms import ScaledTranslation

    if handles is None:
        handles, labels = (source or ax).get_legend_handles_labels()
    else:
        labels = [handle.get_label() for handle in handles]
    if not labels:
        return
    below = ax.transAxes + ScaledTranslation(0, -LABEL_DEPTH, ax.figure.dpi_scale_trans)  # under the tick labels
    inches = ax.get_position().width * ax.figure.get_figwidth()
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below,
              ncols=legend_columns(labels, inches, fontsize, columns), fontsize=fontsize, frameon=False)


def check_figure_path(path) -> str:
    """Refuse, before any work, a figure file whose format is unknown or that cannot be written;
    return its format.

    Examples
    --------
    >>> check_figure_path("openings.svg")
    'svg'
    """
    from matplotlib.backend_bases import FigureCanvasBase

    from cgbase.files import check_output_file

    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    if suffix not in FigureCanvasBase.get_supported_filetypes():
        raise ValueError(f"cannot tell the figure format of {path!r}: end the name with one of "
                         f"{', '.join('.' + f for f in FORMATS)}")
    check_output_file(path, "figure")
    return suffix


def shared_legend(fig, source, columns: int = 4, fontsize: float = 8) -> None:
    """One legend for every panel of ``fig`` (the labels of the axes ``source``), under the panels, off the data.

    Examples
    --------
    >>> fig, axes = new_figure(8, 3, cols=2)
    >>> _ = [ax.plot([0, 1], [0, 1], label="q") for ax in axes]
    >>> shared_legend(fig, axes[0])
    >>> len(fig.legends)
    1
    """
    handles, labels = source.get_legend_handles_labels()
    if labels:
        fig.legend(handles, labels, loc="outside lower center", fontsize=fontsize, frameon=False,
                   ncols=legend_columns(labels, fig.get_figwidth(), fontsize, columns))


def save_figure(fig, path) -> str:
    """Write a figure atomically in the format its suffix names; return the path."""
    from cgbase.files import atomic_write

    fmt = check_figure_path(path)
    with atomic_write(path, "figure") as handle:
        fig.savefig(handle, format=fmt, dpi=DPI, bbox_inches="tight", pad_inches=0.15)
    return os.fspath(path)


def coordinate_labels(game, dims: int) -> list[str]:
    """Axis labels for the coordinates of a game's positions ("a (coordinate 1)", or "n" for one heap)."""
    from games import coordinate_names

    names = getattr(game, "feature_names", ())
    if len(names) != dims:
        names = coordinate_names(dims)
    return [f"{name} (coordinate {i + 1})" if dims > 1 else f"{name}" for i, name in enumerate(names)]
