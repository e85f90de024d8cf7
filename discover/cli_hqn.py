"""The ``hqn`` command: seed 000's experiments written into ``reports/<game>-hqn/``.

    discover hqn wythoff                  # figures 9, 10 and 11 with the seed's sizes
    discover hqn wythoff --periods 6      # shorter
"""

from __future__ import annotations

import os
import time

import click

from discover.cli import _make_game, _say, cli
from discover.cli_learn import _folder, _slug, _write_json, _write_text

__all__ = ["hqn_command"]


def _figure(path: str, title: str, draw) -> None:
    from matplotlib.figure import Figure

    from discover.plots import save_figure

    fig = Figure(figsize=(9, 5), layout="constrained")
    ax = fig.subplots()
    draw(ax)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
    ax.set_title(title, fontsize=10)
    save_figure(fig, path)


def _plot_time(ax, curves):
    for name, points in curves.items():
        ax.plot([p["step"] for p in points], [p["accuracy"] for p in points], marker="o", markersize=3, label=name)
    ax.set_xlabel("time step (period of games)")
    ax.set_ylabel("accuracy: share of N positions with an optimal move")
    ax.set_ylim(-0.02, 1.02)


def _plot_sizes(ax, sizes):
    for name, row in sizes.items():
        ns = sorted(int(n) for n in row)
        ax.plot(ns, [row[n] for n in ns], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_xlabel("board size n (n x n)")
    ax.set_ylabel("accuracy")
    ax.set_ylim(-0.02, 1.02)


def _plot_cycle(ax, cycle):
    history = cycle["history"]
    ax.plot([r["period"] for r in history], [r["best_performance"] for r in history], label="best model's score")
    ax.plot([r["period"] for r in history], [r["model_accuracy"] for r in history], label="its accuracy (solver)")
    start = 0
    for stint in cycle["stints"]:
        ax.axvspan(start + 0.5, start + stint["periods"] + 0.5, alpha=0.08,
                   color={"wythoff": "red", "nim": "blue", "euclid": "green"}.get(stint["game"].split("(")[0], "grey"))
        if stint["detected_at"]:
            ax.axvline(start + stint["detected_at"], color="black", linestyle=":", linewidth=1)
        ax.text(start + 1, 0.03, stint["game"].split("(")[0], fontsize=8)
        start += stint["periods"]
    ax.set_xlabel("period (dotted: change detected)")
    ax.set_ylim(-0.02, 1.02)


@cli.command("hqn")
@click.argument("game")
@click.argument("params", nargs=-1, metavar="[NAME=VALUE]...")
@click.option("--periods", type=click.IntRange(1, 1000), default=15, show_default=True, help="Time steps of figure 9.")
@click.option("--episodes", type=click.IntRange(1, 10**7), default=2000, show_default=True, help="Games per time step.")
@click.option("--bound", type=click.IntRange(1, 1000), default=12, show_default=True, help="Training board.")
@click.option("--eval-bound", type=click.IntRange(1, 1000), default=50, show_default=True, help="Evaluation board.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every random choice.")
@click.option("--out", "folder", metavar="FOLDER", default=None, help="Where to write (default: reports/<game>-hqn/).")
def hqn_command(game, params, periods, episodes, bound, eval_bound, seed, folder):
    """Seed 000's HQN experiments on GAME: accuracy over time (Q-agent, neural HQN, symbolic HQN),
    accuracy of the converged models across board sizes, and the Wythoff -> Nim -> Euclid cycle."""
    from discover.hqn_experiments import accuracy_by_size, accuracy_over_time, rule_change_cycle
    from discover.symbolic_model import SymbolicModelBuilder
    from games import make_game
    from learners.hqn import HQN

    game_obj = _make_game(game, params)
    if game_obj.dims != 2:
        raise ValueError(f"the HQN experiments are on boards (games of two coordinates); {game_obj!r} has {game_obj.dims}")
    folder = _folder(folder, True) if folder else _folder(os.path.join("reports", f"{_slug(game_obj)}-hqn"), False)
    clock = time.perf_counter()
    over_time = accuracy_over_time(game_obj, periods, episodes, bound, eval_bound, seed, progress=_say)
    models = {}
    for name, builder in (("neural model", "neural"), ("symbolic model", SymbolicModelBuilder())):
        hqn = HQN(model=builder, random_state=seed).fit(game_obj, bound=bound, eval_bound=eval_bound, periods=periods,
                                                        episodes=episodes)
        models[name] = hqn.best_model_
    _say("accuracy across board sizes")
    sizes = accuracy_by_size(game_obj, models)
    _say("rule changes: wythoff -> nim -> euclid, twice")
    cycle = rule_change_cycle([make_game("wythoff"), make_game("nim", heaps=2), make_game("euclid")],
                              episodes=episodes, bound=bound, seed=seed, progress=_say)
    seconds = time.perf_counter() - clock
    _figure(os.path.join(folder, "figure9-accuracy-over-time.png"), f"{game_obj!r}: accuracy on the "
            f"{eval_bound} x {eval_bound} board", lambda ax: _plot_time(ax, over_time["curves"]))
    _figure(os.path.join(folder, "figure10-accuracy-by-size.png"), f"{game_obj!r}: converged models, trained on "
            f"{bound} x {bound}", lambda ax: _plot_sizes(ax, sizes))
    _figure(os.path.join(folder, "figure11-rule-changes.png"), "symbolic HQN through rule changes",
            lambda ax: _plot_cycle(ax, cycle))
    record = {"over_time": over_time, "sizes": sizes, "models": {k: m.describe() for k, m in models.items()},
              "cycle": cycle, "seconds": seconds}
    _write_json(os.path.join(folder, "hqn.json"), record)
    _write_text(os.path.join(folder, "index.md"), _markdown(game_obj, record, periods, episodes, bound, eval_bound, seed))
    _say(f"wrote {folder}/ in {seconds:.0f} s")


def _markdown(game, record, periods, episodes, bound, eval_bound, seed) -> str:
    lines = [f"# HQN experiments on {game!r} (seed 000)", "",
             f"Training board {bound} x {bound}, models scored by play on {eval_bound} x {eval_bound}, {periods} periods "
             f"of {episodes:,} games, seed {seed}. Accuracy: the share of N positions where the agent's move is "
             "optimal, against the solver.", "", "## Figure 9: accuracy over time", "",
             "![figure 9](figure9-accuracy-over-time.png)", "", "| agent | final accuracy | seconds |", "|---|---|---|"]
    for name, points in record["over_time"]["curves"].items():
        lines.append(f"| {name} | {points[-1]['accuracy']:.3f} | {points[-1]['seconds']:.1f} |")
    lines += ["", "## Figure 10: converged models across board sizes", "", "![figure 10](figure10-accuracy-by-size.png)",
              "", "| model | " + " | ".join(str(n) for n in record["sizes"]["symbolic model"]) + " |",
              "|---" * (len(record["sizes"]["symbolic model"]) + 1) + "|"]
    for name, row in record["sizes"].items():
        lines.append(f"| {name}: {record['models'][name]} | "
                     + " | ".join(f"{row[n]:.3f}" if n in row else "-" for n in record["sizes"]["symbolic model"]) + " |")
    lines += ["", "## Figure 11: rule changes (Wythoff -> Nim -> Euclid, twice, unannounced)", "",
              "![figure 11](figure11-rule-changes.png)", "",
              "| cycle | game | periods | change detected at | recovery (periods) | recalled | model | accuracy |",
              "|---|---|---|---|---|---|---|---|"]
    for s in record["cycle"]["stints"]:
        lines.append(f"| {s['cycle']} | {s['game']} | {s['periods']} | {s['detected_at']} | {s['recovery']} | "
                     f"{s['recalled']} | {s['model']} | {s['model_accuracy']:.3f} |")
    return "\n".join(lines) + f"\n\nTotal time {record['seconds']:.0f} s.\n"
