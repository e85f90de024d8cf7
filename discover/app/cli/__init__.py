"""The ``discover`` command: every command is added here, from one module per command group.

A game is named by its family and ``name=value`` parameters::

    discover games                                   # every family, its parameters and defaults
    discover wythoff                                 # a game name first: the ``rule`` command
    discover --game-file my_game.py                  # a game built in a file with the public API
    discover solve nim heaps=3 --bound 20 --grundy
    discover solve wythoff --bound 1000 --plot w.png --save w.npz
    discover show w.npz

Bad input (an unknown game or parameter, a bad bound, a universe too large for memory, an
unreadable file, a usage error) prints one line on stderr and exits with status 2; a game whose rule
is not found (``rule``, ``report``) exits with status 1; Ctrl-C prints "interrupted" and exits with
status 130 (SIGTERM: 143). ``python -m discover`` is the same command.
"""

from __future__ import annotations

import os
import sys

import click

from discover.app.cli import alphazero, evaluate, explore, hqn, learn, rule, solve, sweep
from discover.app.cli.interrupt import EXIT_INTERRUPTED, exit_status, interruption, watch

__all__ = ["cli", "main"]

EXIT_BAD_INPUT = 2


class GameGroup(click.Group):
    """A group whose first word may be a game: ``discover wythoff`` runs ``discover rule wythoff``.

    Any first argument that is not a subcommand, ``--help`` or ``--version`` (a game name, or
    an option such as ``--bound``) is handed to the ``rule`` command.
    """

    route_to = "rule"

    def parse_args(self, ctx, args):
        own_options = set(self.get_help_option_names(ctx)) | {"--version"}
        if args and args[0] not in self.commands and args[0] not in own_options:
            args = [self.route_to, *args]
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx, args):
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            _refuse_repeated_options(command, rest[1:] if rest and rest[0] == name else rest, ctx)
        return name, command, rest


def _refuse_repeated_options(command: click.Command, args: list[str], ctx) -> None:
    """An option given twice is a usage error (click would keep the last silently, as ``--bound 3 --bound 4``)."""
    options = {opt: param for param in command.params if isinstance(param, click.Option) for opt in param.opts}
    seen, words = set(), iter(args)
    for word in words:
        if word == "--":
            return
        name, eq, _ = word.partition("=")
        param = options.get(name)
        if param is None:
            continue
        if param.name in seen and not param.multiple:
            raise click.UsageError(f"option {name} is given twice: give it once", ctx)
        seen.add(param.name)
        if not eq and not param.is_flag and param.nargs == 1:
            next(words, None)  # its value, whatever it looks like


@click.group(
    cls=GameGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    subcommand_metavar="GAME [NAME=VALUE]... | COMMAND [ARGS]...",
)
@click.version_option(package_name="cgdiscover", prog_name="discover", message="%(prog)s %(version)s")
def cli():
    """Discover, verify and explain the winning strategies of combinatorial games.

    \b
    discover games                            list the game families and their parameters
    discover wythoff                          find, verify and print the rule of a game
    discover octal code=0.16                  a take-and-break game's period, proved (--heaps, --seconds)
    discover --game-file my_game.py           your own game: a Python file that builds `game`
    discover --game-spec knight.toml          a declared game: its moves as data, nothing executed
    discover report wythoff                   write reports/wythoff/ (rule, checks, figures)
    discover solve nim heaps=3 --bound 20     solve exactly and summarise
    discover solve wythoff --bound 1000 --plot w.png
    discover show w.npz                       summarise a saved solution (--check: solve again, compare)
    discover nim --from q                     find the rule from a Q-learner's value table
    discover learn nim heaps=3 --bound 7      train a learner, save its table and curve
    discover compare wythoff --learner q      learned partition and policy against exact
    discover tournament nim heaps=3           the Nim study: learning curves and a tournament
    discover scenarios                        the Nim thesis: Q-learning against optimal, itself, random
    discover sweep q nim --grid "alpha=0.1,0.5"   a learner at every point of a grid, repeated, side by side
    discover study nim                        the Nim study's sweeps, best settings and tournament, repeated
    discover hqn wythoff                      the HQN paper's experiments (figures 9, 10, 11)
    discover solve hex n=5 --plot hex5.png    a board game's first moves: which win (search beyond 4 x 4)
    discover alphazero notakto                the Notakto paper's AlphaZero experiment (3 x 3 and 4 x 4)
    discover explore hex n=3                  the Hex exploration paper's learners, measured exactly
    discover evaluate wythoff --bound 6       OpenSpiel's MCTS bot (or --learner q) scored exactly against the solver

    Game parameters are NAME=VALUE words after the game, e.g. `nim heaps=4 misere=true`,
    `subtraction subtract=1,3,4`, `octal code=0.77`. Every command that takes a game also takes
    --game-file FILE.py or --game-spec FILE.toml in its place.
    """


