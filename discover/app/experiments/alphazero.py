"""The Notakto paper's experiment and its relatives: train AlphaZero on games, score it, write a report.

A *run* trains one ``AlphaZeroLearner`` (its untrained network scored first, as iteration 0)
and records, across iterations, its score out of 100 against a random player as first and as
second player, against the solver's optimal player when the game is small enough to solve,
and the solver's verdict on its moves (the share of N positions where the policy head's top
move wins; the share of its moves in play from N positions that won).  At the end it plays
MCTS with random rollouts at the same number of simulations, and its opening is checked
against the exact value (the solved universe, or ``solvers.search`` for Hex 5 x 5 and larger
Notakto boards).

``discover alphazero notakto`` (no parameters) is the paper's experiment: 3 x 3 Notakto, where
the first player wins, and 4 x 4, where the second does; each run's seat of interest is the
winning one.  Budgets default to ``preset(game)``.  ``run(games, ...)`` trains and scores one
player per game; ``write(record, folder)`` writes ``scores.png``, ``alphazero.json``, the report
(``index.md``, ``index.html``) and, for a single game of at most ``TABLE_POSITIONS`` positions,
``value-table.npz``.
"""

from __future__ import annotations

import time
from contextlib import nullcontext

import numpy as np

from cgbase.machine import machine
from cgbase.progress import status

__all__ = ["run", "write", "preset", "train_and_score", "winning_seat", "MARKERS", "TABLE_POSITIONS"]

MARKERS = ("index.md", "alphazero.json")  # an existing folder holding these is a report to replace
TABLE_POSITIONS = 50_000  # a value table over at most this many positions is written beside the report


def _notakto(game, fit: dict, learner: dict) -> None:
    if game.dims == 1 and game.n == 3:
        fit.update(simulations=30)
    elif game.dims == 1 and game.n == 4:
        fit.update(iterations=150, games_per_iteration=64, simulations=100, eval_every=10)
        learner.update(hidden=(128, 128))


def _hex(game, fit: dict, learner: dict) -> None:
    fit.update(iterations=100, games_per_iteration=64, simulations=50, eval_every=10)
    learner.update(network="conv", hidden=(64,), channels=16, layers=2)


def _integer_game(game, fit: dict, learner: dict) -> None:
    # from one start, self-play narrows to the lines of good play and the network forgets the rest (Nim 1, 3, 5,
    # 7, 9: the policy head's optimal-move rate rose to 0.91 and fell to 0.23); a few random opening moves keep
    # every region in the games (it reached 1.000 by iteration 120 and stayed there)
    fit.update(iterations=100, games_per_iteration=64, simulations=30, eval_every=10, random_openings=6)


#: budgets by family (a board game not listed keeps the base budget; integer games share one)
PRESETS = {"notakto": _notakto, "hex": _hex}


def preset(game) -> dict:
    """Default budget and learner parameters for ``game``: ``{"fit": {...}, "learner": {...}}``.

    Examples
    --------
    >>> from games import make_game
    >>> preset(make_game("notakto", n=3))["fit"]["iterations"]
    20
    """
    fit = {"iterations": 20, "games_per_iteration": 32, "simulations": 50, "eval_every": 1, "eval_games": 100}
    learner: dict = {}
    tune = PRESETS.get(game.name, None if game.universe_from_start else _integer_game)
    if tune is not None:
        tune(game, fit, learner)
    return {"fit": fit, "learner": learner}


def winning_seat(learner) -> int | None:
    """0 when the solver says the first player wins from the start, 1 when the second does, None unknown."""
    arena = learner.arena_
    if arena is None or len(learner.starts_) != 1:
        return None
    value = int(arena.outcome[arena.index(learner.starts_[0])])
    return {1: 0, -1: 1}.get(value)


