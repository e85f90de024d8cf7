"""Rule discovery on the catalogue, side by side with gplearn given the same primitives.

Run by hand from the repository root (nothing here is asserted on time; figures are printed
to be quoted in notes)::

    python benchmarks/discover.py                    # every case, about 5 minutes on 2 cores
    python benchmarks/discover.py --quick            # tiny budgets, five cases: a smoke run
    python benchmarks/discover.py --cases nim3,wythoff,kayles

For each case, in one process:

* **ours**: ``discover.find.find_rule(game)`` with its defaults.  "find" is the time to the
  first exact candidate that verifies: the training solve plus the engines that ran
  (``Discovery.timings``; engines run lazily, so the ones after the winner never start);
  "verify" is the verification (solve on the verification bound, agreement, closure
  certificate, self-play), including candidates refuted on the way.  Each figure is its best
  over ``--repeats`` runs, so loading numba's on-disk cache is not timed.
* **gplearn**: ``SymbolicClassifier`` (P targets) or ``SymbolicRegressor`` (Grundy targets)
  fitted on the very same table (``table_from_solution`` of the training bound ours ended
  on), with a function set mirroring our grammar where gplearn allows.  Its program is
  scored on the training rows ("train exact-rate") and on every position of the
  verification bound ours used, features built the same way ("verify exact?").
* **ratio**: gplearn's fit time over our find time.
"""

from __future__ import annotations

import os
import sys

# Run as a script, this file's folder is first on sys.path and its name would shadow the
# ``discover`` package: drop the folder before importing anything of the project.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import argparse  # noqa: E402
import platform  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

from discover.find import find_rule  # noqa: E402
from discover.table import build_table, table_from_solution  # noqa: E402
from solvers import solve  # noqa: E402

sys.path.append(_HERE)  # the catalogue, once the packages are imported
from catalogue import CASES, Case, catalogue  # noqa: E402

__all__ = ["gplearn_functions", "main"]

PHI = (1 + 5 ** 0.5) / 2
BIG = 2.0 ** 40  # gplearn values are clipped to this before rounding to int64
CHUNK = 500_000  # verification rows scored at a time


QUICK_CASES = ("nim3", "wythoff", "sub134", "lasker", "wythoff_nd3")
FULL = {"population": 1000, "generations": 20, "repeats": 2}
QUICK = {"population": 100, "generations": 3, "repeats": 1}


# -- gplearn's primitives, mirroring our grammar ------------------------------------------------
def _ints(x):
    """Round gplearn's float values to int64 (clipped, NaN -> 0), as our integer grammar sees them."""
    return np.rint(np.clip(np.nan_to_num(x, nan=0.0, posinf=BIG, neginf=-BIG), -BIG, BIG)).astype(np.int64)


def _xor(x, y):
    return np.bitwise_xor(_ints(x), _ints(y)).astype(float)


def _mod(x, y):
    d = _ints(y)
    return np.where(d != 0, np.mod(_ints(x), np.where(d != 0, d, 1)), 0).astype(float)


def _floor_phi(x):
    return np.floor(PHI * np.clip(np.nan_to_num(x), -BIG, BIG))


def _eq(x, y):
    return (_ints(x) == _ints(y)).astype(float)


def _lt(x, y):
    return (_ints(x) < _ints(y)).astype(float)


def _le(x, y):
    return (_ints(x) <= _ints(y)).astype(float)


def gplearn_functions() -> list:
    """gplearn's function set for the benchmark: its built-ins plus our integer primitives.

    ``add sub mul div min max abs`` are gplearn's own (``div`` is its protected division);
    ``xor``, ``mod``, ``eq``, ``lt`` and ``le`` round their arguments to integers first, as
    our grammar works on integers; ``floor_phi`` is ``floor(phi * x)``.

    Examples
    --------
    >>> [f if isinstance(f, str) else f.name for f in gplearn_functions()][-6:]
    ['xor', 'mod', 'floor_phi', 'eq', 'lt', 'le']
    """
    from gplearn.functions import make_function

    custom = [("xor", _xor, 2), ("mod", _mod, 2), ("floor_phi", _floor_phi, 1),
              ("eq", _eq, 2), ("lt", _lt, 2), ("le", _le, 2)]
    return ["add", "sub", "mul", "div", "min", "max", "abs"] + [
        make_function(function=fn, name=name, arity=arity, wrap=False) for name, fn, arity in custom
    ]


