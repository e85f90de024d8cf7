"""The ``discover`` command: list the games, solve one, show a saved solution, find a game's rule.

A game is named by its family and ``name=value`` parameters::

    discover games                                   # every family, its parameters and defaults
    discover wythoff                                 # a game name first: the ``rule`` command
    discover --game-file my_game.py                  # a game built in a file with the public API
    discover solve nim heaps=3 --bound 20 --grundy
    discover solve wythoff --bound 1000 --plot w.png --save w.npz
    discover show w.npz

Bad input (an unknown game or parameter, a bad bound, a universe too large for memory, an
unreadable file, a usage error) prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import inspect
import os
import sys
import threading
import time
from contextlib import contextmanager

import click

from games import __version__

__all__ = ["cli", "main"]

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


# -- helpers ---------------------------------------------------------------------------------
RULE_COMMANDS = ("rule", "report")  # the commands that fit a rule to the game's table


def _make_game(name: str, words) -> object:
    from games import make_game, parse_params

    game = make_game(name, **parse_params(name, list(words)))
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.info_name in RULE_COMMANDS and game.universe_from_start:
        kind = "an impartial" if game.impartial else "a partisan"
        again = " ".join(["discover solve", name, *words])
        raise ValueError(
            f"{game!r} is {kind} board game: rule discovery fits formulas over integer coordinates and verifies "
            f"them on a larger bound, and bitboard positions have neither; solve it exactly with '{again}'"
        )
    return game


def _check_output_path(path: str, what: str) -> None:
    """Refuse, before solving, an output file that could not be written."""
    if os.path.isdir(path):
        raise ValueError(f"{what} {path} is a folder: give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"cannot write {path}: the folder {folder} is not writable")


@contextmanager
def _spinner(message: str, delay: float = 0.4):
    """A transient rich status on stderr, shown only when stderr is a terminal and the work
    lasts longer than ``delay`` seconds; stdout is never touched.  Yields a function that
    replaces the message."""
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        yield lambda text: None
        return
    status = console.status(message, spinner="dots")
    timer = threading.Timer(delay, status.start)
    timer.daemon = True
    timer.start()
    try:
        yield lambda text: status.update(text)
    finally:
        timer.cancel()
        timer.join()
        status.stop()


def _format_position(p) -> str:
    return str(int(p[0])) if len(p) == 1 else "(" + ", ".join(str(int(x)) for x in p) + ")"


def _format_default(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ",".join(str(v) for v in value)
    return str(value)


def _format_type(kind) -> str:
    if getattr(kind, "__args__", None) or not hasattr(kind, "__name__"):
        return str(kind).replace("typing.", "")  # tuple[int, ...], int | None
    return kind.__name__


def _first_sentence(doc: str | None) -> str:
    text = " ".join((doc or "").split()).replace("``", "")
    for i, char in enumerate(text):
        if char == "." and (i + 1 == len(text) or text[i + 1] == " "):
            return text[: i + 1]
    return text


def _print_summary(solution, title: str, extra_rows=()) -> None:
    """Print a solution's rows (none without one) and the extra rows as one table."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    rows = [*(_solution_rows(solution) if solution is not None else []), *extra_rows]
    table = Table(title=Text(title), show_header=False, box=box.SIMPLE, title_justify="left")
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, value in rows:
        table.add_row(Text(key), Text(str(value)))
    Console().print(table)


def _solution_rows(solution) -> list[tuple[str, str]]:
    """A solution's counts, first P positions and, when present, Grundy values and remoteness."""
    import numpy as np

    summary = solution.summary()
    table_values = solution.outcome_table
    n = summary["positions"]
    universe = solution.universe
    dims = universe.dims

    def pct(count: int) -> str:
        return f"{count:,}  ({100.0 * count / n:.1f}%)" if n else "0"

    if universe.is_box:
        shape = f"every position with coordinates in [0, {universe.limits.max()}]" if len(set(universe.limits.tolist())) == 1 else f"box with limits {universe.limits.tolist()}"
    else:
        shape = f"{n:,} positions (the game's own universe, coordinates up to {universe.limits.tolist()})"
    losses = int((table_values == -1).sum())
    first = summary["first P positions"]
    shown = ", ".join(_format_position(p) for p in first)
    if losses > len(first):
        shown += ", ..."

    rows = [
        ("positions", f"{n:,}"),
        ("universe", shape),
        ("wins (N)", pct(summary["wins (N)"])),
        ("losses (P)", pct(summary["losses (P)"])),
        ("draws", pct(summary["draws"])),
        ("first P positions", shown or "none"),
    ]
    if solution.grundy_table is not None:
        g = solution.grundy_table
        rows.append(("largest Grundy value", f"{int(g.max()):,}" if g.size else "-"))
        if dims == 1 and universe.is_box:
            head = " ".join(str(int(v)) for v in g[:40])
            rows.append(("Grundy values from 0", head + (" ..." if g.size > 40 else "")))
    if solution.remoteness_table is not None:
        r = solution.remoteness_table
        finite = np.flatnonzero(r >= 0)
        if finite.size:
            longest = finite[np.argmax(r[finite])]
            where = _format_position(universe.positions(np.array([longest]))[0])
            rows.append(("longest game (remoteness)", f"{int(r[longest])} moves, from {where}"))
    return rows