for command in (solve.games_command, solve.solve_command, solve.show_command, rule.rule_command,
                rule.report_command, learn.learn_command, learn.compare_command, learn.tournament_command,
                learn.scenarios_command, sweep.sweep_command, sweep.study_command, hqn.hqn_command,
                alphazero.alphazero_command, explore.explore_command, evaluate.evaluate_command):
    cli.add_command(command)


def _error(message: str) -> None:
    click.echo(f"discover: {' '.join(str(message).split())}", err=True)


def _interrupted() -> None:
    from cgbase.progress import clear

    clear()  # a progress line still shown is erased before the message, never redrawn after it
    _error("interrupted")


SIZE_OPTIONS = ("--bound", "--verify-bound", "--heaps")  # the options that size a command's tables


def _out_of_memory(args: list[str]) -> str:
    """The advice for a command that ran out of memory: a smaller value of the size options it was given.

    Examples
    --------
    >>> _out_of_memory(["octal", "code=0.77", "misere=true", "--heaps=1000000"])
    'out of memory: use a smaller --heaps'
    >>> _out_of_memory(["show", "big.npz"])
    'out of memory: the work does not fit in the memory this machine allows'
    """
    given = [name for name in SIZE_OPTIONS if any(a == name or a.startswith(name + "=") for a in args)]
    if given:
        return f"out of memory: use a smaller {' or '.join(given)}"
    return "out of memory: the work does not fit in the memory this machine allows"


def main(argv: list[str] | None = None) -> int:
    """Run the ``discover`` command; return the exit status (0 ok, 1 no rule found, 2 bad input, 130 interrupted,
    143 terminated).

    Examples
    --------
    >>> main(["--version"])  # doctest: +ELLIPSIS
    discover ...
    0
    """
    from cgbase.numba_start import start_numba_on_import

    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        args = ["--help"]
    start_numba_on_import()  # the command's own process: numba's cache loads the toolkit's kernels lazily (numba's
    # own path on any error), from numba's import on
    with watch():
        return _run(args)


def _run(args: list[str]) -> int:
    # the context is made and invoked here rather than by cli.main, which writes a blank line on Ctrl-C
    try:
        with cli.make_context("discover", args, obj={"argv": args}) as ctx:
            result = cli.invoke(ctx)
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.exceptions.Abort:
        _interrupted()
        return EXIT_INTERRUPTED
    except click.UsageError as err:
        where = err.ctx.command_path if err.ctx is not None else "discover"
        _error(f"{err.format_message()} (see '{where} --help')")
        return EXIT_BAD_INPUT
    except click.ClickException as err:
        _error(err.format_message())
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # the reader went away (discover games | head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (ValueError, TypeError, OSError, MemoryError) as err:
        if os.environ.get("DISCOVER_DEBUG"):
            raise
        message = str(err) or type(err).__name__
        if isinstance(err, OSError) and err.filename is not None:
            message = f"{err.filename}: {err.strerror or err}"
        if isinstance(err, MemoryError):
            message = _out_of_memory(args)
        _error(message)
        return EXIT_BAD_INPUT
    except (KeyboardInterrupt, SystemError) as err:
        stop = interruption(err)  # numba re-raises an interruption inside its own Python code as a SystemError
        if stop is None:
            raise
        _interrupted()
        return exit_status(stop)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
