"""The report of a misère quotient: the rule, its multiplication table drawn, each component's element, checks.

``write_quotient_report(found)`` takes what ``discover.quotients.discover_quotient`` (heaps) or
``discover_board_quotient`` (Notakto boards) returned and writes ``index.md``, ``index.html``,
``multiplication.png`` (``quotient_table_figure``: the table as a grid, each cell the product's normal form, the
products in the P-portion shaded), ``rule.json`` (read back by ``QuotientRule.from_json``) and
``discovery.json``, into ``reports/<game>/`` by default, built aside and renamed into place.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from discover.app.render.document import Code, FigureFile, Strong, write_document
from discover.app.render.figure import COLOURS, new_figure, save_figure, wrapped

__all__ = ["quotient_table_figure", "write_quotient_report"]

NAMED_CELLS = 40  # orders up to this get each cell's product written in it
COMPONENTS_SHOWN = 200  # components listed in the report's table (all are in rule.json)


def quotient_table_figure(rule, folder, name: str = "multiplication.png") -> FigureFile:
    """Draw the multiplication table of ``rule``'s quotient into ``folder/name``.

    Examples
    --------
    >>> import tempfile, os
    >>> from discover.quotients import BipartiteMonoid, QuotientRule
    >>> t2 = QuotientRule(BipartiteMonoid(np.array([[0, 1], [1, 0]]), np.array([False, True])), {1: 1})
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     quotient_table_figure(t2, tmp).name, os.listdir(tmp)
    ('multiplication.png', ['multiplication.png'])
    """
    from matplotlib.colors import ListedColormap

    monoid = rule.monoid
    order = monoid.order
    names = [rule.presentation.element_name(x) for x in range(order)]
    size = min(7.5, 1.2 + 0.32 * order)
    fig, (ax,) = new_figure(size, size)
    shaded = monoid.p_portion[monoid.table].astype(int)
    ax.imshow(shaded, cmap=ListedColormap(["#ffffff", COLOURS["P"]]), vmin=0, vmax=1)
    if order <= NAMED_CELLS:
        font = max(4, min(9, int(140 / order)))
        for i in range(order):
            for j in range(order):
                ax.text(j, i, names[monoid.table[i, j]], ha="center", va="center", fontsize=font,
                        color="white" if shaded[i, j] else "black")
        ax.set_xticks(range(order), names, fontsize=font, rotation=90)
        ax.set_yticks(range(order), names, fontsize=font)
    ax.set_xticks(np.arange(-0.5, order), minor=True)
    ax.set_yticks(np.arange(-0.5, order), minor=True)
    ax.grid(which="minor", color="#cccccc", linewidth=0.5)
    ax.tick_params(which="minor", length=0)
    ax.set_title(wrapped(f"Misère quotient of order {order}: x · y (shaded: in the P-portion)", size, 12))
    save_figure(fig, Path(folder) / name)
    p_names = ", ".join(rule.p_names())
    return FigureFile(name, "Multiplication table", f"Row x, column y: the product x · y; shaded cells are the "
                      f"products in the P-portion {{{p_names}}}, the sums whose player to move loses.")


def _label(found, c) -> str:
    components = getattr(found, "components", None)
    return components.label(c) if components is not None else f"heap {c}"


def _blocks(found, figure: FigureFile, command: str | None) -> list:
    rule = found.rule
    blocks = [("h", 1, f"Misère quotient: {found.game.title()}"),
              ("p", [Strong(f"Rule ({found.status}):"), " a sum is a P-position (the player to move loses) exactly "
                     "when the product of its components' elements lies in the P-portion."]),
              ("math", rule.latex(), rule.text(), rule.mathml()),
              ("p", found.statement()),
              ("list", [c.line() for c in found.checks]
               + [f"not checked: {u}" for u in getattr(found, "unchecked", [])]),
              ("figure", figure),
              ("h", 2, "The element of each component")]
    rows = [[Code(_label(found, c)), rule.presentation.element_name(x)]
            for c, x in list(rule.element.items())[:COMPONENTS_SHOWN]]
    blocks.append(("table", ["component", "element"], rows))
    if len(rule.element) > COMPONENTS_SHOWN:
        blocks.append(("p", f"The first {COMPONENTS_SHOWN} of {len(rule.element):,} components; rule.json has all."))
    if command:
        blocks.append(("p", ["Command: ", Code(command), "."]))
    return blocks


def write_quotient_report(found, folder=None, command: str | None = None) -> Path:
    """Write the report of a found misère quotient (heaps or Notakto boards); return the folder. ``command``, the
    command line that made it, is stated in it and in ``discovery.json``.

    Examples
    --------
    >>> import tempfile, os
    >>> from games import make_game
    >>> from discover.quotients import discover_quotient
    >>> found = discover_quotient(make_game("subtraction", subtract=(1, 2), misere=True), checks=((2, 4),))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     sorted(os.listdir(write_quotient_report(found, os.path.join(tmp, "report"))))
    ['discovery.json', 'index.html', 'index.md', 'multiplication.png', 'rule.json']
    """
    from cgbase.files import atomic_folder, write_text
    from discover.app.render.report import REPORT_MARKERS, report_folder

    target = folder if folder is not None else report_folder(found.game)
    with atomic_folder(target, REPORT_MARKERS, "report folder") as built:
        figure = quotient_table_figure(found.rule, built)
        write_text(built / "rule.json", found.rule.to_json() + "\n")
        record = found.to_record() if command is None else {**found.to_record(), "command": command}
        write_text(built / "discovery.json", json.dumps(record, indent=1) + "\n")
        write_document(built, _blocks(found, figure, command), f"Misère quotient: {found.game.title()}")
    return Path(target)
