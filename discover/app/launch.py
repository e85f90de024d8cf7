"""The ``discover`` entry point: the command, with Ctrl-C during its start-up answered like any other.

The console script and ``python -m discover`` start here: importing the command (click and the command
modules) takes a moment, and an interrupt then gets the same one line and status 130 as during a run.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> int:
    """Import and run the ``discover`` command; status 130 when interrupted while starting."""
    try:
        from discover.app.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("discover: interrupted\n")
        return 130
    return run()