def _say(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    Console().print(Text(message))


def _where(game, bound) -> str:
    """'at bound N', or for a board game (whose universe ignores the bound) where its positions come from."""
    return "over the positions reachable from the empty board" if game.universe_from_start else f"at bound {bound}"


def _solve(game, bound: int, grundy: bool = False, remoteness: bool = False):
    from solvers import solve

    start = time.perf_counter()
    with _spinner(f"solving {game!r} {_where(game, bound)} ..."):
        solution = solve(game, bound=bound, grundy=grundy, remoteness=remoteness)
    return solution, time.perf_counter() - start


def _openings(game, solution=None):
    """A board game's first moves and their values (``solution`` or, without one, the search)."""
    from discover.openings import openings

    with _spinner(f"solving the first moves of {game!r} ...") as say:
        return openings(game, solution, lambda done, total: say(f"{game!r}: {done} of {total} proofs done ..."))


def _opening_rows(result) -> list[tuple[str, str]]:
    draws = f", {result.count(0)} draw" if result.count(0) else ""
    value = result.start_value
    return [
        ("empty board", f"{result.winner} (outcome {value:+d} for the player to move)" if value else result.winner),
        ("first moves", f"{result.count(1)} of {result.moves} win{draws} (W win, L lose, D draw)"),
        ("", result.text()),
    ]


def _check_plot(path: str, game) -> None:
    from discover.plots import check_figure_path, check_plot_path

    check_figure_path(path) if game.universe_from_start else check_plot_path(path, game.dims)


def _plot(solution, path: str, first_moves=None) -> None:
    """Draw a solution: the P positions, or for a board game the values of its first moves."""
    with _spinner(f"drawing {path} ..."):
        if first_moves is not None:
            from discover.board_plots import plot_openings

            plot_openings(first_moves, path)
        else:
            from discover.plots import plot_p_positions

            plot_p_positions(solution, path)
    _say(f"drew the {'first moves' if first_moves is not None else 'P positions'} in {path}")


def _solve_by_search(game, plot_path, save_path, grundy, remoteness) -> None:
    """A board game too large for the retrograde: the empty board and each first move by proof-number search."""
    for flag, asked in (("--save", save_path), ("--grundy", grundy), ("--remoteness", remoteness)):
        if asked:
            raise ValueError(
                f"{flag} needs the retrograde over every reachable position, and {game!r} is solved by search "
                f"from the empty board only: leave out {flag}, or use a smaller board"
            )
    result = _openings(game)
    _print_summary(None, f"{game!r} solved from the empty board by proof-number search",
                   [*_opening_rows(result), ("time", f"{result.seconds:.2f} s")])
    if plot_path is not None:
        _plot(None, plot_path, result)


# -- click plumbing --------------------------------------------------------------------------
class BoundType(click.ParamType):
    """A positive integer bound, with one clear message for anything else."""

    name = "N"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not text.lstrip("+-").isdigit():
                self.fail(f"must be a positive integer, got {value!r}", param, ctx)
            number = int(text)
        if number < 1:
            self.fail(f"must be a positive integer, got {number}", param, ctx)
        return number


BOUND = BoundType()


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


def _game_options(func):
    func = click.argument("params", nargs=-1, metavar="[NAME=VALUE]...")(func)
    func = click.argument("game")(func)
    return func


@click.group(
    cls=GameGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    subcommand_metavar="GAME [NAME=VALUE]... | COMMAND [ARGS]...",
)
@click.version_option(__version__, "--version", prog_name="discover", message="%(prog)s %(version)s")
def cli():
    """Discover, verify and explain the winning strategies of combinatorial games.

    \b
    discover games                            list the game families and their parameters
    discover wythoff                          find, verify and print the rule of a game
    discover report wythoff                   write reports/wythoff/ (rule, checks, figures)
    discover solve nim heaps=3 --bound 20     solve exactly and summarise
    discover solve wythoff --bound 1000 --plot w.png
    discover show w.npz                       summarise a saved solution
    discover nim --from q                     find the rule from a Q-learner's value table
    discover learn nim heaps=3 --bound 7      train a learner, save its table and curve
    discover compare wythoff --learner q      learned partition and policy against exact
    discover tournament nim heaps=3           seed 001's learners' study
    discover hqn wythoff                      seed 000's HQN experiments (figures 9, 10, 11)
    discover solve hex n=5 --plot hex5.png    a board game's first moves: which win (search beyond 4 x 4)
    discover alphazero notakto                seed 003's AlphaZero experiment (3 x 3 and 4 x 4 Notakto)

    Game parameters are NAME=VALUE words after the game, e.g. `nim heaps=4 misere=true`,
    `subtraction subtract=1,3,4`, `octal code=0.77`.
    """


@cli.command("games")
def games_command():
    """List every game family with its parameters (types and defaults)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from games import GAMES, family_signature

    table = Table(box=box.SIMPLE, title=Text("game families"), title_justify="left")
    table.add_column("game", style="bold", no_wrap=True)
    table.add_column("parameters (name: type = default)")
    table.add_column("description")
    for name in GAMES:
        params = [
            f"{p}: {_format_type(kind)} = {_format_default(default)}"
            if default is not inspect.Parameter.empty
            else f"{p}: {_format_type(kind)}"
            for p, kind, default in family_signature(name)
        ]
        table.add_row(Text(name), Text("\n".join(params) or "-"), Text(_first_sentence(GAMES[name].__doc__)))
    console = Console()
    console.print(table)
    console.print(Text("Parameters go after the game as name=value words: discover solve nim heaps=4 misere=true --bound 10"))


@cli.command("solve")
@_game_options
@click.option("--bound", type=BOUND, default=None,
              help="Largest coordinate value of the universe (default: 30 for 1-2 coordinates, smaller above).")
@click.option("--plot", "plot_path", metavar="FILE.png", default=None,
              help="Draw the P positions of a 1-D or 2-D game, or a board game's first moves, into this image "
                   "(.png, .pdf, .svg).")
@click.option("--save", "save_path", metavar="FILE", default=None, help="Write the solution to this file (see `show`).")
@click.option("--grundy", is_flag=True, help="Also compute Grundy values (impartial games, normal play).")
@click.option("--remoteness", is_flag=True, help="Also compute remoteness (moves to the end under optimal play).")
def solve_command(game, params, bound, plot_path, save_path, grundy, remoteness):
    """Solve GAME exactly over a bounded universe and print a summary.

    A board game is solved over the positions reachable from the empty board, or by proof-number
    search from the empty board when those are too many; the summary shows each first move's value.

    \b
    discover solve wythoff --bound 1000 --plot w.png
    discover solve hex n=5 --plot hex5.png
    discover solve subtraction subtract=1,3,4 --bound 100 --grundy --save s.npz
    """
    from discover.find import default_bound

    game_obj = _make_game(game, params)
    bound = bound or default_bound(game_obj)
    if plot_path is not None:
        _check_plot(plot_path, game_obj)
    if save_path is not None:
        _check_output_path(save_path, "--save")
    if game_obj.universe_from_start and not game_obj.retrograde_fits():
        return _solve_by_search(game_obj, plot_path, save_path, grundy, remoteness)
    solution, seconds = _solve(game_obj, bound, grundy=grundy, remoteness=remoteness)
    first_moves = _openings(game_obj, solution) if game_obj.universe_from_start else None
    rows = _opening_rows(first_moves) if first_moves is not None else []
    _print_summary(solution, f"{game_obj!r} solved {_where(game_obj, bound)}", [*rows, ("time", f"{seconds:.2f} s")])
    if save_path is not None:
        solution.save(save_path)
        _say(f"saved the solution to {save_path}")
    if plot_path is not None:
        _plot(solution, plot_path, first_moves)


@cli.command("show")
@click.argument("file", metavar="FILE")
@click.option("--plot", "plot_path", metavar="FILE.png", default=None,
              help="Draw the P positions of a 1-D or 2-D game, or a board game's first moves, into this image.")
def show_command(file, plot_path):
    """Print the summary of a solution saved with `solve --save`."""
    from solvers import Solution

    solution = Solution.load(file)
    game = solution.game
    if plot_path is not None:
        _check_plot(plot_path, game)
    where = f"at bound {solution.bound}" if solution.bound is not None else "over its reachable positions"
    first_moves = None
    if game.universe_from_start:
        where = _where(game, solution.bound)
        first_moves = _openings(game, solution)
    rows = _opening_rows(first_moves) if first_moves is not None else []
    _print_summary(solution, f"{game!r} {where}", [*rows, ("file", file)])
    if plot_path is not None:
        _plot(solution, plot_path, first_moves)


# -- entry point -----------------------------------------------------------------------------
def _one_line(message: str) -> str:
    return " ".join(str(message).split())


def _error(message: str) -> None:
    click.echo(f"discover: {_one_line(message)}", err=True)


def main(argv: list[str] | None = None) -> int:
    """Run the ``discover`` command; return the exit status (0 ok, 2 bad input, 130 interrupted).

    Examples
    --------
    >>> main(["--version"])  # doctest: +ELLIPSIS
    discover ...
    0
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        args = ["--help"]
    try:
        result = cli.main(args=args, prog_name="discover", standalone_mode=False)
    except click.exceptions.Abort:
        _error("interrupted")
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
            message = "out of memory: use a smaller bound"
        _error(message)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    return result if isinstance(result, int) else 0


from discover import cli_alphazero, cli_hqn, cli_learn, cli_rule  # noqa: E402,F401  (register the rule, report, learner, hqn, alphazero commands)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