def _opening(learner) -> dict | None:
    """The player's first move from the start and its exact value, where one can be had."""
    game = learner.game_
    if len(learner.starts_) != 1:
        return None
    start = tuple(int(x) for x in learner.starts_[0])
    move = learner.policy().move(game, start, np.random.default_rng(0))
    record = {"start": list(start), "move": list(move), "render": _render(game, move), "wins": None, "source": None,
              "start_value": None}
    if learner.arena_ is not None:
        arena = learner.arena_
        record.update(wins=bool(arena.outcome[arena.index(move)] == -1), source="retrograde solver",
                      start_value=int(arena.outcome[arena.index(start)]))
        return record
    from solvers.search import search

    try:
        clock = time.perf_counter()
        result = search(game, move, moves=False)
        record.update(wins=bool(result.value == -1), source=f"solvers.search ({time.perf_counter() - clock:.1f} s)")
    except (ValueError, RuntimeError) as err:
        record["source"] = f"solvers.search could not decide: {err}"
    return record


def _render(game, position) -> str | None:
    render = getattr(game, "render", None)
    return render(position) if render is not None else None


def train_and_score(game, seed: int = 0, fit: dict | None = None, learner_params: dict | None = None,
                  checkpoint=None, progress: bool = False, baseline_games: int = 100,
                  baseline_simulations=None, workers=None) -> dict:
    """Train and score one AlphaZero player on ``game`` (see the module docstring); a JSON-ready record.

    Examples
    --------
    >>> from games import make_game
    >>> record = train_and_score(make_game("notakto", n=2, k=2), fit={"iterations": 1, "games_per_iteration": 4,
    ...                        "simulations": 4, "eval_games": 4}, learner_params={"hidden": (8,)}, baseline_games=4)
    >>> record["seat"], [r["iteration"] for r in record["history"]], sorted(record["baseline"])
    ('first', [0, 1], ['first', 'second'])
    """
    from learners.alphazero.learner import AlphaZeroLearner

    settings = preset(game)
    fit = {**settings["fit"], **(fit or {})}
    params = {**settings["learner"], **(learner_params or {})}
    clock, cpu = time.perf_counter(), time.process_time()
    learner = AlphaZeroLearner(random_state=seed, **params)
    learner.fit(game, score_untrained=True, checkpoint=checkpoint, progress=progress, workers=workers, **fit)
    seat = winning_seat(learner)
    seat = 0 if seat is None else seat
    label = ("first", "second")[seat]
    sims = [learner.eval_simulations_] if baseline_simulations is None else list(baseline_simulations)
    with status(f"AlphaZero on {game.title()}: matches against MCTS with random rollouts") if progress else nullcontext():
        matches = [{name: learner.match("rollout", s, baseline_games, simulations=n, seed=seed)
                    for s, name in ((0, "first"), (1, "second"))} for n in sims]
    baseline = matches[0]
    history = learner.history_
    scored = [r for r in history if f"score_random_{label}" in r]
    best = max(scored, key=lambda r: r[f"score_random_{label}"])
    reached = {t: next((r["iteration"] for r in scored if r[f"score_random_{label}"] >= t), None) for t in (95, 100)}
    record = {
        "game": repr(game), "title": game.title(), "spec": game.spec(), "seed": seed, "seat": label,
        "learner": repr(learner), "fit": {k: list(v) if isinstance(v, tuple) else v for k, v in fit.items()},
        "history": history, "baseline": baseline, "baselines": matches, "opening": _opening(learner),
        "final": scored[-1], "best": {"iteration": best["iteration"], "score": best[f"score_random_{label}"]},
        "first_iteration_at": {str(k): v for k, v in reached.items()},
        "seconds": time.perf_counter() - clock, "cpu_seconds": time.process_time() - cpu,
        "train_cpu_seconds": history[-1]["cpu_seconds"],
    }
    record["value_table"] = learner.value_table_
    return record


