"""The exact-solution commands: ``games`` (the families), ``solve`` (solve and summarise), ``show`` (a saved solution).

    discover games [--json]
    discover solve nim heaps=3 --bound 20 --grundy
    discover solve wythoff --bound 1000 --plot w.png --save w.npz --csv w.csv
    discover solve hex n=5 --plot hex5.png
    discover solve openspiel:tic_tac_toe
    discover show w.npz [--check] [--json]

Each summary is built once as a record: ``--json`` prints it, otherwise it is shown as rows (boards of a
board game drawn as boards, not as bitboard integers).
"""

from __future__ import annotations

import inspect
import json
import time

import click

from discover.app.cli.common import (BOUND, INPUT_FILE, OUTPUT_FILE, check_output_file, game_arguments, game_from_words,
                                 print_rows, say, spinner)

__all__ = ["games_command", "solve_command", "show_command"]

FIRST_P = 12  # P positions a summary lists
BOARDS_SHOWN = 3  # P positions of a board game drawn in a summary


# -- records --------------------------------------------------------------------------------
def _solution_record(solution) -> dict:
    """Counts, the first P positions and, when present, Grundy values and remoteness, as JSON-ready data."""
    import numpy as np

    table, universe = solution.outcome_table, solution.universe
    first = universe.positions(np.flatnonzero(table == -1)[:FIRST_P])
    record = {"positions": int(table.size), "universe": _universe_words(solution),
              "wins": int((table == 1).sum()), "losses": int((table == -1).sum()), "draws": int((table == 0).sum()),
              "first_p_positions": [[int(x) for x in p] for p in first]}
    if solution.grundy_table is not None:
        g = solution.grundy_table
        record["largest_grundy"] = int(g.max()) if g.size else None
        if universe.dims == 1 and universe.is_box:
            record["grundy_from_0"] = [int(v) for v in g[:40]]
    if solution.remoteness_table is not None:
        r = solution.remoteness_table
        finite = np.flatnonzero(r >= 0)
        if finite.size:
            longest = finite[np.argmax(r[finite])]
            record["longest_game"] = {"moves": int(r[longest]),
                                      "from": [int(x) for x in universe.positions(np.array([longest]))[0]]}
    return record


def _universe_words(solution) -> str:
    universe = solution.universe
    if solution.game.universe_from_start:
        return "every position reachable from the empty board"
    if not universe.is_box:
        return f"the {universe.size:,} positions of the game's own universe"
    limits = universe.limits.tolist()
    return f"every position with coordinates in [0, {limits[0]}]" if len(set(limits)) == 1 else \
        f"box with limits {limits}"


def _openings_record(result) -> dict:
    import numpy as np

    record = {"empty_board": result.start_value, "winner": result.winner, "first_moves": result.moves,
              "winning_first_moves": result.count(1), "drawing_first_moves": result.count(0),
              "unsettled_first_moves": result.open_moves,
              "board": result.text(), "source": result.source, "seconds": round(result.seconds, 3),
              **result.cells_record()}
    if result.nodes is not None:  # the Hex solver's work per opening (a twin found in the table: 0 positions)
        n = result.nodes.shape[0]
        record["proofs"] = [{"row": r, "column": c, "value": None if np.isnan(result.values[0, r, c]) else
                             int(result.values[0, r, c]),
                             "positions": int(result.nodes[r, c]), "cpu_seconds": round(float(result.cpu[r, c]), 3)}
                            for r in range(n) for c in range(n) if result.nodes[r, c]]
    record.update(_published(result))
    return record


def _published(result) -> dict:
    """How the Hex openings compare, cell by cell, with the published ones (``solvers.hex_published``)."""
    import numpy as np

    from solvers.hex_published import PUBLISHED, published_openings

    game = result.game
    if getattr(game, "name", "") != "hex" or game.n not in PUBLISHED:
        return {}
    known, settled = published_openings(game.n), np.isfinite(result.values[0])
    differ = [[int(r), int(c)] for r, c in zip(*((settled & (known != result.values[0])).nonzero()))]
    return {"published_agree": int(settled.sum()) - len(differ), "published_differ": differ}


