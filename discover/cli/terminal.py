"""The terminal's width, and text wrapped on words to it: every command's final output goes through ``wrap``
(through ``discover.cli.common.say``, or directly as the rule command's printing does), so that no word is broken
at the terminal's edge; in a pipe or a file the text is left as it is.
"""

from __future__ import annotations

__all__ = ["terminal_width", "wrap"]


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
