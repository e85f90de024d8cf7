"""The ``rule`` and ``report`` commands: find a game's rule, verify it, print or report it.

``discover GAME [NAME=VALUE]...`` runs ``rule``; ``discover --game-file FILE.py`` takes the
game from a Python file that builds one with the public API (a variable named ``game``);
``discover --game-spec FILE.toml`` reads a declared game (``games.declared``), executing nothing.
One-heap take-and-break games (``octal``, ``hexadecimal``, ``grundy_game``) are computed by the
take-and-break engine within ``--heaps`` and ``--seconds`` unless ``--bound``, ``--engines`` or
``--from`` asks for a training table.
"""

from __future__ import annotations

import difflib
import json
import time

import click

from discover.cli.common import (BOUND, OUTPUT_FOLDER, SEED, TEXT, Number, force_option, game_arguments,
                                 game_from_words, say, spinner)
from discover.cli.rule_settings import DEFAULT_CONFIDENCE, DEFAULT_PROOF_SECONDS
from discover.cli.terminal import line_printer
from discover.timings import with_other

__all__ = ["rule_command", "report_command", "EXIT_NO_RULE"]

EXIT_NO_RULE = 1  # the exit status of `discover GAME` and `discover report GAME` when no rule is verified


def _resolve_game(ctx, settings, required: bool = True):
    from games import GAMES

    game = settings.game
    if game is not None and game not in GAMES:
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
                     help="Comma-separated engines to try in order: sequence, decision_list, residues, enumeration, operon, gplearn, pysr."),
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
                     f"(default {DEFAULT_CONFIDENCE})."),
        click.option("--heaps", type=BOUND, default=None,
                     help="Take-and-break games (octal, hexadecimal, grundy_game): compute the Grundy values of at "
                     "most N heaps until a period is proved (default 2^25 = 33,554,432); misère heap games: add at most "
                     "N heaps to the quotient (default 400)."),
        click.option("--seconds", type=Number(0, low_open=True), default=None, metavar="S",
                     help="Take-and-break games: stop computing after about S seconds (default 540, so that the "
                     "run ends within about ten minutes); misère heap games and Notakto: 120."),
        click.option("--no-strategy", is_flag=True,
                     help="No winning-move strategy search (a proof, when attempted, goes without a strategy)."),
        click.option("--no-proof", is_flag=True,
                     help="Stop at the verified rule: no winning-move strategy search and no proof attempt."),
        click.option("--proof-seconds", type=Number(0, low_open=True), default=None, metavar="S",
                     help=f"z3's time budget for the proof (default {DEFAULT_PROOF_SECONDS:g}; a proof cut short is "
                     "'unknown')."),
    ]
    for option in reversed(options):
        func = option(func)
    return click.pass_context(func)


def _misere_heap_game(ctx, settings):
    """The game when it is a heap game in misère play, or Notakto, trained on no table (its rule is its misère
    quotient)."""
    if settings.source != "solver" or settings.bound is not None or settings.engines is not None:
        return None
    if settings.game is None:
        return None
    from discover.quotients.kinds import is_board_sum_game, is_misere_heap_game

    from discover.cli.rule_settings import DEFAULT_PROOF_SECONDS

    game = _resolve_game(ctx, settings)
    if not (is_misere_heap_game(game) or is_board_sum_game(game)):
        return None
    if is_board_sum_game(game) and settings.heaps is not None:
        raise ValueError("--heaps is for heap games; Notakto's quotient takes every live board (budget it with "
                         "--seconds)")
    meaningless = [name for name, given in (("--verify-bound", settings.verify_bound is not None),
                                            ("--no-proof", settings.no_proof), ("--no-strategy", settings.no_strategy),
                                            ("--proof-seconds", settings.proof_seconds != DEFAULT_PROOF_SECONDS))
                   if given]
    if meaningless:  # an option that the quotient makes meaningless is refused, not silently ignored
        raise ValueError(f"{meaningless[0]} is for rules fitted to a table, and the rule of {game!r} is its misère "
                         "quotient (proved by Plambeck and Siegel's construction, checked on sums): leave out "
                         f"{meaningless[0]}")
    return game


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
    """The discovery on stdout, wrapped to the terminal's width (plain in a pipe): a verified rule with its strategy,
    proof and checks, or one paragraph saying what came closest and what to try (``no_rule_paragraph``)."""
    from discover.learned import learned_table_text
    from discover.render.no_rule import no_rule_paragraph

    line = line_printer()
    line(f"{found.game!r}", "bold")
    sequence = found.sequence
    if sequence is not None:
        verified = f"; verification bound {found.verify_bound:,}" if found.checks else ""
        line(f"Grundy values of {sequence.heaps:,} heaps computed by the take-and-break engine in "
             f"{sequence.seconds:.2f} s{verified}")
    else:
        where = "the solver's table" if found.source == "solver" else f"a learned table ({found.source})"
        line(f"trained on {where} at bound {found.train_bound:,}; verification bound {found.verify_bound:,}")
    rule, proof = found.rule, found.proof
    if found.status != "verified":
        line("")
        line(no_rule_paragraph(found), "yellow")
        _print_notes(found, line)
        return
    proved = f"; proved {proof.statement}" if proof is not None and proof.status == "proved" else ""
    line(f"\nRule (verified on bound {found.verified_bound:,}{proved}):", "bold green")
    if rule.words:
        line(f"  {rule.words}")
    text = rule.text()
    label = "Grundy values:" if rule.target == "grundy" else ("P positions:" if text.startswith("if ") else "P iff")
    line(f"  {label} {text}")
    if found.general is not None:
        line(f"  {found.general.line()}")
    if rule.target == "grundy" and len(rule.feature_names) == 1:
        line("  sums of heaps: P iff G(n₁) ⊕ G(n₂) ⊕ ... = 0")
    if "GoldenRatio" in str(rule.expr):
        line("  where φ = (1 + √5)/2, the golden ratio")
    line(f"  LaTeX: {rule.latex()}")
    line(f"  found by {rule.provenance.get('engine')}, complexity {rule.complexity}, "
         f"training accuracy {rule.train_accuracy:.1%}")
    if "learned" in rule.provenance:
        line(f"  {learned_table_text(rule.provenance['learned'])}")
    if found.strategy is not None:
        line(f"\nStrategy: {found.strategy.text()}", "bold")
        line(f"  a winning move from every N position up to bound {found.strategy.checked_bound:,} (checked)")
        played = found.strategy_check
        if played is not None and not played.passed:
            line(f"  {played.line()}: the strategy fails (the rule is judged apart; the proof does not use it)",
                 "bold red")
    if proof is not None:
        style = {"proved": "bold green", "disproved": "bold red"}.get(proof.status, "bold yellow")
        line(f"\n{proof.line()}", style)
        if proof.status == "proved" and proof.reason:
            line(f"  because: {proof.reason}")
    _print_notes(found, line)
    line("\nVerification", "bold")
    for check in found.checks:
        line(f"  {check.line()}  ({check.seconds:.2f} s)")
    others = [r for r in found.candidates if str(r.expr) != str(rule.expr)][:4]
    if others:
        line("\nOther candidates", "bold")
        for r in others:
            line(f"  {r.train_accuracy:6.1%}  c={r.complexity:<3} {r.text()}  [{r.provenance.get('engine')}]")
    line("\nTimings: " + ", ".join(f"{k} {v:.2f} s" for k, v in with_other(found.timings).items()), "dim")


