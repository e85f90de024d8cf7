"""The ``hqn`` command: the HQN paper's experiments written into ``reports/<game>-hqn/``.

    discover hqn wythoff                  # figures 9, 10 and 11 with the paper's sizes
    discover hqn wythoff --periods 6      # shorter
"""

from __future__ import annotations

import os

import click

from discover.app.cli.common import (OUTPUT_FOLDER, SEED, Integer, command_line, force_option, game_arguments,
                                     game_from_words, output_folder, say)

__all__ = ["hqn_command"]


@click.command("hqn")
@game_arguments
@click.option("--periods", type=Integer(1, 1000), default=15, show_default=True, help="Time steps of figure 9.")
@click.option("--episodes", type=Integer(1, 10**7), default=2000, show_default=True, help="Games per time step.")
@click.option("--bound", type=Integer(1, 1000), default=12, show_default=True, help="Training board.")
@click.option("--eval-bound", type=Integer(1, 1000), default=50, show_default=True, help="Evaluation board.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of every random choice.")
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None, help="Where to write (default: reports/<game>-hqn/).")
@force_option
def hqn_command(game, params, periods, episodes, bound, eval_bound, seed, folder, force):
    """The HQN paper's experiments on GAME: accuracy over time (Q-agent, neural HQN, symbolic HQN),
    accuracy of the converged models across board sizes, and the Wythoff -> Nim -> Euclid cycle."""
    from discover.app.experiments import hqn

    game_obj = game_from_words(game, params)
    if game_obj.dims != 2:
        raise ValueError(f"the HQN experiments are on boards (games of two coordinates); {game_obj!r} has {game_obj.dims}")
    folder = output_folder(folder, os.path.join("reports", f"{game_obj.slug()}-hqn"), hqn.MARKERS, force)
    record = hqn.run(game_obj, periods, episodes, bound, eval_bound, seed, progress=say)
    record["command"] = command_line()
    hqn.write(record, folder)
    say(f"wrote {folder}/ in {record['seconds']:.0f} s")
