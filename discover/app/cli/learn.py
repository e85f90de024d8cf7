"""The learner commands: ``learn`` (train and save), ``compare`` (learned against exact), ``tournament``
(the Nim study: learning curves and a round robin of learners) and ``scenarios`` (the Nim thesis's Q-learning
scenarios).

    discover learn nim heaps=3 --learner q --episodes 50000 --bound 7
    discover compare wythoff --learner q --bound 12
    discover tournament nim heaps=3 --bound 9 --episodes 30000
    discover scenarios --seeds 5
"""

from __future__ import annotations

import json
import os
import time

import click

from discover import defaults

from discover.app.cli.common import (BOUND, INPUT_FILE, OUTPUT_FILE, OUTPUT_FOLDER, SEED, TEXT, LearnerChoice, Number,
                                 check_output_file, command_line, force_option, game_arguments, game_from_words, given,
                                 int_list, name_list, output_folder, say)

__all__ = ["learn_command", "compare_command", "tournament_command", "scenarios_command"]

LEARN_MARKERS = ("history.json",)  # an existing folder holding this is a run to replace


def _opponent(name: str, seed: int):
    from learners.registry import learner_names, make_learner

    if name.startswith("copy-"):
        kind = name[len("copy-"):]
        if kind not in learner_names(opponents=True):
            raise ValueError(f"unknown opponent {name!r}: after copy- name a learner that plays opponents "
                             f"({', '.join(learner_names(opponents=True))})")
        return make_learner(kind, seed + 1000)
    return name


def _fit(game, name, bound, episodes, opponent, start, seed, checkpoint=None):
    """The learner ``name`` fitted as the command line asks (opponents, starts and checkpoints where it takes them)."""
    from learners.registry import fit_learner, learner_names, make_learner

    options = {}
    if make_learner(name).opponents:
        start_value = start if start in ("random", "sweep") else int_list(start, "--start", 0)
        options = {"opponent": _opponent(opponent, seed), "start": start_value, "checkpoint": checkpoint}
    elif opponent != "self" or start != "random" or checkpoint is not None:
        raise ValueError(f"{name} learns in self-play from its own starts: drop --opponent, --start and --checkpoint "
                         f"(they are for {', '.join(learner_names(opponents=True))})")
    return fit_learner(name, game, bound=bound, games=episodes, seed=seed, progress=True, **options)


def _learner_options(func):
    options = [
        game_arguments,
        click.option("--learner", type=LearnerChoice(value_table=True), default="q", show_default=True,
                     help="A registered learner (q: Q-learning; qt: decaying exploration; bayes: quasi-Bayesian; "
                     "qnetwork, hqn, alphazero: with networks; see learners.registry)."),
        click.option("--bound", type=BOUND, default=None,
                     help="Universe learned over (default: 30 for one heap, 12 x 12 boards, three heaps of 7)."),
        click.option("--episodes", type=BOUND, default=None,
                     help="Games to play (default: the learner's own; tabular: 50 per move, at least 20,000)."),
        click.option("--opponent", type=TEXT, default="self", show_default=True,
                     help="Tabular learners: self, random, optimal, greedy, or copy-q / copy-qt / copy-bayes "
                          "(an untrained learner)."),
        click.option("--start", type=TEXT, default="random", show_default=True,
                     help="Tabular learners: start positions random, sweep (each in turn), or one position such as "
                          "7,7,7."),
        click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of every random choice."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _summary(learner, seconds: float) -> None:
    last = learner.history_[-1] if learner.history_ else {}
    parts = [f"{getattr(learner, 'episodes_', '?')} games in {seconds:.2f} s"]
    if "deviations" in last:
        reached = getattr(learner, "episodes_to_optimal_", None)
        parts.append(f"optimality deviations {last['deviations']} (first 0 at {reached if reached is not None else 'never'})")
    for key, label in (("optimal_move_rate", "optimal-move rate in play"), ("accuracy", "accuracy"),
                       ("model_accuracy", "model accuracy"), ("win_rate_random", "greedy policy wins against random"),
                       ("win_rate_optimal", "against optimal")):
        if isinstance(last.get(key), float):
            parts.append(f"{label} {last[key]:.3f}")
    say(f"{learner!r}\n  " + "; ".join(parts))


@click.command("learn")
@_learner_options
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None,
              help="Where to write value-table.npz, history.json and .csv, learning-curve.png (default: "
                   "runs/<game>-<learner>/).")
