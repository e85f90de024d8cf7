"""Progress of a long step on a terminal (a fit, a solve, a search): what runs, how far, how fast, how long, and
the latest score.

One line on stderr, only when stderr is a terminal (never in a pipe or a log): a short label
("QLearner · Nim with 3 heaps"), a bar, done/total, the rate, elapsed and remaining time, and the latest
metric the caller reports (deviations, a score); counts are compact ("112k/200k") so that the line fits
in 100 columns. ``progress_bar`` follows a count; ``status`` a step
of unknown length (a spinner with the elapsed time). ``clear()`` erases every line still shown (Ctrl-C's
watchdog calls it before its "interrupted" message, so that no bar is redrawn after it).
"""

from __future__ import annotations

import os
import sys

__all__ = ["progress_bar", "status", "compact", "clear", "may_style"]

_SHOWN: list = []  # the rich Progress displays on the terminal now, innermost last


def compact(n: float) -> str:
    """A count in at most five characters.

    Examples
    --------
    >>> [compact(n) for n in (7, 4000, 112_000, 2_500_000)]
    ['7', '4,000', '112k', '2.5M']
    """
    if n < 10_000:
        return f"{n:,.0f}"
    return f"{n / 1e3:.0f}k" if n < 999_500 else f"{n / 1e6:.1f}M"


def may_style(stream) -> bool:
    """Whether rich may style ``stream``: a tty, or rich told so (``FORCE_COLOR``, ``TTY_COMPATIBLE``); where not,
    callers write plain text without importing rich (50 ms).

    Examples
    --------
    >>> import io
    >>> may_style(io.StringIO()) == ("FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ)
    True
    """
    try:
        tty = stream is not None and stream.isatty()
    except ValueError:  # closed
        tty = False
    return tty or "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ


def _console():
    """rich's console on stderr when it is a terminal, else None (rich imported only when ``may_style``)."""
    if not may_style(sys.stderr):
        return None
    from rich.console import Console

    console = Console(stderr=True)
    return console if console.is_terminal else None


def clear() -> None:
    """Stop and erase every progress line on the terminal (from any thread); a no-op when none is shown.

    Examples
    --------
    >>> clear()
    """
    while _SHOWN:
        display = _SHOWN.pop()
        try:
            display.stop()
        except Exception:  # noqa: BLE001 - a display half torn down by the main thread: nothing left to erase
            pass


def _show(display):
    display.__enter__()
    _SHOWN.append(display)
    return display


def _hide(display, exc) -> None:
    if display in _SHOWN:
        _SHOWN.remove(display)
        display.__exit__(*exc)


class progress_bar:
    """A progress bar while ``show`` and stderr is a terminal; the context yields ``advance(n, metric="")``."""

    def __init__(self, show: bool, total: int, done: int, label: str, unit: str = "games"):
        self.show, self.total, self.done, self.label, self.unit = show, total, done, label, unit
        self.bar = None

    def __enter__(self):
        console = _console() if self.show else None
        if console is None:
            return lambda n, metric="": None
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        unit = self.unit
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(bar_width=8), _text_column(_count_text),
                            _text_column(lambda task: _rate_text(task, unit)), TimeElapsedColumn(), TextColumn("left"),
                            TimeRemainingColumn(), TextColumn("{task.fields[metric]}"), console=console,
                            transient=True)
        _show(self.bar)
        task = self.bar.add_task(self.label, total=self.total, completed=self.done, metric="")
        return lambda n, metric="": self.bar.update(task, advance=n, **({"metric": metric} if metric else {}))

    def __exit__(self, *exc):
        if self.bar is not None:
            _hide(self.bar, exc)
        return False


class status:
    """A spinner with the elapsed time while a step of unknown length runs (on a terminal); the context
    yields ``say(text)`` to change the words."""

    def __init__(self, text: str):
        self.text, self.bar = text, None

    def __enter__(self):
        console = _console()
        if console is None:
            return lambda text: None
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=console,
                            transient=True)
        _show(self.bar)
        task = self.bar.add_task(self.text, total=None)
        return lambda text: self.bar.update(task, description=text)

    def __exit__(self, *exc):
        if self.bar is not None:
            _hide(self.bar, exc)
        return False


def _text_column(render):
    """A rich column that draws ``render(task)`` (a string) on one line."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Column(ProgressColumn):
        def render(self, task) -> Text:
            return Text(render(task), no_wrap=True)

    return Column()


def _count_text(task) -> str:
    """Done / total, compact."""
    return f"{compact(task.completed)}/{compact(task.total)}"


def _rate_text(task, unit: str) -> str:
    """Done per second, or seconds per step when a step takes longer than a second."""
    speed = task.finished_speed or task.speed
    if not speed:
        return f"- {unit}/s"
    if speed < 1:  # slow steps: seconds per step ("2.6 s/iteration")
        return f"{1 / speed:.1f} s/{unit.removesuffix('s')}"
    return f"{compact(speed)} {unit}/s"