def _print_notes(found, line) -> None:
    if found.notes:
        line("\nNotes", "bold")
        for note in found.notes:
            line(f"  {note}")


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
    its rule over boards: the misère quotient of its live boards, within --seconds.

    Exit status: 0 with a verified rule, 1 when no rule is verified (the output says what came
    closest and what to try; --json has every candidate and check), 2 for bad input.
    """
    from discover.cli.rule_settings import RuleSettings

    settings = RuleSettings(**options)
    game = _misere_heap_game(ctx, settings)
    if game is not None:
        from discover.cli.quotient import run_board_quotient, run_quotient
        from discover.quotients.kinds import is_board_sum_game

        if is_board_sum_game(game):
            status = run_board_quotient(game, settings.seconds, as_json)
        else:
            status = run_quotient(game, settings.heaps, settings.seconds, as_json)
        return EXIT_NO_RULE if status == "refuted" else 0
    found = _find(ctx, settings)
    if as_json:
        click.echo(json.dumps(found.to_record()))
    else:
        _print_discovery(found)
    return 0 if found.status == "verified" else EXIT_NO_RULE


def _quotient_report(game, settings, folder) -> int:
    """``discover report`` for a misère heap game or Notakto: the quotient found, printed and reported."""
    from discover.cli.quotient import print_board_quotient, print_quotient
    from discover.quotients import discover_board_quotient, discover_quotient, is_board_sum_game
    from discover.render.quotient import write_quotient_report

    boards = is_board_sum_game(game)
    with spinner(f"computing the misère quotient of {game!r} ...") as update:
        if boards:
            found = discover_board_quotient(game, seconds=settings.seconds, progress=update)
        else:
            found = discover_quotient(game, heaps=settings.heaps, seconds=settings.seconds, progress=update)
    with spinner("writing the report ..."):
        path = write_quotient_report(found, folder)
    (print_board_quotient if boards else print_quotient)(found)
    say(f"\nwrote {path}")
    return EXIT_NO_RULE if found.status == "refuted" else 0


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
    from discover.cli.rule_settings import RuleSettings
    from discover.render.report import check_report_folder, report_folder, write_report

    def checked(folder, game):  # an earlier report is replaced only with --force, as learn's runs
        folder = str(report_folder(game)) if folder is None else folder
        check_report_folder(folder, force)
        return folder

    settings = RuleSettings(**options)
    if folder is not None or settings.game is not None:  # a game by name: its folder is known before any work
        folder = checked(folder, None if folder is not None else _resolve_game(ctx, settings))
    game = _misere_heap_game(ctx, settings)
    if game is not None:
        return _quotient_report(game, settings, checked(folder, game))
    found = _find(ctx, settings)
    folder = checked(folder, found.game)  # a game file, spec or value table: known once the game is
    with spinner("writing the report ..."):
        path = write_report(found, folder)
    _print_discovery(found)
    say(f"\nwrote {path}")
    return 0 if found.status == "verified" else EXIT_NO_RULE