@click.option("--checkpoint", type=OUTPUT_FILE, metavar="FILE", default=None,
              help="Resume from this file if it exists; write it as it goes (the resumed run replaces its output "
                   "folder, as --force).")
@force_option
def learn_command(game, params, learner, bound, episodes, opponent, start, seed, folder, checkpoint, force):
    """Train a learner on GAME and save its value table and learning curve (an earlier run in the folder is
    replaced only with --force)."""
    from discover.app.render.curves import curve_figure
    from cgbase.files import atomic_folder, write_json, write_records_csv

    game_obj = game_from_words(game, params)
    folder = output_folder(folder, os.path.join("runs", f"{game_obj.slug()}-{learner}"), LEARN_MARKERS,
                           force or checkpoint is not None)  # a run resumed from its checkpoint is the same run
    if checkpoint is not None:
        check_output_file(checkpoint, "--checkpoint")
    clock = time.perf_counter()
    fitted = _fit(game_obj, learner, bound, episodes, opponent, start, seed, checkpoint)
    seconds = time.perf_counter() - clock
    record = {"learner": repr(fitted), "game": game_obj.spec(), "history": fitted.history_,
              "episodes_to_optimal": getattr(fitted, "episodes_to_optimal_", None)}
    with atomic_folder(folder, LEARN_MARKERS) as out:
        if fitted.value_table_ is not None:
            fitted.value_table_.save(out / "value-table.npz")
        write_json(out / "history.json", record)
        write_records_csv(out / "history.csv", fitted.history_)
        curve_figure({learner: fitted.history_}, out / "learning-curve.png",
                     _curve_title(learner, fitted, game_obj, opponent, seed))
    _summary(fitted, seconds)
    say(f"wrote {folder}/: value-table.npz, history.json, history.csv, learning-curve.png")


def _curve_title(learner: str, fitted, game, opponent: str, seed: int) -> str:
    """A learning curve's title in words: ``learner q on Nim with 3 heaps, bound 7: 20,000 games against itself,
    seed 0``."""
    bound = fitted.value_table_.bound if fitted.value_table_ is not None else None
    against = "itself" if opponent == "self" else f"{opponent}"
    where = f", bound {bound}" if bound is not None else ""
    return (f"learner {learner} on {game.title()}{where}: {getattr(fitted, 'episodes_', 0):,} games against "
            f"{against}, seed {seed}")


@click.command("compare")
@_learner_options
@click.option("--confidence", type=Number(0, 1, high_open=True), default=defaults.ENGINES.confidence, show_default=True,
              help="A position is learned P (N) when its value is at most -c (at least c).")
@click.option("--table", "table_path", type=INPUT_FILE, metavar="FILE.npz", default=None,
              help="Compare a saved value table (from `learn`) instead of learning.")
@click.option("--plot", "plot_path", type=OUTPUT_FILE, metavar="FILE.png", default=None,
              help="Exact | learned | disagreement figure (default for 1-D and 2-D games: runs/<game>-<learner>/compare.png).")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as one JSON record.")
