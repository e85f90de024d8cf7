"""Timing and printing helpers shared by the benchmark scripts (run as ``python benchmarks/NAME.py``)."""

from __future__ import annotations

import argparse
import time

from cgbase.machine import load_average, machine

__all__ = ["best_of", "fmt_time", "heading", "load_average", "arguments", "machine_line", "print_table"]


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


def print_table(rows) -> None:
    """Print rows of text cells in aligned columns, the first row a heading underlined with dashes."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for i, row in enumerate(rows):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
        if i == 0:
            print("  ".join("-" * width for width in widths))


def heading(text: str) -> None:
    print(f"\n== {text}", flush=True)


def arguments(description: str, quick_help: str, repeats: int, argv=None, extra=(), cases=()) -> argparse.Namespace:
    """The options every benchmark takes (``--quick``, ``--repeats``), with ``extra`` (flag, help) switches and,
    when ``cases`` are named, ``--case NAME`` (repeatable: only those cases; default all)."""
    parser = argparse.ArgumentParser(description=description)
    if cases:
        parser.add_argument("--case", action="append", choices=list(cases), help="run only this case (repeatable)")
    parser.add_argument("--quick", action="store_true", help=quick_help)
    parser.add_argument("--repeats", type=int, default=repeats, help=f"best of this many timed runs (default {repeats})")
    for flag, help_text in extra:
        parser.add_argument(flag, action="store_true", help=help_text)
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    return args


def machine_line(quick: bool) -> str:
    """Versions, cores, architecture, sizes and the load average: the conditions of a run."""
    import numba as nb
    import numpy as np

    return (f"{machine()}; numpy {np.__version__}, numba {nb.__version__}; sizes: {'quick' if quick else 'full'} "
            "(other work on the machine slows every figure)")
