"""Whole-command wall time of ``discover GAME`` on every catalogue game, beside ``python -c "import numpy"``.

Run by hand from the repository root (nothing asserts on time; the table is quoted in notes)::

    python benchmarks/commands.py                          # the catalogue, median of 3 runs each
    python benchmarks/commands.py --quick                  # two small cases, one run each
    python benchmarks/commands.py --case wythoff --case misere4 --repeats 5

Each command is what a user types, with its default settings (strategy search and proof included), run
in a fresh process (``python -m discover GAME [NAME=VALUE]...``): start-up, imports, numba's on-disk
cache, the work and the printing all count. Every command runs once untimed first (so a fresh checkout's
numba compilation is not timed), then the rounds interleave the baseline and the commands, so that other
work on the machine slows both sides alike; each figure is the median of its rounds and the ratio is the
command's median over the baseline's; the CPU seconds (user + system) of each
process are printed beside, less swayed by other work than wall time. A command must exit with status 0 and print a verified rule.

A second baseline, the start-up floor, is what every rule command pays before its own work, timed the same way:
the imports a rule command cannot do without (the CLI with click, numpy, numba, sympy and the discovery library),
sympy's first sum (which imports ``sympy.tensor``) and one solve with a kernel from numba's cache (its first load
starts numba's runtime). The "above the floor" column is a command's median less the floor's: its own work.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time

# Run as a script, this file's folder is first on sys.path and its name would shadow packages: drop it.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.append(_HERE)  # the catalogue and the timing helpers (no module of theirs shadows a package)
from catalogue import CASES, catalogue  # noqa: E402
from timing import arguments, load_average, machine_line  # noqa: E402

__all__ = ["BASELINE", "FLOOR", "wall", "main"]

BASELINE = ["-c", "import numpy"]
FLOOR = ["-c", "import discover.app.cli, discover.find, sympy; from games import make_game; from solvers import solve; "
               "solve(make_game('subtraction', subtract=(1, 2, 3)), 30); sympy.Symbol('a') + 1"]
QUICK_CASES = ("nim2", "sub123")


def wall(args: list[str], check_rule: bool = False) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) a fresh ``python ARGS`` takes; it must exit with status 0 (and print
    a verified rule, when ``check_rule``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if run.returncode != 0 or (check_rule and "Rule (verified" not in run.stdout):
        raise AssertionError(f"python {' '.join(args)} exited with {run.returncode} without a verified rule:\n"
                             f"{run.stdout[-1500:]}{run.stderr[-1500:]}")
    return seconds, cpu


def main(argv=None) -> None:
    """Time the chosen commands and the baseline, print one table of medians and ratios."""
    keys = [case.key for case in CASES if not case.control]
    args = arguments(__doc__.split("\n\n")[0], f"cases {', '.join(QUICK_CASES)}, one run each", 3, argv,
                     cases=keys)
    chosen = args.case or (QUICK_CASES if args.quick else [case.key for case in CASES if catalogue(case)])
    repeats = 1 if args.quick else args.repeats
    cases = [case for case in CASES if case.key in chosen]
    commands = {case.key: ["-m", "discover", *case.words()] for case in cases}
    print(machine_line(args.quick))
    print(f"baseline: python {' '.join(BASELINE)}; commands: python -m discover GAME ...; median of {repeats}",
          flush=True)
    for key, command in commands.items():  # untimed: numba's cache filled, files in the page cache
        wall(command, check_rule=True)
    wall(FLOOR)
    times = {"baseline": [], "floor": [], **{key: [] for key in commands}}
    for _ in range(repeats):
        times["baseline"].append(wall(BASELINE))
        times["floor"].append(wall(FLOOR))
        for key, command in commands.items():
            times[key].append(wall(command, check_rule=True))
    base, base_cpu = (statistics.median(column) for column in zip(*times["baseline"]))
    floor = statistics.median(t for t, _ in times["floor"])
    print("\n| command | wall s (median) | runs, wall s | ratio | above the floor, s | CPU s (median) | CPU ratio |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for label, key in [(f"python {' '.join(BASELINE)}", "baseline"), ("start-up floor (FLOOR)", "floor"),
                       *((f"discover {' '.join(case.words())}", case.key) for case in cases)]:
        seconds, cpu = (statistics.median(column) for column in zip(*times[key]))
        runs = " ".join(f"{t:.2f}" for t, _ in times[key])
        above = f"{seconds - floor:.2f}" if key not in ("baseline", "floor") else ""
        print(f"| `{label}` | {seconds:.2f} | {runs} | {seconds / base:.1f}x | {above} | {cpu:.2f} | "
              f"{cpu / base_cpu:.1f}x |", flush=True)
    print(f"\nload average at the end: {load_average()}")


if __name__ == "__main__":
    main()