def run(games, seed: int = 0, fit: dict | None = None, learner_params: dict | None = None, checkpoint=None,
        progress: bool = False, baseline_simulations=None, title: str | None = None, command: str = "",
        say=None, workers=None) -> dict:
    """Train and score one AlphaZero player on each game (``train_and_score``); the report's record.

    A run's ``value_table`` (an object, not JSON) is kept for ``write`` when there is one game; ``workers``
    (a ``cgbase.parallel.Workers``) runs the self-play shards that ``fit["shards"]`` asks for.
    """
    say = say or (lambda message: None)
    if checkpoint is not None and len(games) > 1:
        raise ValueError("a checkpoint keeps one run: train one game at a time")
    clock = time.perf_counter()
    runs = []
    for game in games:
        one = train_and_score(game, seed, fit, learner_params, checkpoint=checkpoint, progress=progress,
                              baseline_simulations=baseline_simulations, workers=workers)
        say(_summary(one))
        runs.append(one)
    table = runs[0].pop("value_table") if len(runs) == 1 else None
    for one in runs:
        one.pop("value_table", None)
    if table is not None and table.universe.size > TABLE_POSITIONS:
        table = None
    return {"runs": runs, "title": title or f"AlphaZero on {games[0].title()}", "command": command, "machine": machine(),
            "seconds": time.perf_counter() - clock, "value_table": table}


def _summary(run: dict) -> str:
    final, seat = run["final"], run["seat"]
    text = (f"AlphaZero on {run.get('title', run['game'])}: {final['iteration']} iterations, {final['episode']:,} games, "
            f"{run['train_cpu_seconds']:.0f} CPU s: {final[f'score_random_{seat}']:.0f}/100 against random as the "
            f"{seat} player")
    if f"score_optimal_{seat}" in final:
        text += (f", {final[f'score_optimal_{seat}']:.0f}/100 against the optimal player, optimal-move rate "
                 f"{final['optimal_move_rate']:.3f} (policy head), {final['optimal_move_rate_play']:.3f} (in play)")
    return text + (f"; against MCTS with random rollouts {run['baseline']['first']['score']:.0f} (first), "
                   f"{run['baseline']['second']['score']:.0f} (second)")


def write(record: dict, folder) -> None:
    """Write ``scores.png``, ``alphazero.json``, the report and the value table of a ``run`` record (a record read
    back from ``alphazero.json`` has no value table: the rest is written again)."""
    from discover.app.render.document import write_document
    from cgbase.files import atomic_folder, write_json

    with atomic_folder(folder, MARKERS, "report folder") as out:
        if record.get("value_table") is not None:
            record["value_table"].save(out / "value-table.npz")
        _figure(record["runs"], out / "scores.png", record["title"])
        write_json(out / "alphazero.json", {k: v for k, v in record.items() if k != "value_table"})
        write_document(out, _blocks(record), record["title"])


def _figure(runs: list, path, title: str) -> str:
    """One panel per run, one above the other (a page is too narrow for two side by side): scores out of 100 across
    iterations, and the solver's optimal-move rates (x 100), the legend under each panel."""
    from matplotlib.ticker import MaxNLocator

    from discover.app.render.figure import PAGE_WIDTH, legend_below, new_figure, save_figure, wrapped

    fig, axes = new_figure(PAGE_WIDTH, 5.2 * len(runs), rows=len(runs))
    for ax, run in zip(axes, runs):
        scored = [r for r in run["history"] if "score_random_first" in r]
        x = [r["iteration"] for r in scored]
        for key, style, name in (("score_random_first", "-o", "vs random, first player"),
                                 ("score_random_second", "-s", "vs random, second player"),
                                 ("score_optimal_first", ":^", "vs optimal, first player"),
                                 ("score_optimal_second", ":v", "vs optimal, second player"),
                                 ("optimal_move_rate", "--", "policy head: optimal-move rate x 100"),
                                 ("optimal_move_rate_play", "-.", "in play: optimal-move rate x 100")):
            if key not in scored[0]:
                continue
            scale = 100 if key.startswith("optimal") else 1
            bold = key.endswith(run["seat"])
            ax.plot(x, [r.get(key, np.nan) * scale for r in scored], style, markersize=3,
                    linewidth=2.2 if bold else 1.2, label=name + (" (the winning seat)" if bold else ""))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("iteration (0: untrained network)")
        ax.set_ylabel("won of 100 / rate x 100")
        ax.set_ylim(-3, 103)
        ax.grid(alpha=0.3)
        legend_below(ax, columns=2)
        ax.set_title(wrapped(f"{run['game']}: {run['fit']['simulations']} simulations, "
                             f"{run['fit']['games_per_iteration']} games / iteration", PAGE_WIDTH, 10), fontsize=10)
    fig.suptitle(wrapped(title, PAGE_WIDTH, 11), fontsize=11)
    return save_figure(fig, path)


