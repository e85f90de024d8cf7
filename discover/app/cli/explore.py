"""The ``explore`` command: the Hex exploration paper's learners, every variant with the same games and seeds,
measured exactly against the solver.

    discover explore hex n=3                              # minutes: the paper's five variants, small network
    discover explore hex n=4 --variants minimax,joint --seeds 0,1,2,3,4
    discover explore hex n=5 --variants minimax,joint     # the paper's figure 1 question (about 20 minutes here)
    discover explore hex n=7                              # the paper's three methods on a reduced CPU budget
"""

from __future__ import annotations

import os

import click

from discover.app.cli.common import (BOUND, OUTPUT_FOLDER, TEXT, command_line, force_option, game_arguments,
                                     game_from_words, int_list, name_list, output_folder, say, typed_params)

__all__ = ["explore_command"]


@click.command("explore")
@game_arguments
@click.option("--variants", type=TEXT, default=None,
              help="Comma-separated variants (learners.exploration.VARIANTS: minimax, joint, variance, pseudocount, "
                   "solver, mustplay, proofs); minimax is plain one-step Q, the reference (default: "
                   "minimax,joint,variance,pseudocount,solver; on Hex 6 x 6 and 7 x 7 minimax,pseudocount,solver).")
@click.option("--episodes", type=BOUND, default=None, help="Self-play games per fit (default: per board size).")
@click.option("--seeds", type=TEXT, default=None, metavar="S,S,..", help="One fit per seed and variant (default 0,1,2).")
@click.option("--learner", "learner_words", type=TEXT, default=None, metavar="NAME=VALUE,..",
              help="BoardQLearner parameters for every variant, such as layers=6,width=32,device=cuda.")
@click.option("--exact", type=click.Choice(("auto", "retrograde", "search", "solver", "none")), default="auto",
              show_default=True, help="Where the exact values come from (auto: the retrograde where it fits, else "
                                      "the search up to Hex 5 x 5, else the solver with virtual connections on "
                                      "positions met in play up to Hex 7 x 7).")
@click.option("--curve-sample", type=BOUND, default=None, help="N positions sampled at every record.")
@click.option("--final-sample", type=BOUND, default=None, help="Positions sampled for the final measure.")
@click.option("--node-budget", "nodes", type=BOUND, default=None,
              help="With the solver: positions it may evaluate per position and per greedy move (default 2000; 300 on Hex 6 x 6 and 7 x 7); "
                   "what it does not settle is counted, not guessed.")
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None, help="Where to write (default: reports/<game>-explore/).")
@force_option
def explore_command(game, params, variants, episodes, seeds, learner_words, exact, curve_sample, final_sample, nodes,
                    folder, force):
    """Every variant of the Hex exploration paper on GAME with the same games and seeds: curves, exact accuracy
    with 95% intervals, each variant against plain one-step Q, the openings; a report folder."""
    from discover.app.experiments import explore
    from learners.exploration import VARIANTS, BoardQLearner

    game_obj = game_from_words(game, params)
    settings = explore.preset(game_obj)
    chosen = (name_list(variants, "--variants", VARIANTS) if variants is not None
              else settings.get("variants", list(explore.PAPER_VARIANTS)))
    BoardQLearner().check_game(game_obj)
    seed_list = list(int_list(seeds, "--seeds", 0)) if seeds else settings["seeds"]
    learner = {**settings["learner"], **typed_params(BoardQLearner, [] if learner_words is None else name_list(learner_words, "--learner"),
                                                   "--learner")}
    folder = output_folder(folder, os.path.join("reports", f"{game_obj.slug()}-explore"), explore.MARKERS, force)
    record = explore.run(game_obj, chosen, episodes or settings["episodes"], seed_list, learner=learner,
                         eval_every=settings["eval_every"] if episodes is None else None, exact=exact,
                         curve_sample=curve_sample or settings["curve_sample"],
                         final_sample=final_sample or settings["final_sample"], nodes=nodes or settings.get("nodes", 2000),
                         per_variant=settings.get("per_variant"),
                         progress=lambda done, total, what: say(f"fit {done + 1} of {total}: {what}"))
    record["command"] = command_line()
    explore.write(record, folder)
    for line in explore.verdict(record):
        say(line.replace("`", ""))
    say(f"wrote {folder}/")
