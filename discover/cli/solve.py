"""The exact-solution commands: ``games`` (the families), ``solve`` (solve and summarise), ``show`` (a saved solution).

    discover games
    discover solve nim heaps=3 --bound 20 --grundy
    discover solve wythoff --bound 1000 --plot w.png --save w.npz
    discover solve hex n=5 --plot hex5.png
    discover show w.npz
"""

from __future__ import annotations

import inspect
import time

import click

from discover.cli.common import BOUND, check_output_file, game_arguments, game_from_words, say, spinner

__all__ = ["games_command", "solve_command", "show_command"]


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


def say(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    Console().print(Text(message))


def _where(game, bound) -> str:
    """'at bound N', or for a board game (whose universe ignores the bound) where its positions come from."""
    return "over the positions reachable from the empty board" if game.universe_from_start else f"at bound {bound}"


def _solve(game, bound: int, grundy: bool = False, remoteness: bool = False):
    from solvers import solve

    start = time.perf_counter()
    with spinner(f"solving {game!r} {_where(game, bound)} ..."):
        solution = solve(game, bound=bound, grundy=grundy, remoteness=remoteness)
    return solution, time.perf_counter() - start


def _openings(game, solution=None):
    """A board game's first moves and their values (``solution`` or, without one, the search)."""
    from solvers.openings import openings

    with spinner(f"solving the first moves of {game!r} ...") as say:
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
    from discover.render.figure import check_figure_path
    from discover.render.solution import check_plot_path

    check_figure_path(path) if game.universe_from_start else check_plot_path(path, game.dims)


def _plot(solution, path: str, first_moves=None) -> None:
    """Draw a solution: the P positions, or for a board game the values of its first moves."""
    with spinner(f"drawing {path} ..."):
        if first_moves is not None:
            from discover.render.boards import plot_openings

            plot_openings(first_moves, path)
        else:
            from discover.render.solution import plot_p_positions

            plot_p_positions(solution, path)
    say(f"drew the {'first moves' if first_moves is not None else 'P positions'} in {path}")


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


@click.command("games")
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


@click.command("solve")
@game_arguments
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

    game_obj = game_from_words(game, params)
    bound = bound or default_bound(game_obj)
    if plot_path is not None:
        _check_plot(plot_path, game_obj)
    if save_path is not None:
        check_output_file(save_path, "--save")
    if game_obj.universe_from_start and not game_obj.retrograde_fits():
        return _solve_by_search(game_obj, plot_path, save_path, grundy, remoteness)
    solution, seconds = _solve(game_obj, bound, grundy=grundy, remoteness=remoteness)
    first_moves = _openings(game_obj, solution) if game_obj.universe_from_start else None
    rows = _opening_rows(first_moves) if first_moves is not None else []
    _print_summary(solution, f"{game_obj!r} solved {_where(game_obj, bound)}", [*rows, ("time", f"{seconds:.2f} s")])
    if save_path is not None:
        solution.save(save_path)
        say(f"saved the solution to {save_path}")
    if plot_path is not None:
        _plot(solution, plot_path, first_moves)


@click.command("show")
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