def _fmt(value, digits: int = 0) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _blocks(record: dict) -> list:
    """The report: summary table, baselines, openings, and each run's scored iterations."""
    from discover.app.render.document import Code, FigureFile

    runs = record["runs"]
    blocks = [
        ("h", 1, record["title"]),
        ("p", "PUCT search guided by a policy-value network (policy over afterstates), learned in self-play "
              "(learners.alphazero). Scores are games won out of 100 by the search player (no noise, most "
              "visited move) from the start; the solver scores its moves: the optimal-move rate is the share of "
              "positions with a winning move where the move wins (policy head: over every such position reachable "
              "from the start; in play: the moves it made in the scoring games). Iteration 0 is the untrained "
              f"network (search alone). CPU seconds are process time on {record.get('machine', 'an unrecorded machine')}."),
        ("figure", FigureFile("scores.png", "scores", "Scores out of 100 and the solver's optimal-move rates "
                                                      "across iterations; the winning seat in bold.")),
    ]
    rows = []
    for run in runs:
        f, seat = run["final"], run["seat"]
        rows.append([run["game"], seat, str(f["iteration"]), f"{f['episode']:,}", _fmt(f[f"score_random_{seat}"]),
                     _fmt(f.get(f"score_optimal_{seat}")),
                     f"{_fmt(f.get('optimal_move_rate'), 3)} / {_fmt(f.get('optimal_move_rate_play'), 3)}",
                     _fmt(f.get("value_accuracy"), 3),
                     f"{_fmt(run['first_iteration_at']['95'])} / {_fmt(run['first_iteration_at']['100'])}",
                     f"{run['train_cpu_seconds']:.0f}"])
    blocks.append(("table", ["game", "seat", "iterations", "self-play games", "vs random (seat)", "vs optimal (seat)",
                             "optimal-move rate (policy / play)", "value sign right", "first 95 / 100 vs random",
                             "train CPU s"], rows))
    blocks += [("p", "Against MCTS with random rollouts at the same number of simulations (out of 100):"),
               ("table", ["game", "simulations", "as first player", "as second player"],
                [[run["game"], str(b["first"]["simulations"]), f"{b['first']['score']:.0f}",
                  f"{b['second']['score']:.0f}"] for run in runs for b in run["baselines"]])]
    openings = [run for run in runs if run.get("opening")]
    if openings:
        blocks.append(("p", "Openings (the player's first move from the start, as first player):"))
        for run in openings:
            o = run["opening"]
            verdict = {True: "winning", False: "losing", None: "not decided"}[o["wins"]]
            note = " (every opening loses: the start is lost for the first player)" if o.get("start_value") == -1 else ""
            blocks += [("p", f"{run['game']}: {verdict}{note} ({o['source']})"), ("pre", o["render"] or str(o["move"]))]
    blocks.append(("h", 2, "Learning curves (scored iterations)"))
    for run in runs:
        seat = run["seat"]
        blocks += [("h", 3, run["game"]), ("p", [Code(run["learner"]), f", fit {run['fit']}"])]
        blocks.append(("table", ["iteration", "games", "loss", "vs random first", "vs random second",
                                 "vs optimal first", "vs optimal second", "vs previous", "optimal-move rate", "in play",
                                 "CPU s"],
                       [[str(r["iteration"]), f"{r['episode']:,}", _fmt(r.get("loss"), 3), _fmt(r["score_random_first"]),
                         _fmt(r["score_random_second"]), _fmt(r.get("score_optimal_first")),
                         _fmt(r.get("score_optimal_second")), _fmt(r.get("score_previous")),
                         _fmt(r.get("optimal_move_rate"), 3), _fmt(r.get("optimal_move_rate_play"), 3),
                         f"{r['cpu_seconds']:.0f}"]
                        for r in run["history"] if f"score_random_{seat}" in r]))
    if record["command"]:
        blocks.append(("p", ["Command: ", Code(record["command"]), f" ({record['seconds']:.0f} s)."]))
    return blocks
