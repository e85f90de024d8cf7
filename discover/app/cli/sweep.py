"""The commands that run many learners side by side: ``sweep`` (a grid of a learner's parameters, repeated with
seeds) and ``study`` (the Nim study's three sweeps, best settings and tournament).

    discover sweep q nim heaps=3 --grid "alpha=0.1,0.3 epsilon=0.1,0.5" --repeats 5 --episodes 20000
    discover sweep bayes nim --grid "discount=0.5,0.9" --backend ray --address auto --out runs/bayes
    discover study nim --workers 2

Runs go to local worker processes (one per core) unless ``--backend`` says otherwise; the numbers are the
same whatever the backend and the workers. A sweep or study stopped half way resumes when run again with
the same ``--out``: the runs already finished are kept.
"""

from __future__ import annotations

import os
import re

import click

from discover.app.cli.common import (BOUND, OUTPUT_FOLDER, REPEATS, SEED, TEXT, Integer, LearnerChoice, command_line,
                                 game_arguments, game_from_words, given, parallel_options, say)

__all__ = ["sweep_command", "study_command"]


@click.command("sweep")
@click.argument("learner", type=LearnerChoice())
@game_arguments
@click.option("--grid", type=TEXT, default="", metavar="TEXT",
              help='Parameter values to try, every combination: e.g. "alpha=0.1,0.3 epsilon=0.1,0.5" '
                   "(default: the learner's preset alone).")
@click.option("--repeats", type=REPEATS, default=3, show_default=True, help="Seeds per setting: seed, seed + 1, ...")
@click.option("--episodes", type=BOUND, default=None, help="Games per run (default: the learner's own).")
@click.option("--bound", type=BOUND, default=None,
              help="Universe learned over (default: 30 for one heap, 12 x 12 boards, three heaps of 7).")
@click.option("--opponent", type=click.Choice(["self", "copy", "random", "optimal", "greedy"]), default="self",
              show_default=True, help="Tabular learners: whom they play (copy: an untrained copy with the same "
                                      "parameters, learning alongside).")
@click.option("--points", type=BOUND, default=25, show_default=True, help="Points of each learning curve (tabular).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="The first seed.")
@click.option("--rank", type=TEXT, default=None, metavar="METRIC",
              help="Rank settings by this final metric (default: optimal_move_rate_mean, the optimal-move rate in "
                   "play averaged over the curve, where runs have it; deviations and the like rank lowest first).")
@parallel_options
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None,
              help="Where to write sweep.json and the report (default: runs/<game>-<learner>-sweep/); a sweep "
                   "stopped half way resumes from it.")
def sweep_command(learner, game, params, grid, repeats, episodes, bound, opponent, points, seed, rank, backend,
                  address, workers, folder):
    """Fit LEARNER on GAME at every point of a grid of its parameters, each with several seeds, side by side;
    write every run's final metrics and learning curve, and the settings ranked with 95% intervals."""
    from cgbase.parallel import Workers
    from discover.app.render.sweep import write
    from learners import sweep
    from learners.registry import make_learner
    from learners.repeats import format_metric, rank_settings, share_trials

    game_obj = game_from_words(game, params)
    if rank is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", rank):
        raise ValueError(f"--rank takes the name of a final metric, such as optimal_move_rate_mean; got {rank!r}")
    grid_values = sweep.parse_grid(grid, learner)
    if given("points") and not make_learner(learner).opponents:
        raise ValueError(f"--points spaces a tabular learner's curve, and {learner} keeps its own: leave out --points")
    if given("points") and episodes is None:
        raise ValueError("--points spaces the curve over the --episodes games: give --episodes with --points")
    folder = folder if folder is not None else os.path.join("runs", f"{game_obj.slug()}-{learner}-sweep")
    sweep.check_folder(folder)
    with Workers(backend, workers, address).start() as pool:  # a bad Ray address is refused before any file
        record = sweep.run(learner, game_obj, grid_values, bound=bound, repeats=repeats, episodes=episodes,
                           seed=seed, opponent=opponent, points=points, workers=pool, folder=folder, progress=True,
                           rank=rank)
    record["command"] = command_line()
    rank = rank or sweep.default_rank(record["runs"])
    ranked = rank_settings(record["runs"], rank)
    write(record, folder, rank)
    for place, setting in enumerate(ranked[:3], 1):
        words = " ".join(f"{k}={v}" for k, v in setting["params"].items()) or "preset"
        shown = format_metric(setting["values"][rank], rank, trials=share_trials(setting["runs"], rank))
        say(f"{place}. {words}: {rank} {shown}")
    say(f"{len(record['runs'])} runs ({record['resumed']} resumed) in {record['seconds']:.1f} s on "
        f"{record['workers']}; wrote {folder}/")


@click.command("study")
@game_arguments
@click.option("--bound", type=BOUND, default=9, show_default=True, help="Heaps of at most this many (the paper: 9).")
@click.option("--episodes", type=BOUND, default=75_000, show_default=True, help="Games per run.")
@click.option("--repeats", type=Integer(2, 10_000, "one run per seed and setting"), default=10, show_default=True,
              help="Seeds per setting, and repeats of the tournament (two at least: the verdict rests on 95% intervals).")
@click.option("--games", type=BOUND, default=1000, show_default=True, help="Games per tournament pairing.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="The first seed.")
@click.option("--backup", type=click.Choice(["reply", "negamax"]), default="reply", show_default=True,
              help="The Q learners' backup: from their own moves (the paper's) or every move of the game.")
@click.option("--points", type=BOUND, default=25, show_default=True, help="Points of each learning curve.")
@parallel_options
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None,
              help="Where to write (default: reports/<game>-study-sweeps/); a study stopped half way resumes from it.")
def study_command(game, params, bound, episodes, repeats, games, seed, backup, points, backend, address, workers,
                  folder):
    """The Nim study on GAME (nim: three heaps) as the paper ran it: 75 Q, 36 Q_t and 4 Bayes settings, each
    repeated against an untrained copy of itself (figure 6), the best three of each family, and the best
    learners' tournament (figure 5), repeated; says whether the Bayes agent beats the Q agents."""
    from discover.app.experiments import nim_study
    from cgbase.parallel import Workers

    game_obj = game_from_words(game, params)
    folder = folder if folder is not None else os.path.join("reports", f"{game_obj.slug()}-study-sweeps")
    nim_study.check_folder(folder)
    with Workers(backend, workers, address).start() as pool:  # a bad Ray address is refused before any file
        record = nim_study.run(game_obj, bound=bound, episodes=episodes, repeats=repeats, games=games, seed=seed,
                               backup=backup, points=points, workers=pool, folder=folder, progress=True)
    record["command"] = command_line()
    nim_study.write(record, folder)
    for rival in ("q", "qt"):
        v = record["verdict"][rival]
        say(f"Bayes {nim_study.VERBS[v['outcome']]} {nim_study.NAMES[rival]}: {v['difference']:+.3f} [{v['low']:+.3f}, "
            f"{v['high']:+.3f}] (average win rate as first player, Bayes minus {nim_study.NAMES[rival]})")
    say(f"{record['seconds']:.0f} s on {record['workers']}; wrote {folder}/")