def compare_command(game, params, learner, bound, episodes, opponent, start, seed, confidence, table_path,
                    plot_path, as_json):
    """Learned partition and policy of a learner on GAME against the solver's."""
    from discover.compare import compare
    from discover.app.render.partitions import compare_figure
    from learners import ValueTable

    game_obj = game_from_words(game, params)
    if plot_path is not None:
        check_output_file(plot_path, "--plot")
    if table_path is not None:
        ignored = given("learner", "bound", "episodes", "opponent", "start", "seed")
        if ignored:
            raise ValueError(f"{', '.join(ignored)} set how a learner is trained, and --table compares one already "
                             f"trained: leave out {', '.join(ignored)}, or --table")
        table = ValueTable.load(table_path, game_obj)
    else:
        table = _fit(game_obj, learner, bound, episodes, opponent, start, seed).value_table_
    scores = compare(table, confidence=confidence)
    if plot_path is None and game_obj.dims <= 2:
        default = os.path.join("runs", f"{game_obj.slug()}-{learner}")
        os.makedirs(default, exist_ok=True)
        plot_path = os.path.join(default, "compare.png")
    if plot_path is not None:
        compare_figure(table, plot_path, confidence=confidence)
    if as_json:
        click.echo(json.dumps(scores))
        return
    say(f"{game_obj!r}, bound {scores['bound']}, {scores['positions']} positions; "
         f"{table.meta.get('learner')} {table.meta.get('params')}, {table.meta.get('episodes')} games "
         f"against {table.meta.get('opponent')}")
    say(f"  accuracy {scores['accuracy']:.4f} (unsure counted wrong); coverage {scores['coverage']:.4f} at "
         f"confidence {confidence}; accuracy where confident {scores['accuracy_confident']:.4f}")
    say(f"  optimal-move rate {scores['optimal_move_rate']:.4f} of N positions "
         f"({scores['deviations']} optimality deviations)")
    for exact, row in scores["confusion"].items():
        say(f"  exact {exact:<4}: " + ", ".join(f"learned {k} {v}" for k, v in row.items()))
    if plot_path is not None:
        say(f"wrote {plot_path}")


@click.command("tournament")
@game_arguments
@click.option("--learners", type=TEXT, default="q,qt,bayes", show_default=True,
              help="Comma-separated learners that play opponents (the tabular ones).")
@click.option("--bound", type=BOUND, default=9, show_default=True, help="Universe learned over.")
@click.option("--episodes", type=BOUND, default=30_000, show_default=True, help="Games per training run.")
@click.option("--games", type=BOUND, default=1000, show_default=True, help="Games per tournament pairing.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of every random choice.")
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None, help="Where to write (default: reports/<game>-study/).")
@force_option
def tournament_command(game, params, learners, bound, episodes, games, seed, folder, force):
    """The Nim study: learning curves against copies, then every learner trained against every
    other, copies and a random player, and a round robin of the trained policies."""
    from discover.app.experiments import learner_study
    from learners.registry import learner_names
    from learners.tournament import format_table

    game_obj = game_from_words(game, params)
    names = name_list(learners, "--learners", learner_names(opponents=True))
    folder = output_folder(folder, os.path.join("reports", f"{game_obj.slug()}-study"), learner_study.MARKERS, force)
    study = learner_study.run(game_obj, bound, tuple(names), episodes, games, seed, progress=say)
    study["command"] = command_line()
    learner_study.write(study, folder)
    say(format_table(study))
    say(f"a perfect first player wins {study['n_share']:.2f} of the starts; {study['seconds']:.1f} s; wrote {folder}/")


@click.command("scenarios")
@click.option("--seeds", type=BOUND, default=5, show_default=True, help="Runs per scenario, seeds 0, 1, ...")
@click.option("--cap", type=BOUND, default=2_000_000, show_default=True, help="Most games a run may play.")
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None, help="Where to write (default: reports/nim-scenarios/).")
@force_option
def scenarios_command(seeds, cap, folder, force):
    """The Nim thesis's scenarios: Q-learning on Nim (3 heaps <= 7) against the optimal player, itself and a
    random player, until its greedy policy makes no optimality deviation."""
    from discover.app.experiments import nim_scenarios

    folder = output_folder(folder, os.path.join("reports", "nim-scenarios"), nim_scenarios.MARKERS, force)
    record = nim_scenarios.run(seeds, cap, progress=say)
    record["command"] = command_line()
    nim_scenarios.write(record, folder)
    for row in record["rows"]:
        median = f"{row['median']:,.0f}" if row["median"] is not None else "not every seed"
        say(f"{row['label']:<32} {row['backup']:<8} median {median} (the thesis: {row['thesis']})")
    say(f"{record['seconds']:.0f} s; wrote {folder}/")
