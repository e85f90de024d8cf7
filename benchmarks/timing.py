"""Timing and printing helpers shared by the benchmark scripts (run as ``python benchmarks/NAME.py``)."""

from __future__ import annotations

import os
import time

__all__ = ["best_of", "fmt_time", "heading", "load_average"]


def best_of(fn, repeats: int):
    """(best wall time in seconds, result of the last call) over ``repeats`` calls."""
    best, result = float("inf"), None
    for _ in range(repeats):
        result = None  # let the previous result go before the next call allocates
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def heading(text: str) -> None:
    print(f"\n== {text}", flush=True)


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, or "unknown"."""
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not every platform has it
        return "unknown"
