"""The Grundy values the take-and-break engine computed, drawn with the rare heaps highlighted.

Hundreds of thousands of heaps (tens of millions within the default budget) do not fit as bars,
so the figure is a map: one column per run of heaps, one row per value, a cell dark when some
heap of the run has that value.  The common values fill bands; the rare heaps of the engine's
value split (``solvers.sparse_space``) are marked one by one, and the pre-period, the period and
the range the periodicity theorem checked are drawn over them.
"""

from __future__ import annotations

import os

import numpy as np

from discover.app.render.document import FigureFile
from discover.app.render.figure import COLOURS, legend_below, new_figure, save_figure, wrapped

__all__ = ["heap_values_figure", "rare_class_text", "COLUMNS", "RARE_MARKED"]

COLUMNS = 1200  # columns of the map (runs of heaps) at most
RARE_MARKED = 20_000  # rare heaps marked one by one at most
_RARE = "#d62728"


def rare_class_text(sequence) -> str:
    """How the engine split the values into rare and common ones, with the counts.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers.take_and_break import grundy_sequence
    >>> sequence = grundy_sequence(make_game("octal", code="0.16"), heaps=2000)
    >>> print(rare_class_text(sequence))  # doctest: +NORMALIZE_WHITESPACE
    Heap n is rare when popcount(G(n) & 30) is even (mask 30 = binary 11110), common otherwise: 50 rare
    heaps of 2,000, the last at n = 1,244 (values 0 to 16 seen).
    """
    rare, heaps = sequence.rare, sequence.heaps
    largest = int(sequence.values.max())
    if rare is None:
        return (f"Moves may leave three heaps: the engine tests options by bitsets and splits no values into "
                f"rare and common (values 0 to {largest} seen).")
    parity = f" + ((n + {rare.offset}) mod 2)" if rare.heap_parity else ""
    count = rare.heaps.size
    last = f", the last at n = {int(rare.heaps[-1]):,}" if count else ""
    return (f"Heap n is rare when popcount(G(n) & {rare.mask}){parity} is even (mask {rare.mask} = binary "
            f"{rare.mask:b}), common otherwise: {count:,} rare heap{'s' if count != 1 else ''} of {heaps:,}{last} "
            f"(values 0 to {largest} seen).")


def _occupancy(values: np.ndarray, columns: int) -> np.ndarray:
    """cells[v, c]: some heap of column c has value v (columns split the heaps evenly)."""
    column = np.arange(values.size, dtype=np.int64) * columns // values.size
    cells = np.zeros((int(values.max()) + 1, columns), dtype=bool)
    cells[values.astype(np.int64), column] = True
    return cells


def _draw(ax, sequence, stop: int) -> None:
    """The value map of heaps 0 to stop - 1, the rare heaps among them, and the period's landmarks."""
    from matplotlib.colors import ListedColormap
    from matplotlib.ticker import StrMethodFormatter

    values = sequence.values[:stop]
    cells = _occupancy(values, min(stop, COLUMNS))
    extent = (-0.5, stop - 0.5, -0.5, cells.shape[0] - 0.5)
    ax.imshow(cells, origin="lower", aspect="auto", interpolation="nearest", extent=extent,
              cmap=ListedColormap(["#ffffff", "#7f9cc9"]), vmin=0, vmax=1)
    rare = sequence.rare.heaps if sequence.rare is not None else np.zeros(0, dtype=np.int64)
    rare = rare[rare < stop]
    if rare.size:
        marked = rare[:RARE_MARKED]
        more = f", the first {RARE_MARKED:,} marked" if rare.size > RARE_MARKED else ""
        ax.plot(marked, values[marked], "o", color=_RARE, markersize=3, linestyle="none",
                label=f"rare heaps ({rare.size:,}{more})")
    if sequence.period is not None:
        n0, p = sequence.preperiod, sequence.period
        for at, style, label in ((n0, "--", "pre-period ends"), (n0 + p, ":", "one period later")):
            if at < stop:
                ax.axvline(at, color=COLOURS["P"], linestyle=style, linewidth=1, label=f"{label}: n = {at:,}")
        if sequence.proved and sequence.hypothesis[0] < stop:
            first, last = sequence.hypothesis
            ax.axvspan(first, min(last + p, stop), color="#2e7d32", alpha=0.08,
                       label=f"checked for the periodicity theorem: n ≤ {last + p:,}")
    ax.set_xlim(extent[0], extent[1])
    ax.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    ax.set_ylabel("G(n)")


def heap_values_figure(sequence, folder, name: str = "values.png") -> FigureFile:
    """Draw G(n) for every heap the engine computed, the rare heaps marked, as ``folder/name``.

    When the rare heaps all lie in the first tenth of the heaps, a second panel shows those
    heaps alone.

    Parameters
    ----------
    sequence : solvers.take_and_break.GrundySequence
    folder : str or path-like
        An existing folder.
    name : str
        The file name.

    Returns
    -------
    FigureFile

    Examples
    --------
    >>> import tempfile
    >>> from games import make_game
    >>> from solvers.take_and_break import grundy_sequence
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     heap_values_figure(grundy_sequence(make_game("octal", code="0.77")), tmp).name
    'values.png'
    """
    heaps = sequence.heaps
    rare = sequence.rare.heaps if sequence.rare is not None else np.zeros(0, dtype=np.int64)
    zoom = int(rare[-1]) * 5 // 4 + 2 if rare.size and rare[-1] < heaps // 10 else None
    fig, axes = new_figure(12, 7.5 if zoom else 4.2, rows=2 if zoom else 1)
    _draw(axes[0], sequence, heaps)
    state = "proved" if sequence.proved else "not proved"
    period = (f"period {sequence.period:,} from n = {sequence.preperiod:,} ({state})" if sequence.period is not None
              else "no period found")
    axes[0].set_title(wrapped(f"Grundy values of {sequence.game.title()} for n < {heaps:,}: {period}",
                              fig.get_figwidth(), 11), fontsize=11)
    if zoom:
        _draw(axes[1], sequence, zoom)
        axes[1].set_title(f"the first {zoom:,} heaps, where the rare heaps lie", fontsize=10)
    axes[-1].set_xlabel("heap size n")
    legend_below(axes[-1], columns=2, source=axes[0])
    save_figure(fig, os.path.join(folder, name))
    runs = "" if heaps <= COLUMNS else f" (each column a run of about {heaps / COLUMNS:,.0f} heaps)"
    caption = (f"G(n) for the {heaps:,} heaps the take-and-break engine computed{runs}: a shaded cell is a value "
               f"some heap takes; red dots are the rare heaps of the value split. {rare_class_text(sequence)}")
    return FigureFile(name, "Grundy values and rare heaps", caption)
