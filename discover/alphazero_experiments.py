"""Seed 003's experiment and its relatives: train AlphaZero on a game, score it, write ``reports/<game>-alphazero/``.

A *run* trains one ``AlphaZeroLearner`` (its untrained network scored first, as iteration 0)
and records, across iterations, its score out of 100 against a random player as first and as
second player, against the solver's optimal player when the game is small enough to solve,
and the solver's verdict on its moves (the share of N positions where the policy head's top
move wins; the share of its moves in play from N positions that won).  At the end it plays
MCTS with random rollouts at the same number of simulations, and its opening is checked
against the exact value (the solved universe, or ``solvers.search`` for Hex 5 x 5 and larger
Notakto boards).

``discover alphazero notakto`` (no parameters) is the seed's experiment: 3 x 3 Notakto, where
the first player wins, and 4 x 4, where the second does; each run's seat of interest is the
winning one.  Budgets default to ``preset(game)``.
"""

from __future__ import annotations

import time

import numpy as np

__all__ = ["preset", "alphazero_run", "alphazero_figure", "alphazero_markdown", "winning_seat"]


def preset(game) -> dict:
    """Default budget and learner parameters for ``game``: ``{"fit": {...}, "learner": {...}}``.

    Examples
    --------
    >>> from games import make_game
    >>> preset(make_game("notakto", n=3))["fit"]["iterations"]
    20
    """
    name, n = game.name, getattr(game, "n", None)
    fit = {"iterations": 20, "games_per_iteration": 32, "simulations": 50, "eval_every": 1, "eval_games": 100}
    learner: dict = {}
    if name == "notakto" and n == 3 and game.dims == 1:
        fit.update(simulations=30)
    elif name == "notakto" and n == 4 and game.dims == 1:
        fit.update(iterations=150, games_per_iteration=64, simulations=100, eval_every=10)
        learner.update(hidden=(128, 128))
    elif name == "hex":
        fit.update(iterations=100, games_per_iteration=64, simulations=50, eval_every=10)
        learner.update(network="conv", hidden=(64,), channels=16, layers=2)
    elif not game.universe_from_start:
        # from one start, self-play narrows to the lines of good play and the network forgets the rest (Nim 1, 3, 5,
        # 7, 9: the policy head's optimal-move rate rose to 0.91 and fell to 0.23); a few random opening moves keep
        # every region in the games (it reached 1.000 by iteration 120 and stayed there)
        fit.update(iterations=100, games_per_iteration=64, simulations=30, eval_every=10, random_openings=6)
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


def alphazero_run(game, seed: int = 0, fit: dict | None = None, learner_params: dict | None = None,
                  checkpoint=None, progress: bool = False, baseline_games: int = 100,
                  baseline_simulations=None) -> dict:
    """Train and score one AlphaZero player on ``game`` (see the module docstring); a JSON-ready record.

    Examples
    --------
    >>> from games import make_game
    >>> record = alphazero_run(make_game("notakto", n=2, k=2), fit={"iterations": 1, "games_per_iteration": 4,
    ...                        "simulations": 4, "eval_games": 4}, learner_params={"hidden": (8,)}, baseline_games=4)
    >>> record["seat"], [r["iteration"] for r in record["history"]], sorted(record["baseline"])
    ('first', [0, 1], ['first', 'second'])
    """
    from learners.alphazero import AlphaZeroLearner

    settings = preset(game)
    fit = {**settings["fit"], **(fit or {})}
    params = {**settings["learner"], **(learner_params or {})}
    clock, cpu = time.perf_counter(), time.process_time()
    learner = AlphaZeroLearner(random_state=seed, **params)
    learner.fit(game, score_untrained=True, checkpoint=checkpoint, progress=progress, **fit)
    seat = winning_seat(learner)
    seat = 0 if seat is None else seat
    label = ("first", "second")[seat]
    sims = [learner.eval_simulations_] if baseline_simulations is None else list(baseline_simulations)
    matches = [{name: learner.match("rollout", s, baseline_games, simulations=n, seed=seed)
                for s, name in ((0, "first"), (1, "second"))} for n in sims]
    baseline = matches[0]
    history = learner.history_
    scored = [r for r in history if f"score_random_{label}" in r]
    best = max(scored, key=lambda r: r[f"score_random_{label}"])
    reached = {t: next((r["iteration"] for r in scored if r[f"score_random_{label}"] >= t), None) for t in (95, 100)}
    record = {
        "game": repr(game), "spec": game.spec(), "seed": seed, "seat": label,
        "learner": repr(learner), "fit": {k: list(v) if isinstance(v, tuple) else v for k, v in fit.items()},
        "history": history, "baseline": baseline, "baselines": matches, "opening": _opening(learner),
        "final": scored[-1], "best": {"iteration": best["iteration"], "score": best[f"score_random_{label}"]},
        "first_iteration_at": {str(k): v for k, v in reached.items()},
        "seconds": time.perf_counter() - clock, "cpu_seconds": time.process_time() - cpu,
        "train_cpu_seconds": history[-1]["cpu_seconds"],
    }
    record["learner_object"] = learner
    return record