def _proof_rows(proofs: list) -> str:
    return "\n".join(f"({p['row']}, {p['column']}) {'?WL'[p['value'] or 0]}  {p['positions']:>9,} positions  "
                     f"{p['cpu_seconds']:8.2f} s CPU" for p in proofs)


# -- rows -----------------------------------------------------------------------------------
def _rows(record: dict, game) -> list[tuple[str, str]]:
    rows = []
    summary = record.get("summary")
    if summary is not None:
        n = summary["positions"]

        def share(count: int) -> str:
            return f"{count:,}  ({100.0 * count / n:.1f}%)" if n else "0"

        rows += [("positions", f"{n:,}"), ("universe", summary["universe"]), ("wins (N)", share(summary["wins"])),
                 ("losses (P)", share(summary["losses"])), ("draws", share(summary["draws"])),
                 ("first P positions", _first_p(summary, game))]
        if "largest_grundy" in summary:
            rows.append(("largest Grundy value", "-" if summary["largest_grundy"] is None else
                         f"{summary['largest_grundy']:,}"))
        if "grundy_from_0" in summary:
            head = summary["grundy_from_0"]
            more = " ..." if summary["positions"] > len(head) else ""
            rows.append(("Grundy values from 0", " ".join(map(str, head)) + more))
        if "longest_game" in summary:
            longest = summary["longest_game"]
            rows.append(("longest game (remoteness)", f"{longest['moves']} moves, from {_position(longest['from'])}"))
    openings = record.get("openings")
    if openings is not None:
        value, draws = openings["empty_board"], openings["drawing_first_moves"]
        rows += [("empty board", f"{openings['winner']} (outcome {value:+d} for the player to move)" if value
                  else openings["winner"]),
                 ("first moves", f"{openings['winning_first_moves']} of {openings['first_moves']} win"
                                 + (f", {draws} draw" if draws else "")
                                 + (f", {openings['unsettled_first_moves']} unsettled within the budget (?)"
                                    if openings.get("unsettled_first_moves") else "") + " (W win, L lose, D draw)"),
                 ("", openings["board"])]
        if "published_agree" in openings:
            differ = openings["published_differ"]
            rows.append(("published results", f"agree on {openings['published_agree']} of "
                         f"{openings['published_agree'] + len(differ)} first moves"
                         + (f"; differ at (row, column) {', '.join(map(str, map(tuple, differ)))}" if differ else "")))
        if "proofs" in openings:
            rows.append(("proofs (row, column)", _proof_rows(openings["proofs"])))
    if "seconds" in record:
        rows.append(("time", f"{record['seconds']:.2f} s"))
    if "file" in record:
        rows.append(("file", record["file"]))
    if "checked" in record:
        rows.append(("checked", record["checked"]))
    return rows


def _position(p) -> str:
    return str(p[0]) if len(p) == 1 else "(" + ", ".join(str(x) for x in p) + ")"


def _first_p(summary: dict, game) -> str:
    first = summary["first_p_positions"]
    if not first:
        return "none"
    if game.universe_from_start:  # bitboards mean nothing to a reader: draw the first few boards side by side
        boards = [game.render(p).split("\n") for p in first[:BOARDS_SHOWN]]
        width = max(len(line) for board in boards for line in board)
        return "\n".join("   ".join(line.ljust(width) for line in lines).rstrip() for lines in zip(*boards))
    more = ", ..." if summary["losses"] > len(first) else ""
    return ", ".join(_position(p) for p in first) + more


