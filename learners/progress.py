"""Progress of a learner's fit on a terminal: a bar over episodes or iterations."""

from __future__ import annotations

__all__ = ["progress_bar"]


class progress_bar:
    """A rich progress bar over episodes when ``show``; otherwise nothing."""

    def __init__(self, show: bool, total: int, done: int, label: str):
        self.show, self.total, self.done, self.label = show, total, done, label

    def __enter__(self):
        if not self.show:
            return lambda n: None
        from rich.progress import Progress

        self.bar = Progress(transient=True)
        self.bar.__enter__()
        task = self.bar.add_task(self.label, total=self.total, completed=self.done)
        return lambda n: self.bar.advance(task, n)

    def __exit__(self, *exc):
        if self.show:
            self.bar.__exit__(*exc)
        return False
