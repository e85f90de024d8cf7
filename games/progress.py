"""Progress of a long step on a terminal (a fit, a solve, a search): what runs, how far, how fast, how long, and
the latest score.

One line on stderr, only when stderr is a terminal (never in a pipe or a log): a short label
("QLearner · nim(heaps=3)"), a bar, done/total, the rate, elapsed and remaining time, and the latest
metric the caller reports (deviations, a score). ``progress_bar`` follows a count; ``status`` a step
of unknown length (a spinner with the elapsed time).
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text

__all__ = ["progress_bar", "status", "label"]


def label(learner, game) -> str:
    """The short label of a fit: the learner's class and the game.

    Examples
    --------
    >>> from games import make_game
    >>> class QLearner: pass
    >>> label(QLearner(), make_game("nim", heaps=3))
    'QLearner · nim(heaps=3, misere=False)'
    """
    return f"{type(learner).__name__} · {game!r}"


def _console():
    console = Console(stderr=True)
    return console if console.is_terminal else None


class progress_bar:
    """A progress bar while ``show`` and stderr is a terminal; the context yields ``advance(n, metric="")``."""

    def __init__(self, show: bool, total: int, done: int, label: str, unit: str = "games"):
        self.show, self.total, self.done, self.label, self.unit = show, total, done, label, unit
        self.bar = None

    def __enter__(self):
        console = _console() if self.show else None
        if console is None:
            return lambda n, metric="": None
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(bar_width=16), MofNCompleteColumn(),
                            _Rate(self.unit), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                            TextColumn("{task.fields[metric]}"), console=console, transient=True)
        self.bar.__enter__()
        task = self.bar.add_task(self.label, total=self.total, completed=self.done, metric="")
        return lambda n, metric="": self.bar.update(task, advance=n, **({"metric": metric} if metric else {}))

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
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
        self.bar.__enter__()
        task = self.bar.add_task(self.text, total=None)
        return lambda text: self.bar.update(task, description=text)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


class _Rate(ProgressColumn):
    """Done per second."""

    def __init__(self, unit: str):
        super().__init__()
        self.unit = unit

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} {self.unit}/s" if speed else f"- {self.unit}/s")