def _openspiel_rows(record: dict) -> list[tuple[str, str]]:
    """An OpenSpiel game's summary: the start, each first move under OpenSpiel's name, the counts."""
    spiel = record["openspiel"]
    words = {1: "win", -1: "loss", 0: "draw"}

    def share(count: int) -> str:
        return f"{count:,}  ({100.0 * count / spiel['states']:.1f}%)" if spiel["states"] else "0"

    start = spiel["winner"] + (f" in {spiel['remoteness']} moves" if spiel["start"] else "")
    moves = "\n".join(f"{m['move']:>12}  {words[m['value']]}" + (f" in {m['remoteness']}" if m["value"] else "")
                      for m in spiel["first_moves"]) or "none (the start is terminal)"
    rows = [("start", start), ("first moves", moves), ("states (a player to move)", f"{spiel['states']:,}"),
            ("wins", share(spiel["wins"])), ("losses", share(spiel["losses"])), ("draws", share(spiel["draws"])),
            ("terminal states", f"{spiel['terminal_states']:,}"),
            ("forced passes", f"{spiel['passes']:,} (a player moving again)")]
    return rows + [("time" if key == "seconds" else key, f"{record[key]:.2f} s" if key == "seconds" else record[key])
                   for key in ("seconds", "file", "checked") if key in record]


def _show(record: dict, game, title: str, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({"game": game.spec(), "title": title, **record}))
    else:
        print_rows(title, _openspiel_rows(record) if "openspiel" in record else _rows(record, game))


# -- steps ----------------------------------------------------------------------------------
def _where(game, bound) -> str:
    """'at bound N', or for a board game (whose universe ignores the bound) where its positions come from."""
    return "over the positions reachable from the empty board" if game.universe_from_start else f"at bound {bound}"


def _solve(game, bound: int, grundy: bool = False, remoteness: bool = False):
    from solvers import solve

    start = time.perf_counter()
    with spinner(f"solving {game!r} {_where(game, bound)}"):
        solution = solve(game, bound=bound, grundy=grundy, remoteness=remoteness)
    return solution, time.perf_counter() - start


def _openings(game, solution=None):
    """A board game's first moves and their values (``solution`` or, without one, the search)."""
    from solvers.openings import openings

    with spinner(f"solving the first moves of {game!r}") as words:
        return openings(game, solution, lambda done, total: words(f"{game!r}: {done} of {total} proofs done"))


def _check_plot(path: str, game) -> None:
    from discover.app.render.figure import check_figure_path
    from discover.app.render.solution import check_plot_path

    check_figure_path(path) if game.universe_from_start else check_plot_path(path, game.dims)


def _plot(solution, path: str, first_moves=None) -> None:
    """Draw a solution: the P positions, or for a board game the values of its first moves."""
    with spinner(f"drawing {path}"):
        if first_moves is not None:
            from discover.app.render.boards import plot_openings

            plot_openings(first_moves, path)
        else:
            from discover.app.render.solution import plot_p_positions

            plot_p_positions(solution, path)


def _outputs(solution, save_path, csv_path, plot_path, first_moves) -> list[str]:
    """Write the files asked for; what was written, in words."""
    written = []
    if save_path is not None:
        solution.save(save_path)
        written.append(f"saved the solution to {save_path}")
    if csv_path is not None:
        solution.write_csv(csv_path)
        written.append(f"wrote one row per position to {csv_path}")
    if plot_path is not None:
        _plot(solution, plot_path, first_moves)
        written.append(f"drew the {'first moves' if first_moves is not None else 'P positions'} in {plot_path}")
    return written


