"""``discover alphazero nim heaps=N --guided``: AlphaZero on Nim alone and guided by the rule it discovers
(``discover.app.experiments.parity``), written into ``reports/nim-heapsN-parity/``."""

from __future__ import annotations

import os
from contextlib import nullcontext

from discover.app.cli.common import command_line, int_list, output_folder, say

__all__ = ["guided_run", "summary_run"]

#: options of ``alphazero`` that the parity experiment does not take (each refused with --guided)
NOT_GUIDED = ("network", "replay_size", "baseline_simulations", "bound", "checkpoint", "shards")
#: options that set a training, none of which --summary takes
TRAINING = ("iterations", "games", "simulations", "eval_every", "eval_games", "hidden", "random_openings", "start",
            "rule_heaps", "rule_games", "repeats", "workers", "address")


def summary_run(options: dict, folder, force: bool) -> None:
    """Write the parity reports beside ``folder`` (default ``reports/nim-parity``) side by side
    (``discover.app.experiments.parity_summary``); a bad combination is a ValueError (one line, exit 2)."""
    if options["game"] != "nim" or options["params"]:
        raise ValueError("--summary reads every Nim parity report: give the game as nim alone, without parameters")
    for name in NOT_GUIDED + TRAINING:
        if options.get(name) is not None:
            raise ValueError(f"--{name.replace('_', '-')} sets a training; --summary trains nothing: leave it out")
    from discover.app.experiments import parity_summary

    folder = output_folder(folder, os.path.join("reports", "nim-parity"), parity_summary.MARKERS, force)
    records = parity_summary.collect(os.path.dirname(os.path.abspath(folder)))
    parity_summary.write(records, folder, command_line())
    say(f"wrote {folder}/ from {len(records)} report(s)")


def guided_run(game, options: dict, folder, force: bool) -> None:
    """Run the parity experiment on ``game`` (Nim, normal play) from the ``alphazero`` command's ``options`` and
    write its report; a bad combination is a ValueError (one line, exit 2)."""
    spec = game.spec()
    if spec["name"] != "nim" or spec["params"].get("misere"):
        raise ValueError(f"--guided runs the parity experiment on Nim (normal play), not {game!r}: use nim heaps=7")
    for name in NOT_GUIDED:
        if options.get(name) is not None:
            raise ValueError(f"--{name.replace('_', '-')} is not an option of --guided (the parity experiment "
                             "trains one MLP per arm from the start, solved exactly): leave it out")
    from discover.app.experiments import parity, parity_report
    from discover.app.experiments.parity_settings import ParitySettings

    keys = {"iterations": "iterations", "games": "games_per_iteration", "simulations": "simulations",
            "eval_every": "eval_every", "eval_games": "eval_games", "random_openings": "random_openings",
            "rule_heaps": "rule_heaps", "rule_games": "rule_games"}
    fields = {field: options[key] for key, field in keys.items() if options.get(key) is not None}
    if options.get("hidden") is not None:
        fields["hidden"] = int_list(options["hidden"], "--hidden")
    if options.get("start") is not None:
        if options["start"] == "random":
            raise ValueError("--guided plays from one start (the Zhou-Riis setting): give heap sizes such as "
                             "1,3,5,7,9,11,13, or leave out --start")
        fields["start"] = int_list(options["start"], "--start")
    seeds = tuple(range(options["seed"], options["seed"] + (options.get("repeats") or 1)))
    settings = ParitySettings(heaps=game.dims, seeds=seeds, **fields)
    folder = output_folder(folder, os.path.join("reports", f"nim-heaps{game.dims}-parity"), parity_report.MARKERS,
                           force)
    from cgbase.parallel import Workers

    parallel = options.get("workers") is not None or options.get("backend") != "local" or options.get("address")
    with Workers(options["backend"], options["workers"], options["address"]) if parallel else nullcontext() as pool:
        record = parity.run(settings, workers=pool, progress=pool is None, say=say, command=command_line())
    parity_report.write(record, folder)
    say(f"wrote {folder}/ in {record['seconds']:.0f} s")
