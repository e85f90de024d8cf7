"""One figure style and one way to save a figure: every picture the toolkit draws goes through here.

``new_figure`` makes a matplotlib ``Figure`` (no pyplot, no global state) with the house layout,
``save_figure`` writes it atomically (``cgbase.files``), ``check_figure_path`` refuses a file that
could not be written before any work is done.
"""

from __future__ import annotations

import os

__all__ = ["COLOURS", "DPI", "new_figure", "save_figure", "check_figure_path", "coordinate_labels"]

DPI = 150
#: the colours of outcomes, shared by every map of positions
COLOURS = {"P": "#1f3a93", "N": "#ffffff", "draw": "#e08a00", "outside": "#d9d9d9", "win": "#2e7d32",
           "loss": "#c62828"}
FORMATS = ("png", "pdf", "svg", "jpg")


def new_figure(width: float, height: float, rows: int = 1, cols: int = 1, layout: str | None = "constrained"):
    """A figure of ``width`` x ``height`` inches and its axes (a flat list; none when ``rows`` is 0).

    Examples
    --------
    >>> fig, axes = new_figure(6, 4, cols=2)
    >>> len(axes)
    2
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout=layout)
    if rows == 0:
        return fig, []
    return fig, list(fig.subplots(rows, cols, squeeze=False).ravel())


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
