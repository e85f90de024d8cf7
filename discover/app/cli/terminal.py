"""The terminal's width, and text wrapped on words to it: every command's final output goes through ``wrap``
(through ``discover.app.cli.common.say``, or ``line_printer`` as the rule and quotient commands print), so that no word
is broken at the terminal's edge; in a pipe or a file the text is left as it is.
"""

from __future__ import annotations

__all__ = ["terminal_width", "wrap", "line_printer"]


def terminal_width() -> int | None:
    """The terminal's width in columns when stdout is a terminal; None in a pipe or a file (output stays plain)."""
    import shutil
    import sys

    try:
        if not sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):  # a replaced or closed stdout
        return None
    return shutil.get_terminal_size().columns


def wrap(text: str, width: int | None) -> str:
    """Each line of ``text`` wrapped on words to ``width`` columns (a line's continuation indented two spaces
    under its own indent; the rows of a table, lines that begin with ``|``, are left whole); ``text`` unchanged
    when ``width`` is None (not a terminal).

    Examples
    --------
    >>> print(wrap("  P iff a xor b xor c = 0, checked on every position", 24))
      P iff a xor b xor c =
        0, checked on every
        position
    >>> wrap("one long line", None)
    'one long line'
    """
    import textwrap

    if width is None:
        return text
    lines = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        if line.lstrip().startswith("|"):
            lines.append(line)
            continue
        lines += textwrap.wrap(line, max(width, len(indent) + 20), subsequent_indent=indent + "  ",
                               break_on_hyphens=False) or [line]
    return "\n".join(lines)


def line_printer():
    """``line(text, style=None)``: one piece of final output on stdout, wrapped on words to the terminal's width
    and styled by rich (``style``: "bold", "dim", ...) on a terminal, or where rich is told to style
    (``FORCE_COLOR``, ``TTY_COMPATIBLE``); plain in a pipe or a file, where rich (50 ms to import) is not imported.

    Examples
    --------
    >>> line = line_printer()  # doctest's stdout is no terminal: plain
    >>> line("Rule (verified on bound 300):", "bold green")
    Rule (verified on bound 300):
    """
    import sys

    import click

    from cgbase.progress import may_style

    if not may_style(sys.stdout):
        return lambda text, style=None: click.echo(text)
    from rich.console import Console
    from rich.text import Text

    out, width = Console(highlight=False, soft_wrap=True), terminal_width()
    return lambda text, style=None: out.print(Text(wrap(text, width), style=style or ""))