def alphazero_figure(runs: list, path: str, title: str) -> str:
    """One panel per run: scores out of 100 across iterations, and the solver's optimal-move rates (x 100)."""
    from matplotlib.figure import Figure

    from discover.plots import save_figure

    fig = Figure(figsize=(7 * len(runs), 4.8), layout="constrained")
    axes = fig.subplots(1, len(runs), squeeze=False)[0]
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
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("iteration (0: untrained network)")
        ax.set_ylabel("games won out of 100 / rate x 100")
        ax.set_ylim(-3, 103)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2)
        ax.set_title(f"{run['game']}: {run['fit']['simulations']} simulations, "
                     f"{run['fit']['games_per_iteration']} games / iteration", fontsize=10)
    fig.suptitle(title, fontsize=11)
    return save_figure(fig, path)


def _fmt(value, digits: int = 0) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def alphazero_markdown(runs: list, command: str, figure: str) -> str:
    """The report's index.md."""
    lines = ["# AlphaZero (seed 003)", "",
             "PUCT search guided by a policy-value network (policy over afterstates), learned in self-play "
             "(`learners.alphazero`). Scores are games won out of 100 by the search player (no noise, most "
             "visited move) from the start; the solver scores its moves: the optimal-move rate is the share of "
             "positions with a winning move where the move wins (policy head: over every such position reachable "
             "from the start; in play: the moves it made in the scoring games). Iteration 0 is the untrained "
             "network (search alone). CPU seconds are process time on this machine (2 cores, no GPU).", "",
             f"![scores]({figure})", "",
             "| game | seat | iterations | self-play games | vs random (seat) | vs optimal (seat) | "
             "optimal-move rate (policy / play) | value sign right | first 95 / 100 vs random | train CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for run in runs:
        f, seat = run["final"], run["seat"]
        lines.append(
            f"| {run['game']} | {seat} | {f['iteration']} | {f['games']:,} | {_fmt(f[f'score_random_{seat}'])} | "
            f"{_fmt(f.get(f'score_optimal_{seat}'))} | {_fmt(f.get('optimal_move_rate'), 3)} / "
            f"{_fmt(f.get('optimal_move_rate_play'), 3)} | {_fmt(f.get('value_accuracy'), 3)} | "
            f"{_fmt(run['first_iteration_at']['95'])} / {_fmt(run['first_iteration_at']['100'])} | "
            f"{run['train_cpu_seconds']:.0f} |")
    lines += ["", "Against MCTS with random rollouts at the same number of simulations (out of 100):", "",
              "| game | simulations | as first player | as second player |", "|---|---|---|---|"]
    for run in runs:
        for b in run["baselines"]:
            lines.append(f"| {run['game']} | {b['first']['simulations']} | {b['first']['score']:.0f} | "
                         f"{b['second']['score']:.0f} |")
    openings = [run for run in runs if run.get("opening")]
    if openings:
        lines += ["", "Openings (the player's first move from the start, as first player):", ""]
        for run in openings:
            o = run["opening"]
            verdict = {True: "winning", False: "losing", None: "not decided"}[o["wins"]]
            note = " (every opening loses: the start is lost for the first player)" if o.get("start_value") == -1 else ""
            lines += [f"- {run['game']}: {verdict}{note} ({o['source']})", "", "```", o["render"] or str(o["move"]),
                      "```", ""]
    lines += ["", "Learning curves (scored iterations):", ""]
    for run in runs:
        seat = run["seat"]
        lines += [f"### {run['game']}", "", f"`{run['learner']}`, fit {run['fit']}", "",
                  "| iteration | games | loss | vs random first | vs random second | vs optimal first | "
                  "vs optimal second | vs previous | optimal-move rate | in play | CPU s |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in run["history"]:
            if f"score_random_{seat}" not in r:
                continue
            lines.append(f"| {r['iteration']} | {r['games']:,} | {_fmt(r.get('loss'), 3)} | "
                         f"{_fmt(r['score_random_first'])} | {_fmt(r['score_random_second'])} | "
                         f"{_fmt(r.get('score_optimal_first'))} | {_fmt(r.get('score_optimal_second'))} | "
                         f"{_fmt(r.get('score_previous'))} | {_fmt(r.get('optimal_move_rate'), 3)} | "
                         f"{_fmt(r.get('optimal_move_rate_play'), 3)} | {r['cpu_seconds']:.0f} |")
        lines.append("")
    lines += [f"Command: `{command}`", ""]
    return "\n".join(lines)