def _labels(target, solution, ids):
    """The solver's labels of the positions with these ids: P flags (bool) or Grundy values (int)."""
    return solution.outcome_table[ids] == -1 if target == "P" else solution.grundy_table[ids]


def _correct(estimator, X, y, target) -> np.ndarray:
    """Rows where gplearn's program gives the label (Grundy predictions rounded to integers)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        predicted = estimator.predict(X.astype(float))
    if target == "grundy":
        return _ints(predicted) == y
    return predicted.astype(bool) == y


def run_gplearn(game, target, train_bound, verify_bound, population, generations, seed=0) -> dict:
    """Fit gplearn on the training table ours used; score it there and on the verification bound."""
    from gplearn.genetic import SymbolicClassifier, SymbolicRegressor

    table = table_from_solution(solve(game, bound=train_bound, grundy=target == "grundy"))
    y = table.y(target)
    kind = SymbolicClassifier if target == "P" else SymbolicRegressor
    estimator = kind(population_size=population, generations=generations, function_set=gplearn_functions(),
                     const_range=(-10.0, 10.0), feature_names=table.feature_names, random_state=seed, n_jobs=1)
    start = time.perf_counter()
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        estimator.fit(table.X.astype(float), y)
    seconds = time.perf_counter() - start
    train_rate = float(np.mean(_correct(estimator, table.X, y, target)))
    majority = float(np.max(np.unique(y, return_counts=True)[1]) / len(y))

    start = time.perf_counter()
    solution = solve(game, bound=verify_bound, grundy=target == "grundy")
    size, right = solution.universe.size, 0
    for lo in range(0, size, CHUNK):
        ids = np.arange(lo, min(lo + CHUNK, size), dtype=np.int64)
        labels = _labels(target, solution, ids)
        chunk = build_table(game, solution.universe.positions(ids), labels if target == "P" else labels == 0,
                            labels if target == "grundy" else None)
        right += int(np.count_nonzero(_correct(estimator, chunk.X, labels, target)))
    return {"kind": kind.__name__, "seconds": seconds, "program": str(estimator._program),
            "train_rate": train_rate, "majority": majority, "verify_rate": right / size,
            "verify_wrong": size - right, "verify_size": size, "verify_seconds": time.perf_counter() - start}


# -- ours ---------------------------------------------------------------------------------------
def run_ours(game, repeats: int, budget: dict) -> dict:
    """``find_rule(game)`` with defaults, no strategy and no proof (``benchmarks/proofs.py`` times those); each
    figure is its best over ``repeats`` runs.

    The runs must agree on the status and the rule (everything is seeded).
    """
    runs, found = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        again = find_rule(game, strategy=False, prove=False, **budget)
        total = time.perf_counter() - start
        answer = (again.status, again.rule and str(again.rule.expr))
        assert found is None or answer == (found.status, found.rule and str(found.rule.expr)), \
            f"find_rule gave different answers on {game!r} in two runs"
        found, t = again, again.timings
        engines = {k: v for k, v in t.items() if k.startswith("engine ")}
        engines |= {k: v for k, v in t.items() if k == "take-and-break engine"}
        runs.append({"total": total, "find": t.get("solve (training)", 0.0) + sum(engines.values()),
                     "verify": t.get("verify", 0.0), "solve_train": t.get("solve (training)", 0.0),
                     "solve_verify": t.get("solve (verification)", 0.0), **engines})
    best = {key: min(run[key] for run in runs) for key in runs[0]}
    return {**best, "found": found, "target": "grundy" if game.parts > 1 else "P",
            "engines": {k.removeprefix("engine "): v for k, v in best.items() if k.startswith("engine ")}}


# -- report -------------------------------------------------------------------------------------
def secs(seconds: float) -> str:
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def times(ratio: float) -> str:
    return f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.1f}x"


def _status(case: Case, found) -> str:
    good = found.status != "verified" if case.control else found.status == "verified"
    return found.status + ("" if good else " (!)")


def _short(text: str, width: int = 58) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def command_wall(case: Case) -> float:
    """Wall time of the whole command ``discover GAME ... --json --no-proof`` in a fresh process (imports,
    numba's cache, printing included); exit status 1 is "no rule found", anything else an error."""
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "discover", *case.words(), "--json", "--no-proof"],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"discover {' '.join(case.words())} exited with {run.returncode}: {run.stderr[-500:]}")
    return time.perf_counter() - start


