"""The ``rule`` and ``report`` commands: find a game's rule, verify it, print or report it.

``discover GAME [NAME=VALUE]...`` runs ``rule``; ``discover --game-file FILE.py`` takes the
game from a Python file that builds one with the public API (a variable named ``game``);
``discover --game-spec FILE.toml`` reads a declared game (``games.declared``), executing nothing.
Both commands call ``find_rule`` and nothing else: the road (misère quotient, take-and-break, engines) is
``find_rule``'s choice (``discover.road``); the options are the ``RuleSettings`` of ``discover.app.cli.rule_settings``,
their defaults ``discover.defaults``'s.
"""

from __future__ import annotations

import difflib
import json
import time

import click

from discover import defaults
from discover.app.cli.common import (BOUND, OUTPUT_FOLDER, SEED, TEXT, Number, command_line, force_option,
                                     game_arguments, game_from_words, say, spinner)
from discover.app.cli.terminal import line_printer
from discover.engines import ENGINES
from discover.verdicts import Status

__all__ = ["rule_command", "report_command", "EXIT_NO_RULE"]

EXIT_NO_RULE = 1  # the exit status of `discover GAME` and `discover report GAME` when no rule is verified


def _resolve_game(ctx, settings, required: bool = True):
    from games import GAMES

    game = settings.game
    if game is not None and game not in GAMES and not game.startswith("openspiel:"):  # OpenSpiel's: read as ours
        commands = sorted(c for c in ctx.parent.command.commands if c != "rule")
        near = difflib.get_close_matches(game, list(GAMES) + commands, n=3, cutoff=0.5)
        hint = f"did you mean: {', '.join(near)}?" if near else f"games: {', '.join(GAMES)}; commands: {', '.join(commands)}"
        raise ValueError(f"unknown game or command {game!r}; {hint}")
    return game_from_words(game, settings.params, required)


def _discover_options(func):
    options = [
        game_arguments,
        click.option("--bound", type=BOUND, default=None, help="Training bound (default: at most 30 per coordinate)."),
        click.option("--verify-bound", type=BOUND, default=None,
                     help="Verification bound (default: ten times the training bound, within budget)."),
        click.option("--engines", type=TEXT, default=None, metavar="NAMES",
                     help=f"Comma-separated engines to try in order: {', '.join(ENGINES)} (default: "
                     f"{', '.join(defaults.ENGINES.engines)})."),
        click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of every random choice."),
        click.option("--from", "source", type=TEXT, default="solver", show_default=True,
                     metavar="solver|LEARNER|FILE.npz",
                     help="Train on the solver's table, on a registered learner's value table (q, qt, bayes, "
                     "qnetwork, hqn, alphazero; self-play; --bound defaults to the papers' sizes), or on a value "
                     "table saved by `discover learn` (its game, unless one is given)."),
        click.option("--episodes", type=BOUND, default=None,
                     help="With --from a learner: games to learn from (default: the learner's own; tabular: 50 per "
                     "move, at least 20,000; alphazero: 60 iterations of 64 games)."),
        click.option("--confidence", type=Number(0, 1, high_open=True), default=None,
                     help="With --from a learner: keep positions whose |value| is at least this, weighted by it "
                     f"(default {defaults.ENGINES.confidence:g})."),
        click.option("--heaps", type=BOUND, default=None,
                     help="Take-and-break games (octal, hexadecimal, grundy_game): compute the Grundy values of at "
                     f"most N heaps until a period is proved (default {defaults.TAKE_AND_BREAK.heaps:,}); misère heap "
                     f"games: add at most N heaps to the quotient (default {defaults.QUOTIENT.heaps:,})."),
        click.option("--seconds", type=Number(0, low_open=True), default=None, metavar="S",
                     help="The whole run's time budget: the answer comes within about S seconds ('none within S s' "
                     "and the best partial when it runs out). Default: on a table "
                     f"{defaults.ENGINES.seconds:g}; take-and-break games {defaults.TAKE_AND_BREAK.seconds:g}; "
                     f"misère heap games {defaults.QUOTIENT.seconds:g}; Notakto {defaults.BOARD_QUOTIENT.seconds:g}."),
        click.option("--no-strategy", is_flag=True,
                     help="No winning-move strategy search (a proof, when attempted, goes without a strategy)."),
        click.option("--no-proof", is_flag=True,
                     help="Stop at the verified rule: no winning-move strategy search and no proof attempt."),
        click.option("--proof-seconds", type=Number(0, low_open=True), default=None, metavar="S",
                     help=f"z3's time budget for the proof (default {defaults.ENGINES.proof_seconds:g}; a proof cut "
                     "short is 'unknown')."),
        click.option("--no-infer-relation", is_flag=True,
                     help="A game file's moves() stating no relation: infer none (its rule stays verified on a bound)."),
    ]
    for option in reversed(options):
        func = option(func)
    return click.pass_context(func)


def _find(ctx, settings):
    """Resolve the game, fit the learner ``--from`` names (if any) and run ``find_rule`` as ``settings`` (a
    ``RuleSettings``) ask; the discovery library is imported once the game is known (a bad game is one line,
    at once)."""
    source = settings.source
    start = time.perf_counter()
    table, timings = None, {}
    if settings.table_file is not None:
        return _find_on_file(ctx, settings, start)
    game_obj = _resolve_game(ctx, settings)
    from discover.find import find_rule

    if source != "solver":
        from discover.bounds import check_rule_game

        check_rule_game(game_obj)  # a game no table explains is refused before the learner plays it
        from discover.learned import table_from_values
        from learners.registry import fit_learner

        clock = time.perf_counter()
        learner = fit_learner(source, game_obj, bound=settings.bound, games=settings.episodes, seed=settings.seed,
                              progress=True)
        timings[f"learn ({learner.episodes_} games)"] = time.perf_counter() - clock
        if learner.value_table_ is None:
            raise ValueError(f"{source} kept no value table of {game_obj!r} (its universe is too large): use a "
                             "smaller --bound")
        table = table_from_values(learner.value_table_, settings.confidence)
    with spinner(f"discovering the rule of {game_obj!r} ...") as update:
        found = find_rule(game_obj, table=table, progress=update, settings=settings.find_settings(table is not None))
    found.timings = {**timings, **found.timings, "total": time.perf_counter() - start}
    return found