def _output_options(func):
    options = [
        click.option("--plot", "plot_path", type=OUTPUT_FILE, metavar="FILE.png", default=None,
                     help="Draw the P positions of a 1-D or 2-D game, or a board game's first moves, into this "
                          "image (.png, .pdf, .svg)."),
        click.option("--csv", "csv_path", type=OUTPUT_FILE, metavar="FILE.csv", default=None,
                     help="Write one row per position: its coordinates, outcome (+1 win, -1 loss, 0 draw for the "
                          "player to move), outcome_class (P, N or D), and Grundy value and remoteness when "
                          "computed (Solution.write_csv)."),
        click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON record."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


# -- commands -------------------------------------------------------------------------------
@click.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print the families as one JSON record.")
def games_command(as_json):
    """List every game family with its parameters (types and defaults)."""
    from games import GAMES, family_signature

    families = [{"name": name, "description": _first_sentence(GAMES[name].__doc__),
                 "parameters": [{"name": p, "type": _format_type(kind),
                                 "default": None if default is inspect.Parameter.empty else _format_default(default)}
                                for p, kind, default in family_signature(name)]} for name in GAMES]
    if as_json:
        click.echo(json.dumps({"games": families}))
        return
    print_rows("game families: parameters (name: type = default) and what the game is",
               [(f["name"], "; ".join(f"{p['name']}: {p['type']}" + (f" = {p['default']}" if p["default"] is not None
                                                                     else "") for p in f["parameters"])
                 + ("\n" if f["parameters"] else "") + f["description"]) for f in families])
    say("Parameters go after the game as name=value words: discover solve nim heaps=4 misere=true --bound 10")
    say("OpenSpiel's sequential, deterministic, perfect-information games (when installed) go by openspiel:NAME: "
        "discover solve 'openspiel:nim(pile_sizes=1;3;5;7)'")


@click.command("solve")
@game_arguments
@click.option("--bound", type=BOUND, default=None,
              help="Largest coordinate value of the universe (default: 30 for 1-2 coordinates, smaller above).")
@click.option("--save", "save_path", type=OUTPUT_FILE, metavar="FILE", default=None, help="Write the solution to this file (see `show`).")
@click.option("--grundy", is_flag=True, help="Also compute Grundy values (impartial games, normal play).")
@click.option("--remoteness", is_flag=True, help="Also compute remoteness (moves to the end under optimal play).")
@_output_options
def solve_command(game, params, bound, save_path, grundy, remoteness, plot_path, csv_path, as_json):
    """Solve GAME exactly over a bounded universe and print a summary.

    A board game is solved over the positions reachable from the empty board, or by proof-number
    search from the empty board when those are too many; the summary shows each first move's value.
    An OpenSpiel game (openspiel:NAME, with its parameters in parentheses or as NAME=VALUE words) is
    solved over its reachable states, each first move named as OpenSpiel names it.

    \b
    discover solve wythoff --bound 1000 --plot w.png
    discover solve hex n=5 --plot hex5.png
    discover solve openspiel:tic_tac_toe
    discover solve 'openspiel:dots_and_boxes(num_rows=2,num_cols=2)' --json
    discover solve subtraction subtract=1,3,4 --bound 100 --grundy --save s.npz --csv s.csv
    """
    from discover.bounds import default_bound

    game_obj = game_from_words(game, params)
    if _is_openspiel(game_obj):
        _solve_openspiel(game_obj, bound, grundy, save_path, csv_path, plot_path, as_json)
        return
    if bound is not None and game_obj.universe_from_start:
        raise ValueError(f"--bound sets the box of a game on integer coordinates; {game_obj!r} is solved over the "
                         "positions reachable from the empty board: leave out --bound")
    bound = bound or default_bound(game_obj)
    if plot_path is not None:
        _check_plot(plot_path, game_obj)
    for path, what in ((save_path, "--save"), (csv_path, "--csv")):
        if path is not None:
            check_output_file(path, what)
    if game_obj.universe_from_start and not game_obj.retrograde_fits():
        for flag, asked in (("--save", save_path), ("--csv", csv_path), ("--grundy", grundy),
                            ("--remoteness", remoteness)):
            if asked:
                raise ValueError(f"{flag} needs the retrograde over every reachable position, and {game_obj!r} is "
                                 f"solved by search from the empty board only: leave out {flag}, or use a smaller "
                                 "board")
        result = _openings(game_obj)
        record = {"openings": _openings_record(result), "seconds": round(result.seconds, 3)}
        _show(record, game_obj, f"{game_obj!r} solved from the empty board by {result.source.split(',')[0]}", as_json)
        if plot_path is not None:
            _plot(None, plot_path, result)
            if not as_json:
                say(f"drew the first moves in {plot_path}")
        return
    solution, seconds = _solve(game_obj, bound, grundy=grundy, remoteness=remoteness)
    first_moves = _openings(game_obj, solution) if game_obj.universe_from_start else None
    record = {"summary": _solution_record(solution), "bound": solution.bound}
    if first_moves is not None:
        record["openings"] = _openings_record(first_moves)
    record["seconds"] = round(seconds, 3)
    _show(record, game_obj, f"{game_obj!r} solved {_where(game_obj, bound)}", as_json)
    for line in _outputs(solution, save_path, csv_path, plot_path, first_moves):
        if not as_json:
            say(line)


@click.command("show")
@click.argument("file", type=INPUT_FILE, metavar="FILE")
@click.option("--check", is_flag=True,
              help="Also solve the game again and compare every value (the time of the solve). Without it the "
                   "file is checked in time proportional to its size: checksum, tables, a sample of positions.")
@_output_options
def show_command(file, check, plot_path, csv_path, as_json):
    """Print the summary of a solution saved with `solve --save`."""
    from solvers import Solution

    solution = Solution.load(file, verify=check)
    game = solution.game
    if _is_openspiel(game):
        if plot_path is not None:
            raise ValueError(f"--plot draws this toolkit's games; {game!r} is an OpenSpiel game: leave out --plot")
        if csv_path is not None:
            check_output_file(csv_path, "--csv")
        _show_openspiel(solution, None, None, csv_path, as_json, file=file)
        return
    if plot_path is not None:
        _check_plot(plot_path, game)
    if csv_path is not None:
        check_output_file(csv_path, "--csv")
    first_moves = _openings(game, solution) if game.universe_from_start else None
    where = _where(game, solution.bound) if solution.bound is not None or game.universe_from_start else \
        "over its reachable positions"
    record = {"summary": _solution_record(solution), "bound": solution.bound, "file": file,
              "checked": solution.checked}
    if first_moves is not None:
        record["openings"] = _openings_record(first_moves)
    _show(record, game, f"{game!r} {where}", as_json)
    for line in _outputs(solution, None, csv_path, plot_path, first_moves):
        if not as_json:
            say(line)


# -- OpenSpiel games ------------------------------------------------------------------------
def _is_openspiel(game) -> bool:
    from games.openspiel import OpenSpielGame

    return isinstance(game, OpenSpielGame)


def _solve_openspiel(game, bound, grundy, save_path, csv_path, plot_path, as_json) -> None:
    """Solve an OpenSpiel game over its reachable states (with remoteness) and print its summary."""
    for flag, asked, why in (("--bound", bound is not None, "it is solved over its reachable states"),
                             ("--plot", plot_path is not None, "--plot draws this toolkit's games"),
                             ("--grundy", grundy, "Grundy values are for impartial games in normal play")):
        if asked:
            raise ValueError(f"{why}; {game!r} is an OpenSpiel game: leave out {flag}")
    for path, what in ((save_path, "--save"), (csv_path, "--csv")):
        if path is not None:
            check_output_file(path, what)
    solution, seconds = _solve(game, None, remoteness=True)
    _show_openspiel(solution, seconds, save_path, csv_path, as_json)


def _show_openspiel(solution, seconds, save_path, csv_path, as_json, file=None) -> None:
    from solvers.openspiel_summary import openspiel_record

    game = solution.game
    record = {"openspiel": openspiel_record(game, solution), "bound": None}
    if seconds is not None:
        record["seconds"] = round(seconds, 3)
    if file is not None:
        record.update(file=file, checked=solution.checked)
    _show(record, game, f"{game!r} solved over every reachable state", as_json)
    for line in _outputs(solution, save_path, csv_path, None, None):
        if not as_json:
            say(line)


# -- help texts -----------------------------------------------------------------------------
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