def run_case(case: Case, budget: dict) -> dict:
    game = case.make()
    print(f"\n== {case.key}: {case.label}   {game!r}", flush=True)
    print(f"   expect           : {case.expect}")
    ours = run_ours(game, budget["repeats"], case.budget)
    ours["command"] = command_wall(case)
    found = ours["found"]
    rule = found.rule.text() if found.rule else "-"
    print(f"   ours             : {_status(case, found)}  {rule}")
    if found.rule is not None:
        print(f"                      engine {found.rule.provenance.get('engine')}, complexity {found.rule.complexity},"
              f" target {ours['target']}")
    if found.status != "verified" and found.best_partial is not None:
        print(f"   best partial     : {_short(found.best_partial.text(), 90)}"
              f"  (train accuracy {found.best_partial.train_accuracy:.4f})")
    failed = [c.line() for c in found.checks if not c.passed]
    for line in failed:
        print(f"   failed check     : {line}")
    engines = ", ".join(f"{k} {secs(v)}" for k, v in ours["engines"].items())
    print(f"   bounds           : train {found.train_bound}, verify {found.verify_bound}")
    print(f"   ours find        : {secs(ours['find'])} s  (training solve {secs(ours['solve_train'])};"
          f" engines: {engines})")
    print(f"   ours verify      : {secs(ours['verify'])} s  (of which verification solve {secs(ours['solve_verify'])});"
          f" total wall {secs(ours['total'])} s; each figure best of {budget['repeats']}")
    print(f"   whole command    : {secs(ours['command'])} s wall (discover ... --json --no-proof, a fresh process);"
          f" find + solve {secs(ours['find'] + ours['solve_verify'])} s")
    gp = run_gplearn(game, ours["target"], found.train_bound, found.verify_bound,
                     budget["population"], budget["generations"])
    print(f"   gplearn          : {gp['kind']} pop {budget['population']} gen {budget['generations']}: fit"
          f" {secs(gp['seconds'])} s")
    print(f"   gplearn program  : {_short(gp['program'], 200)}")
    print(f"   gplearn exact    : train {gp['train_rate']:.4f} (majority label alone {gp['majority']:.4f});"
          f" verify bound {found.verify_bound} ({gp['verify_size']:,} positions) {gp['verify_rate']:.4f},"
          f" {gp['verify_wrong']:,} wrong  [scored in {secs(gp['verify_seconds'])} s]")
    ratio = gp["seconds"] / ours["find"] if found.status == "verified" and ours["find"] > 0 else None
    if ratio is None:
        print("   ratio            : - (ours verified no rule: no time to a rule)", flush=True)
    else:
        print(f"   ratio            : gplearn fit / ours find = {times(ratio)};"
              f" / ours find + verify = {times(gp['seconds'] / (ours['find'] + ours['verify']))}", flush=True)
    return {"case": case, "ours": ours, "gplearn": gp, "ratio": ratio}