def _find_on_file(ctx, settings, start: float):
    """``find_rule`` on the value table file ``--from`` names (``learners.ValueTable.load``: checked, never trusted),
    of the game given, else of the game the file records; the table's provenance names the file."""
    from learners import ValueTable

    game_obj = _resolve_game(ctx, settings, required=False)
    from discover.find import find_rule
    from discover.learned import table_from_values

    clock = time.perf_counter()
    values = ValueTable.load(settings.table_file, game_obj)
    if game_obj is None:
        from discover.bounds import check_rule_game

        check_rule_game(values.game)
    table = table_from_values(values, settings.confidence)
    table.provenance["source"] += f", read from {settings.table_file}"
    timings = {"read the value table": time.perf_counter() - clock}
    with spinner(f"discovering the rule of {values.game!r} ...") as update:
        found = find_rule(values.game, table=table, progress=update, settings=settings.find_settings(True))
    found.timings = {**timings, **found.timings, "total": time.perf_counter() - start}
    return found


def _print_discovery(found) -> None:
    """The discovery on stdout (``discover.summary``), wrapped to the terminal's width (plain in a pipe)."""
    from discover.summary import summary_lines

    line = line_printer()
    for text, style in summary_lines(found):
        line(text, style)


@click.command("rule")
@_discover_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record (its `rule` is what Rule.from_json reads).")
def rule_command(ctx, as_json, **options):
    """Find, verify and print the rule of GAME (also run as `discover GAME`).

    \b
    discover wythoff
    discover nim heaps=4 --verify-bound 60
    discover subtraction subtract=1,3,4 --json
    discover --game-file my_game.py
    discover --game-spec my_game.toml    (a declared game: move rules as data)
    discover nim --from q                (rule from a Q-learner's table, three heaps of at most 7)
    discover wythoff --from q --verify-bound 1000
    discover octal code=0.16             (period 149,459 from n = 105,351, proved in seconds)
    discover grundy_game --heaps 2097152 (no period up to n = 2,097,151; about a minute)
    discover nim heaps=4 --no-proof      (the verified rule only: no strategy, no proof)
    discover octal code=0.77 misere=true (misère Kayles: its misère quotient, heap by heap)
    discover nim heaps=4 --no-strategy   (the rule and its proof, without a winning-move strategy)
    discover notakto n=3 boards=3        (Notakto's rule over boards: its misère quotient, proved)

    One-heap take-and-break games (octal, hexadecimal, grundy_game) are computed by the
    take-and-break engine until the periodicity theorem proves a period, within --heaps and
    --seconds; --bound, --engines or --from trains the engines on a table instead.  Heap games
    with misere=true (octal, hexadecimal, subtraction, lasker, grundy_game) get their misère
    quotient instead (Plambeck and Siegel's construction), heap by heap within --heaps and
    --seconds, until the periodicity theorem proves its heap-to-element period.  Notakto gets
    its rule over boards: the misère quotient of its live boards, within --seconds.  Every run
    answers within --seconds: 'none within S s' with the best partial when it runs out.

    Exit status: 0 with a verified rule, 1 when no rule is verified (the output says what came
    closest and what to try; --json has every candidate and check), 2 for bad input.
    """
    from discover.app.cli.rule_settings import RuleSettings

    found = _find(ctx, RuleSettings(**options))
    if as_json:
        click.echo(json.dumps(found.to_record()))
    else:
        _print_discovery(found)
    return 0 if found.status == Status.VERIFIED else EXIT_NO_RULE


@click.command("report")
@_discover_options
@click.option("--out", "folder", type=OUTPUT_FOLDER, metavar="FOLDER", default=None,
              help="Where to write (default: reports/<game>/).")
@force_option
def report_command(ctx, folder, force, **options):
    """Find and verify GAME's rule, then write a report: index.md, index.html, figures, JSON.

    A misère heap game or Notakto gets its misère quotient's report, with the multiplication
    table drawn (multiplication.png) and each component's element.

    Exit status: 0 with a verified rule, 1 when no rule is verified (the report is written all the
    same and says what came closest), 2 for bad input.
    """
    from discover.app.cli.rule_settings import RuleSettings
    from discover.app.render.report import check_report_folder, report_folder, write_report

    def checked(folder, game):  # an earlier report is replaced only with --force, as learn's runs
        folder = str(report_folder(game)) if folder is None else folder
        check_report_folder(folder, force)
        return folder

    settings = RuleSettings(**options)
    if folder is not None or settings.game is not None:  # a game by name: its folder is known before any work
        folder = checked(folder, None if folder is not None else _resolve_game(ctx, settings))
    found = _find(ctx, settings)
    folder = checked(folder, found.game)  # a game file, spec or value table: known once the game is
    with spinner("writing the report ..."):
        if found.quotient is not None:
            from discover.app.render.quotient import write_quotient_report

            path = write_quotient_report(found.quotient, folder, command_line())
        else:
            path = write_report(found, folder, command_line())
    _print_discovery(found)
    say(f"\nwrote {path}")
    return 0 if found.status == Status.VERIFIED else EXIT_NO_RULE
