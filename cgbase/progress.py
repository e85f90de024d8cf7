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

from rich.console import Console
from rich.progress import (BarColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)
from rich.text import Text

__all__ = ["progress_bar", "status", "compact", "clear"]

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


def _console():
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
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(bar_width=8), _Count(),
                            _Rate(self.unit), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                            TextColumn("{task.fields[metric]}"), console=console, transient=True)
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
        self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=console,
                            transient=True)
        _show(self.bar)
        task = self.bar.add_task(self.text, total=None)
        return lambda text: self.bar.update(task, description=text)

    def __exit__(self, *exc):
        if self.bar is not None:
            _hide(self.bar, exc)
        return False


class _Count(ProgressColumn):
    """Done / total, compact."""

    def render(self, task) -> Text:
        return Text(f"{compact(task.completed)}/{compact(task.total)}", no_wrap=True)


class _Rate(ProgressColumn):
    """Done per second, or seconds per step when a step takes longer than a second."""

    def __init__(self, unit: str):
        super().__init__()
        self.unit = unit

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed:
            return Text(f"- {self.unit}/s", no_wrap=True)
        if speed < 1:  # slow steps: seconds per step ("2.6 s/iteration")
            return Text(f"{1 / speed:.1f} s/{self.unit.removesuffix('s')}", no_wrap=True)
        return Text(f"{compact(speed)} {self.unit}/s", no_wrap=True)
