"""The machine a run happened on, in one line, for every report that quotes a time.

Examples
--------
>>> "CPUs" in machine() and "load average" in machine()
True
"""

from __future__ import annotations

import os
import platform

__all__ = ["machine", "load_average"]


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, or "unknown"."""
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not every platform has it
        return "unknown"


def machine() -> str:
    """Processor, CPUs, Python and the load average (other work on a machine slows every figure)."""
    return (f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"load average {load_average()}")
