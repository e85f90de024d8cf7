"""Parameter sweeps of a learner: every point of a grid of its parameters, repeated with seeds, side by side.

``run(learner, game, grid, ...)`` fits the learner once per grid point and seed (``repeats`` seeds
``seed, seed + 1, ...``, the same seeds at every point) on ``cgbase.parallel.Workers`` and returns
the record. Each run keeps its final metrics (the tabular learners': the optimality deviations of
the greedy policy, the optimal-move rate in play over the last interval and its mean over the
whole curve, the greedy policy's win rates against random and optimal players, the games to the
first record without deviation) and its learning curve. ``sweep_json(record)`` is the text of
``sweep.json`` (the sweep's settings, then one record per run in run order: the same bytes whatever
the backend and the number of workers); ``discover.app.render.sweep.write`` writes it with the report.

Given a folder, a sweep resumes: each run is appended to ``folder/runs.jsonl`` as it ends, and a
later run of the same sweep (same learner, game, bound, games, opponent and curve points) skips
the runs found there or in ``sweep.json``. ``discover sweep`` and the Nim study
(``discover.app.experiments.nim_study``) call both.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import time
from pathlib import Path

from cgbase.machine import machine
from cgbase.validation import at_most

__all__ = ["run", "parse_grid", "check_grid", "grid_points", "fit_run", "final_metrics", "check_run", "check_folder", "folder_markers",
           "sweep_json", "default_rank", "check_rank", "OPPONENTS", "JOURNAL", "MARKERS", "COPY_SEED", "MAX_RUNS"]

JOURNAL = "runs.jsonl"  # the runs of a sweep under way, one line each
MARKERS = ("sweep.json", "index.md")  # a finished sweep: an existing folder holding these may be replaced
OPPONENTS = ("self", "copy", "random", "optimal", "greedy")
COPY_SEED = 1000  # an untrained copy plays with the run's seed + this
TIMINGS = ("seconds", "cpu_seconds")  # kept out of sweep.json: they differ from run to run
NOT_METRICS = ("episode", "iteration", "eval_games")  # curve columns that are no final metric (where, and on what)
DIGITS = 6  # decimals kept of every number of a run
MAX_RUNS = 100_000  # grid points times repeats at most

_INTEGER = re.compile(r"[+-]?[0-9]+")  # ASCII digits only: float() and int() also take '٣'
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


# -- the grid ----------------------------------------------------------------------------------------------
def parse_grid(text: str | None, learner: str) -> dict:
    """The grid written in ``text`` (words ``name=v1,v2,...`` apart by spaces) for the registered ``learner``.

    A value is a number, ``true``/``false``, ``none`` or a word; ``check_grid`` then checks it against the
    learner's parameters. Text is parsed, never evaluated.

    Examples
    --------
    >>> parse_grid("alpha=0.1,0.3 epsilon=0.5", "q")
    {'alpha': [0.1, 0.3], 'epsilon': [0.5]}
    >>> parse_grid("alpha=0.1 alpha=0.3", "q")
    Traceback (most recent call last):
    ...
    ValueError: grid: alpha is given twice; list its values once, apart by commas (alpha=0.1,0.3)
    """
    grid: dict = {}
    for word in (text or "").split():
        name, sep, values = word.partition("=")
        if not sep or not name or not values:
            raise ValueError(f"grid: {word!r} is not name=value,value,...; write e.g. alpha=0.1,0.3")
        if name in grid:
            raise ValueError(f"grid: {name} is given twice; list its values once, apart by commas ({name}=0.1,0.3)")
        grid[name] = [_value(name, item) for item in values.split(",")]
    return check_grid(grid, learner)


def _value(name: str, item: str):
    if _INTEGER.fullmatch(item):
        return int(item)
    if _NUMBER.fullmatch(item):
        return float(item)
    if item.lower() in ("true", "false", "none"):
        return {"true": True, "false": False, "none": None}[item.lower()]
    if _WORD.fullmatch(item):
        return item
    raise ValueError(f"grid: {name}={item!r} is neither a number, true, false, none nor a word")


def check_grid(grid: dict, learner: str) -> dict:
    """``grid`` (name -> list of values) checked against the registered ``learner``'s parameters: a known
    name other than ``random_state`` (seeds are the sweep's), values of the parameter's kind, every point
    accepted by the learner's own checks (``Learner.check_params``); integers become floats where the
    parameter is a float.

    Examples
    --------
    >>> check_grid({"alpha": [1]}, "q")
    {'alpha': [1.0]}
    >>> check_grid({"alpha": [0.1, 0.1]}, "q")
    Traceback (most recent call last):
    ...
    ValueError: grid: alpha lists 0.1 twice; list each value once
    >>> check_grid({"alpah": [0.1]}, "q")
    Traceback (most recent call last):
    ...
    ValueError: grid: learner q has no parameter 'alpah' (did you mean alpha?); its parameters: alpha, gamma, backup, exploration, epsilon, eta, temperature
    """
    import difflib

    from learners.registry import make_learner

    if not isinstance(grid, dict):
        raise TypeError(f"a grid is a dict of parameter -> list of values, got {type(grid).__name__}")
    defaults = make_learner(learner).ordered_params()
    defaults.pop("random_state")
    checked = {}
    for name, values in grid.items():
        if name == "random_state":
            raise ValueError("grid: random_state is not swept; the seeds are the sweep's (seed and repeats)")
        if name not in defaults:
            close = difflib.get_close_matches(str(name), defaults, 1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise ValueError(f"grid: learner {learner} has no parameter {name!r}{hint}; its parameters: "
                             f"{', '.join(defaults)}")
        values = list(values) if isinstance(values, (list, tuple)) else [values]
        if not values:
            raise ValueError(f"grid: {name} has no value; give at least one")
        checked[name] = [_of_kind(name, v, defaults[name]) for v in values]
        repeated = [v for i, v in enumerate(checked[name]) if v in checked[name][:i]]
        if repeated:  # the same point twice would be fitted twice and ranked beside itself
            raise ValueError(f"grid: {name} lists {repeated[0]!r} twice; list each value once")
    at_most(math.prod(len(v) for v in checked.values()), "grid points", MAX_RUNS, "each point is fitted at least once")
    for point in grid_points(checked):
        words = " ".join(f"{k}={v}" for k, v in point.items())
        try:
            make_learner(learner, 0, **point).check_params()
        except ValueError as err:
            raise ValueError(f"grid: learner {learner} cannot take {words}: {err}") from None
        except TypeError:  # a word where the learner compares numbers
            names = [k for k, v in point.items() if isinstance(v, str) and isinstance(defaults[k], float)]
            raise ValueError(f"grid: learner {learner} cannot take {words}: {' and '.join(names) or 'each value'} "
                             f"must be a number") from None
    return checked


def _of_kind(name: str, value, default):
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if value is None or default is None:
        return value
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = number or isinstance(value, str)  # a word such as alpha=visits: the learner's checks decide
        value = float(value) if number else value
    elif isinstance(default, str):
        ok = isinstance(value, str)
    else:
        raise ValueError(f"grid: {name} takes a {type(default).__name__} ({default!r}), which a grid of text "
                         f"cannot hold; sweep it from Python")
    if not ok:
        raise ValueError(f"grid: {name}={value!r} is not a {type(default).__name__} like its default {default!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"grid: {name}={value!r} is not a finite number")
    return value


def grid_points(grid: dict) -> list[dict]:
    """Every combination of the grid's values, the last name varying fastest.

    Examples
    --------
    >>> grid_points({"alpha": [0.1, 0.3], "epsilon": [0.5, 0.9]})
    [{'alpha': 0.1, 'epsilon': 0.5}, {'alpha': 0.1, 'epsilon': 0.9}, {'alpha': 0.3, 'epsilon': 0.5}, {'alpha': 0.3, 'epsilon': 0.9}]
    """
    names = list(grid)
    return [dict(zip(names, values)) for values in itertools.product(*(grid[n] for n in names))]


# -- one run -----------------------------------------------------------------------------------------------
def fit_run(learner: str, params: dict, game, bound: int, episodes: int | None, seed: int, opponent: str,
            points: int) -> dict:
    """One run of a sweep: ``learner`` with ``params`` fitted with ``seed``; ``{"final": metrics, "curve": columns}``.

    ``opponent`` is one of ``OPPONENTS`` (``"copy"``: an untrained copy with the same parameters and seed
    ``seed + COPY_SEED``, learning alongside); tabular learners record ``points`` points of their curve.

    Examples
    --------
    >>> from games import make_game
    >>> out = fit_run("q", {"alpha": 0.5}, make_game("nim", heaps=2), 3, 2000, 0, "copy", 4)
    >>> out["curve"]["episode"], out["final"]["deviations"]
    ([500, 1000, 1500, 2000], 0)
    """
    from learners.registry import fit_learner, make_learner

    options = {}
    if make_learner(learner).opponents:
        options["opponent"] = make_learner(learner, seed + COPY_SEED, **params) if opponent == "copy" else opponent
        if episodes is not None:
            options["eval_every"] = max(1, episodes // points)
    fitted = fit_learner(learner, game, bound=bound, games=episodes, seed=seed, params=params, **options)
    history = fitted.history_
    names = [k for k in dict.fromkeys(k for record in history for k in record)
             if k not in TIMINGS and all(_is_number(record.get(k)) for record in history)]
    curve = {k: [_rounded(record[k]) for record in history] for k in names}
    final = final_metrics(curve)
    if hasattr(fitted, "episodes_to_optimal_"):
        final["episodes_to_optimal"] = fitted.episodes_to_optimal_
    return {"final": final, "curve": curve}


def final_metrics(curve: dict) -> dict:
    """A run's final metrics from its curve (NaN or None where a point had no value): each column's last value
    and, where the curve has optimal-move rates, their mean (``optimal_move_rate_mean``).

    Examples
    --------
    >>> final_metrics({"episode": [10, 20], "deviations": [3, 0], "optimal_move_rate": [0.5, None]})
    {'deviations': 0, 'optimal_move_rate': nan, 'optimal_move_rate_mean': 0.5}
    """
    curve = {k: [math.nan if x is None else x for x in column] for k, column in curve.items()}
    final = {k: column[-1] for k, column in curve.items() if k not in NOT_METRICS}
    if "optimal_move_rate" in curve:
        rates = [x for x in curve["optimal_move_rate"] if not math.isnan(x)]
        final["optimal_move_rate_mean"] = _rounded(sum(rates) / len(rates)) if rates else math.nan
    return final


def check_run(record: dict, source) -> dict:
    """``record`` (a run read back from a journal or ``sweep.json``) when its curve is columns of numbers of one
    length and its final metrics are the ones its curve gives (``final_metrics``); ``ValueError`` naming
    ``source`` otherwise.

    Examples
    --------
    >>> check_run({"final": {"deviations": 5}, "curve": {"episode": [10], "deviations": [0]}}, "runs.jsonl")
    Traceback (most recent call last):
    ...
    ValueError: runs.jsonl: field final does not follow from the run's curve (changed after it was written)
    """
    from cgbase.files import json_ready

    curve, final = record["curve"], record["final"]
    lengths = {len(column) if isinstance(column, list) else -1 for column in curve.values()}
    if len(lengths) != 1 or min(lengths) < 1 or not all(
            x is None or _is_number(x) and abs(x) <= 2**53 for column in curve.values() for x in column):
        raise ValueError(f"{source}: field curve is not columns of numbers of one length")
    expected = json_ready(final_metrics(curve))
    kept = {k: v for k, v in final.items() if k != "episodes_to_optimal"}
    optimal = final.get("episodes_to_optimal")
    if kept != expected or not (optimal is None or _is_number(optimal) and isinstance(optimal, int) and optimal >= 0):
        raise ValueError(f"{source}: field final does not follow from the run's curve (changed after it was written)")
    return record


def check_rank(learner: str, game, rank: str, *, params: dict | None = None, bound: int | None = None,
               opponent: str = "self") -> str:
    """``rank`` if the runs of ``learner`` report it as a final metric, else a ValueError naming the ones they do.

    The names come from a dry run of one episode (``fit_run``): what a run reports depends on the learner and
    its opponent, never on how long it learns.

    Examples
    --------
    >>> from games import make_game
    >>> check_rank("q", make_game("nim", heaps=2), "deviations", bound=3)
    'deviations'
    >>> check_rank("q", make_game("nim", heaps=2), "zzz", bound=3)
    Traceback (most recent call last):
    ...
    ValueError: runs of q report no metric 'zzz': use one of deviations, episodes_to_optimal, optimal_move_rate, optimal_move_rate_mean, win_rate_optimal, win_rate_random
    """
    from learners.registry import default_bound

    bound = default_bound(game) if bound is None else bound
    names = fit_run(learner, params or {}, game, bound, 1, 0, opponent, 1)["final"]
    if rank not in names:
        raise ValueError(f"runs of {learner} report no metric {rank!r}: use one of {', '.join(sorted(names))}")
    return rank


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _rounded(value):
    return int(value) if isinstance(value, int) else round(float(value), DIGITS)


# -- the sweep ---------------------------------------------------------------------------------------------
def run(learner: str, game, grid=None, *, bound: int | None = None, repeats: int = 1, episodes: int | None = None,
        seed: int = 0, opponent: str = "self", points: int = 25, workers=None, folder=None,
        progress: bool = False, rank: str | None = None) -> dict:
    """Fit ``learner`` at every point of ``grid`` with seeds ``seed, ..., seed + repeats - 1``; the sweep's record.

    Parameters
    ----------
    learner : str
        A name of ``learners.registry``.
    game : Game
    grid : str or dict, optional
        ``"alpha=0.1,0.3 epsilon=0.1,0.5"`` or ``{"alpha": [0.1, 0.3], ...}`` (``parse_grid``, ``check_grid``);
        none: the learner's preset alone.
    bound, episodes : int, optional
        The universe learned over and the games of each run (defaults: ``learners.registry``'s).
    repeats, seed : int
        Seeds per grid point, and the first seed.
    opponent : str
        One of ``OPPONENTS`` (tabular learners; the others learn in self-play).
    points : int
        Points of each learning curve (tabular learners).
    workers : Workers, int or None
        Where the runs go (``cgbase.parallel.as_workers``); the numbers never depend on it.
    folder : path, optional
        Resume from the runs found in this folder, and append each new run to its ``runs.jsonl``.
    progress : bool
        A progress bar on a terminal.
    rank : str, optional
        The final metric the settings will be ranked by: refused before any run unless the runs report it
        (``check_rank``).

    Returns
    -------
    dict
        ``{"sweep": settings, "runs": [one record per run, in run order], "seconds", "resumed", "workers"}``;
        a run is ``{"run", "setting", "repeat", "seed", "params", "final", "curve"}``.

    Examples
    --------
    >>> from games import make_game
    >>> record = run("q", make_game("nim", heaps=2), "alpha=0.2,0.9", bound=3, repeats=2, episodes=1000)
    >>> [(r["params"]["alpha"], r["seed"]) for r in record["runs"]]
    [(0.2, 0), (0.2, 1), (0.9, 0), (0.9, 1)]
    """
    from cgbase.files import json_ready
    from cgbase.journal import append_record, start_journal
    from cgbase.parallel import as_workers
    from cgbase.progress import progress_bar
    from cgbase.validation import positive_int
    from cgbase.validation import seed as check_seed
    from learners.registry import default_bound, make_learner

    clock = time.perf_counter()
    grid = parse_grid(grid, learner) if grid is None or isinstance(grid, str) else check_grid(grid, learner)
    preset = make_learner(learner)
    preset.check_game(game)
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r}: use one of {', '.join(OPPONENTS)}")
    if opponent != "self" and not preset.opponents:
        raise ValueError(f"{learner} learns in self-play: leave the opponent as 'self'")
    repeats, seed, points = positive_int(repeats, "repeats"), check_seed(seed, "seed"), positive_int(points, "points")
    episodes = None if episodes is None else positive_int(episodes, "episodes")
    if episodes is not None:
        at_most(points, "points", episodes, "a curve has at most one point per game")
    bound = default_bound(game) if bound is None else positive_int(bound, "bound")
    identity = _identity(learner, game, bound, episodes, opponent, points)
    at_most(math.prod(len(v) for v in grid.values()) * repeats, "runs", MAX_RUNS,
            "a sweep keeps every run's record and curve in memory: fewer grid points or repeats")
    settings = grid_points(grid)
    if rank is not None:
        check_rank(learner, game, rank, params=settings[0], bound=bound, opponent=opponent)
    jobs = [(k, r) for k in range(len(settings)) for r in range(repeats)]
    finished = _finished(folder, identity) if folder is not None else {}
    runs, todo = {}, []
    for index, (k, r) in enumerate(jobs):
        head = {"run": index, "setting": k, "repeat": r, "seed": seed + r, "params": settings[k]}
        found = finished.get(_key(settings[k], seed + r))
        if found is not None:
            runs[index] = {**head, "final": found["final"], "curve": found["curve"]}
        else:
            todo.append(head)
    journal = Path(folder) / JOURNAL if folder is not None else None
    started = []  # the journal is started by the first finished run: a refusal before any leaves no folder
    pool = as_workers(workers)
    try:
        with progress_bar(progress, len(jobs), len(runs), f"sweep of {learner} · {game!r}", unit="runs") as advance:
            def done(i, result):
                record = json_ready({**todo[i], **result})  # as the journal keeps it (NaN as None)
                runs[record["run"]] = record
                if journal is not None:
                    if not started:
                        journal.parent.mkdir(parents=True, exist_ok=True)
                        start_journal(journal, {"sweep": identity}, "sweep journal")
                        started.append(True)
                    append_record(journal, record, "sweep journal")
                advance(1)

            pool.map(fit_run, [(learner, h["params"], game, bound, episodes, h["seed"], opponent, points)
                               for h in todo], done)
    finally:
        if pool is not workers:
            pool.close()
    sweep = {**identity, "preset": repr(preset), "grid": grid, "repeats": repeats, "seed": seed}
    return {"sweep": sweep, "runs": [runs[i] for i in range(len(jobs))], "seconds": time.perf_counter() - clock,
            "resumed": len(jobs) - len(todo), "workers": repr(pool), "machine": machine()}


def _identity(learner, game, bound, episodes, opponent, points) -> dict:
    from cgbase.version import __version__

    return {"learner": learner, "game": game.spec(), "bound": bound, "episodes": episodes, "opponent": opponent,
            "points": points, "version": __version__}


def _key(params: dict, seed: int) -> str:
    return json.dumps([params, seed], sort_keys=True)


def _finished(folder, identity: dict) -> dict:
    """The runs already in ``folder`` (its ``sweep.json`` and journal) by ``_key``, when they are of this sweep."""
    from cgbase.journal import read_records
    from cgbase.reading import Field, read_json

    folder = Path(folder)
    found = []
    run, saved_schema = _schemas()
    if (folder / "sweep.json").is_file():
        try:
            saved = read_json(folder / "sweep.json", "sweep record", saved_schema)
        except ValueError as err:
            raise ValueError(f"{err}: give a new folder") from None
        found.append((saved["sweep"], saved["runs"], folder / "sweep.json"))
    records = read_records(folder / JOURNAL, "sweep journal", {"sweep": Field("object")}, run)
    if records:
        found.append((records[0].get("sweep"), records[1:], folder / JOURNAL))
    runs = {}
    for settings, records, source in found:
        if not isinstance(settings, dict) or not isinstance(records, list):
            raise ValueError(f"{folder} holds no sweep's settings: give a new folder")
        differ = [k for k in identity if settings.get(k) != identity[k]]
        if differ:
            raise ValueError(f"{folder} holds a sweep with other settings ({', '.join(f'{k} {settings.get(k)!r}' for k in differ)}): "
                             f"give a new folder, or the same settings to resume it")
        for record in records:
            try:
                check_run(record, source)
            except ValueError as err:
                raise ValueError(f"{err}: give a new folder") from None
            runs[_key(record["params"], record["seed"])] = record
    return runs


def _schemas() -> tuple[dict, dict]:
    """The schemas (``cgbase.reading.Field``) of a run's record (journal and ``sweep.json``) and of ``sweep.json``."""
    from cgbase.reading import Field

    count = Field("int", low=0, high=2**53)
    run = {"run": count, "setting": count, "repeat": count, "seed": Field("int", low=0, high=2**64),
           "params": Field("object"), "final": Field("object"), "curve": Field("object")}
    return run, {"sweep": Field("object"), "runs": Field("list", items=Field("object", fields=run))}


def check_folder(folder) -> Path:
    """Refuse, before any work, a folder that is neither new, empty, a finished sweep nor a sweep under way.

    Examples
    --------
    >>> import tempfile
    >>> check_folder(tempfile.mkdtemp()).is_dir()
    True
    """
    from cgbase.files import check_output_folder

    return check_output_folder(folder, folder_markers(folder), "sweep folder")


def folder_markers(folder) -> tuple:
    """The files that make ``folder`` a sweep's: its journal while it is under way, else ``MARKERS``.

    Examples
    --------
    >>> import tempfile
    >>> folder_markers(tempfile.mkdtemp())
    ('sweep.json', 'index.md')
    """
    return (JOURNAL,) if (Path(folder) / JOURNAL).is_file() else MARKERS


# -- the record --------------------------------------------------------------------------------------------
def sweep_json(record: dict) -> str:
    """The text of ``sweep.json``: the settings, then one line per run in run order (no timings: the same bytes
    whatever ran the sweep; NaN as null).

    Examples
    --------
    >>> print(sweep_json({"sweep": {"learner": "q"}, "runs": [{"run": 0, "final": {"deviations": float("nan")}}]}),
    ...       end="")
    {"sweep": {"learner": "q"},
    "runs": [
    {"run":0,"final":{"deviations":null}}
    ]}
    """
    from cgbase.files import json_text

    lines = ",\n".join(json_text(r, separators=(",", ":")) for r in record["runs"])
    return f'{{"sweep": {json_text(record["sweep"])},\n"runs": [\n{lines}\n]}}\n'


def default_rank(runs: list) -> str:
    """The metric settings are ranked by unless told: the mean optimal-move rate over the curve where runs have it
    (how soon and how well the learner plays), else the final deviations, else the first final metric.

    Examples
    --------
    >>> default_rank([{"final": {"deviations": 3, "optimal_move_rate_mean": 0.8}}]), default_rank([{"final": {"m": 1}}])
    ('optimal_move_rate_mean', 'm')
    """
    finals = runs[0]["final"] if runs else {}
    for metric in ("optimal_move_rate_mean", "deviations", "optimal_move_rate"):
        if metric in finals:
            return metric
    return next(iter(finals), "")
