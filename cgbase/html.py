"""The notebook view of a result: one small HTML card (``card``) that every ``_repr_html_`` of the toolkit
returns, and the one-line text of a ``__repr__`` cut to a length (``short``).

A card is a title, rows of a name and a value, and optional sections (a heading and their HTML), with inline
styles only: Jupyter, VS Code and GitHub show it without a stylesheet or a script.
"""

from __future__ import annotations

from html import escape

__all__ = ["card", "short", "escape", "REPR_LIMIT"]

REPR_LIMIT = 200  # characters of a one-line repr

_CELL = 'style="text-align:left;padding:1px 10px 1px 0;vertical-align:top"'


def card(title: str, rows, sections=()) -> str:
    """An HTML card: ``title`` (text), ``rows`` of ``(name, value_html)`` (a value None is left out) and
    ``sections`` of ``(heading, html)``; the names and headings are escaped, the values are HTML.

    Examples
    --------
    >>> html = card("Rule <P>", [("status", "verified"), ("proof", None)], [("checks", "<ul><li>a</li></ul>")])
    >>> html.count("<tr>"), "Rule &lt;P&gt;" in html, ">verified</td>" in html, "<em>checks</em><ul>" in html
    (1, True, True, True)
    """
    body = "".join(f"<tr><th {_CELL}>{escape(name)}</th><td {_CELL}>{value}</td></tr>"
                   for name, value in rows if value is not None)
    parts = "".join(f"<div><em>{escape(heading)}</em>{content}</div>" for heading, content in sections)
    return f'<div class="cgdiscover"><strong>{escape(title)}</strong><table>{body}</table>{parts}</div>'


def short(text: str, limit: int = REPR_LIMIT) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis.

    Examples
    --------
    >>> short("P iff a ⊕ b = 0\\nmore", 12)
    'P iff a ⊕ b…'
    """
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit - 1].rstrip() + "…"
