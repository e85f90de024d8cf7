"""The ``alphazero`` command: the Notakto paper's experiment, or AlphaZero on any game, written into ``reports/``.

    discover alphazero notakto                 # the paper's experiment: 3 x 3 (first player) and 4 x 4 (second)
    discover alphazero notakto n=3             # one game: reports/notakto-n3-k3-boards1-alphazero/
    discover alphazero hex n=5 --iterations 40
    discover alphazero nim heaps=5 --start 1,3,5,7,9
    discover alphazero nim heaps=7 --guided      # alone and guided by the rule it discovers: reports/nim-heaps7-parity/
    discover alphazero nim --guided --summary    # those reports side by side: reports/nim-parity/
"""

from __future__ import annotations

import os
from contextlib import nullcontext

import click

from discover.app.cli.common import (BOUND, OUTPUT_FILE, OUTPUT_FOLDER, REPEATS, SEED, TEXT, Integer, command_line,
                                 force_option, game_arguments, game_from_words, int_list, output_folder,
                                 parallel_options, say)

__all__ = ["alphazero_command"]


@click.command("alphazero")
@game_arguments
@click.option("--iterations", type=BOUND, default=None, help="Rounds of self-play and training (default: per game).")
@click.option("--games", type=BOUND, default=None, help="Self-play games per iteration (default: per game).")
@click.option("--simulations", type=BOUND, default=None, help="Search simulations per move (default: per game).")
@click.option("--eval-every", type=BOUND, default=None, help="Iterations between scorings (default: per game).")
@click.option("--eval-games", type=BOUND, default=None, help="Games per scoring match (default 100).")
@click.option("--network", type=click.Choice(("mlp", "conv")), default=None, help="Network (default: per game).")
@click.option("--hidden", type=TEXT, default=None, metavar="W1,W2,..", help="Hidden layer widths, such as 128,128.")
@click.option("--random-openings", type=Integer(0, 10_000), default=None,
              help="Self-play games begin with up to this many random moves (default: per game).")
@click.option("--replay-size", type=BOUND, default=None, help="Samples the replay queue keeps (default: per game).")
@click.option("--baseline-simulations", type=TEXT, default=None, metavar="N[,N..]",
              help="Simulations of the final matches against MCTS with random rollouts, both sides alike "
                   "(default: the scoring simulations).")
@click.option("--bound", type=BOUND, default=None, help="Integer games: every coordinate in [0, bound].")
@click.option("--start", type=TEXT, default=None, help="Integer games: a start position such as 1,3,5,7,9 (default: random).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of every random choice.")
@click.option("--checkpoint", type=OUTPUT_FILE, metavar="FILE", default=None,
              help="One game: resume from this file if it exists; write it after every iteration (the resumed run "
                   "replaces its output folder, as --force).")
@click.option("--shards", type=Integer(1, 1024, "one task and network copy each"), default=None,
              help="Play each iteration's self-play in N seeded parts, on the workers below (the numbers depend on N, "
                   "never on the workers).")
@click.option("--guided", is_flag=True,
              help="Nim: train AlphaZero alone and guided by the rule the discovery stage finds in its own value "
                   "table on a small board (proved, stated for any number of heaps), both scored exactly by the "
                   "solver from the start, or on a stratified sample by Bouton's theorem where the board is too "
                   "large (discover.app.experiments.parity); the workers run the arms side by side.")
@click.option("--rule-heaps", type=Integer(2, 5, "the small board is solved to verify the rule"), default=None,
              help="With --guided: heaps of the small board the rule is discovered on (default 3).")
@click.option("--rule-games", type=Integer(1, 1_000_000), default=None,
              help="With --guided: self-play games AlphaZero plays on the small board (default 3840).")
@click.option("--repeats", type=REPEATS, default=None,
              help="With --guided: one run of each arm per seed, --seed, --seed + 1, ... (default 1).")
@click.option("--summary", is_flag=True,
              help="With --guided: no training; the parity reports beside the output folder (nim-heapsN-parity*/) "
                   "side by side in one table, written into reports/nim-parity/ (or --out).")
@parallel_options
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None, help="Where to write (default: reports/<game>-alphazero/).")
@force_option
def alphazero_command(game, params, iterations, games, simulations, eval_every, eval_games, network, hidden,
                      random_openings, replay_size, baseline_simulations, bound, start, seed, checkpoint, shards,
                      guided, rule_heaps, rule_games, repeats, summary, backend, address, workers, folder, force):
    """Train AlphaZero on GAME and write its learning curves against random, optimal and earlier players
    (and value-table.npz when the game's universe has at most 50,000 positions).

    With `notakto` and no parameters: the Notakto paper's experiment, 3 x 3 and 4 x 4 Notakto, each
    scored for its winning seat.

    With `nim heaps=N --guided`: AlphaZero alone and guided by the rule it discovers on a small board,
    written into reports/nim-heapsN-parity/.
    """
    if guided:
        from discover.app.cli.parity import guided_run, summary_run

        if summary:
            summary_run(dict(locals()), folder, force)
        else:
            guided_run(game_from_words(game, params), dict(locals()), folder, force)
        return
    if rule_heaps is not None or rule_games is not None or repeats is not None or summary:
        raise ValueError("--rule-heaps, --rule-games, --repeats and --summary belong to --guided: add --guided, or "
                         "leave them out")
    from discover.app.experiments import alphazero

    experiment = game == "notakto" and not params
    games_list = ([game_from_words("notakto", ["n=3"]), game_from_words("notakto", ["n=4"])] if experiment
                  else [game_from_words(game, params)])
    boards = [g for g in games_list if g.universe_from_start]
    if bound is not None and boards:
        raise ValueError(f"--bound sets the box of a game on integer coordinates; {boards[0]!r} is played from the "
                         "empty board: leave out --bound")
    if checkpoint is not None and experiment:
        raise ValueError("--checkpoint keeps one run: name the game's size, such as notakto n=4")
    fit = {k: v for k, v in (("iterations", iterations), ("games_per_iteration", games), ("simulations", simulations),
                             ("eval_every", eval_every), ("eval_games", eval_games), ("bound", bound),
                             ("random_openings", random_openings)) if v is not None}
    if start is not None:
        fit["start"] = "random" if start == "random" else int_list(start, "--start", 0)
    learner = {}
    if network is not None:
        learner["network"] = network
    if hidden is not None:
        learner["hidden"] = int_list(hidden, "--hidden")
    if replay_size is not None:
        learner["replay_size"] = replay_size
    baseline = None
    if baseline_simulations is not None:
        baseline = list(int_list(baseline_simulations, "--baseline-simulations"))
    slug = "notakto" if experiment else games_list[0].slug()
    folder = output_folder(folder, os.path.join("reports", f"{slug}-alphazero"), alphazero.MARKERS,
                           force or checkpoint is not None)  # a run resumed from its checkpoint is the same run
    title = "AlphaZero on Notakto (the Notakto paper's experiment)" if experiment else None
    if shards is not None:
        fit["shards"] = shards
    elif workers is not None or backend != "local" or address is not None:
        raise ValueError("--workers, --backend and --address place self-play shards: add --shards S (e.g. 4)")
    from cgbase.parallel import Workers

    with Workers(backend, workers, address) if shards is not None else nullcontext() as pool:
        record = alphazero.run(games_list, seed, fit, learner, checkpoint=checkpoint, progress=True,
                               baseline_simulations=baseline, title=title, command=command_line(), say=say,
                               workers=pool)
    alphazero.write(record, folder)
    say(f"wrote {folder}/ in {record['seconds']:.0f} s")