def print_table(rows: list[dict]) -> None:
    print("\n== Summary (find = training solve + engines up to the verified rule; ratio = gplearn fit / ours find)\n")
    print("| case | ours: status | rule | command s | find + solve s | find s | verify s | gplearn s |"
          " train exact-rate (majority) | verify exact? | ratio |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for r in rows:
        case, ours, gp = r["case"], r["ours"], r["gplearn"]
        found = ours["found"]
        rule = _short(found.rule.text() if found.rule else "-").replace("|", "\\|")
        exact = "yes" if gp["verify_wrong"] == 0 else f"no ({gp['verify_wrong']:,} of {gp['verify_size']:,} wrong)"
        ratio = "-" if r["ratio"] is None else times(r["ratio"])
        print(f"| {case.key} | {_status(case, found)} | {rule} | {secs(ours['command'])} |"
              f" {secs(ours['find'] + ours['solve_verify'])} | {secs(ours['find'])} | {secs(ours['verify'])} |"
              f" {secs(gp['seconds'])} | {gp['train_rate']:.4f} ({gp['majority']:.4f}) | {exact} | {ratio} |")
    catalogue_rows = [r for r in rows if catalogue(r["case"])]
    if catalogue_rows:
        under = sum(r["ours"]["find"] < 2.0 and r["ours"]["found"].status == "verified" for r in catalogue_rows)
        ratios = [r["ratio"] for r in catalogue_rows if r["ratio"] is not None]
        print(f"\ncatalogue cases verified with find < 2 s: {under} of {len(catalogue_rows)}")
        if ratios:
            print(f"ratio gplearn / ours find over verified catalogue cases: median {times(np.median(ratios))},"
                  f" min {times(min(ratios))}")
        print(f"gplearn exact on the verification bound: {sum(r['gplearn']['verify_wrong'] == 0 for r in catalogue_rows)}"
              f" of {len(catalogue_rows)} catalogue cases")
    print("(!) marks a status that is not the expected one (verified for catalogue cases, not verified for controls)")


def _versions() -> str:
    import gplearn
    import numba
    import sklearn

    try:
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not every platform has it
        load = "unknown"
    return (f"python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, gplearn"
            f" {gplearn.__version__}, scikit-learn {sklearn.__version__}; {os.cpu_count()} CPUs, load average {load}")


def main(argv=None) -> None:
    """Parse the options, run the chosen cases and print the summary table."""
    keys = [c.key for c in CASES]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"tiny gplearn budget, one run of ours, cases {','.join(QUICK_CASES)}")
    parser.add_argument("--cases", help=f"comma-separated case keys: {','.join(keys)}")
    parser.add_argument("--population", type=int, help="gplearn population (default 1000; 100 with --quick)")
    parser.add_argument("--generations", type=int, help="gplearn generations (default 20; 3 with --quick)")
    parser.add_argument("--repeats", type=int, help="runs of find_rule per case, best kept (default 2; 1 with --quick)")
    args = parser.parse_args(argv)
    budget = dict(QUICK if args.quick else FULL)
    for name in budget:
        value = getattr(args, name)
        if value is not None:
            if value < 1:
                parser.error(f"--{name} must be a positive integer, got {value}")
            budget[name] = value
    chosen = args.cases.split(",") if args.cases else (QUICK_CASES if args.quick else keys)
    unknown = [k for k in chosen if k not in keys]
    if unknown:
        parser.error(f"unknown case {', '.join(unknown)}; choose from: {','.join(keys)}")

    print(_versions())
    print(f"gplearn budget: population {budget['population']}, generations {budget['generations']}, random_state 0,"
          f" n_jobs 1; ours: find_rule defaults, best of {budget['repeats']}", flush=True)
    start = time.perf_counter()
    rows = [run_case(c, budget) for c in CASES if c.key in chosen]
    print_table(rows)
    print(f"\ntotal wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
