"""Round-robin tournaments: every agent against every other, as first and as second player.

Every pairing plays the same random sample of starts (positions with a move), in the same
order, so a perfect player's score as first player is the share of N positions among them.
"""

from __future__ import annotations

import numpy as np

from learners.play import duel

__all__ = ["round_robin", "table_rows", "format_table"]


def round_robin(arena, agents: dict, games: int = 1000, seed: int = 0) -> dict:
    """Win rates of every ordered pair of ``agents`` (name -> Agent or weight array).

    Returns ``{"first": {a: {b: rate}}, "second": {a: {b: rate}}, "n_share": float}``:
    ``first[a][b]`` is the share of games ``a`` wins moving first against ``b``,
    ``second[a][b]`` moving second; ``n_share`` the share of starts a perfect first player wins.

    Examples
    --------
    >>> from games import make_game
    >>> from learners import Arena, OptimalAgent, RandomAgent
    >>> arena = Arena(make_game("nim", heaps=2), bound=5)
    >>> table = round_robin(arena, {"optimal": OptimalAgent(arena.solution), "random": RandomAgent()}, 400)
    >>> table["first"]["optimal"]["random"] >= table["n_share"], table["second"]["optimal"]["random"] > 0.5
    (True, True)
    """
    names = list(agents)
    weights = {n: np.asarray(a.edge_weights(arena) if hasattr(a, "edge_weights") else a, dtype=float)
               for n, a in agents.items()}
    live = arena.live()
    starts = live[np.random.default_rng(seed).integers(live.size, size=games)]
    first = {a: {} for a in names}
    second = {a: {} for a in names}
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            result = duel(arena, weights[a], weights[b], games, seed, starts, stream=i * len(names) + j, in_order=True)
            first[a][b] = result["wins"] / games
            second[b][a] = result["losses"] / games
    n_share = float(np.mean(arena.outcome[starts] == 1))
    return {"first": first, "second": second, "n_share": n_share}


def table_rows(table: dict) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of a tournament table: a row per agent, its ``first / second`` win rate against each
    opponent.

    Examples
    --------
    >>> table_rows({"first": {"a": {"a": 0.5}}, "second": {"a": {"a": 0.25}}, "n_share": 0.9})
    (['agent (win rate as first / second)', 'a'], [['a', '0.50 / 0.25']])
    """
    _check_table(table)
    rows = list(table["first"])
    columns = list(table["first"][rows[0]])
    return (["agent (win rate as first / second)", *columns],
            [[a, *(f"{table['first'][a][b]:.2f} / {table['second'][a][b]:.2f}" for b in columns)] for a in rows])


def format_table(table: dict) -> str:
    """The tournament table in Markdown (``table_rows``).

    Examples
    --------
    >>> print(format_table({"first": {"a": {"a": 0.5}}, "second": {"a": {"a": 0.25}}, "n_share": 0.9}))
    | agent (win rate as first / second) | a |
    |---|---|
    | a | 0.50 / 0.25 |
    """
    headers, rows = table_rows(table)
    lines = ["| " + " | ".join(headers) + " |", "|---" * len(headers) + "|"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def _check_table(table) -> None:
    """A ``ValueError`` naming what is missing when ``table`` is not a tournament table of ``round_robin``."""
    first = table.get("first") if isinstance(table, dict) else None
    second = table.get("second") if isinstance(table, dict) else None
    if not isinstance(first, dict) or not isinstance(second, dict) or not first:
        raise ValueError("a tournament table holds 'first' and 'second': agent -> opponent -> win rate")
    columns = first[next(iter(first))]
    for seat, rates in (("first", first), ("second", second)):
        for agent in first:
            row = rates.get(agent)
            if not isinstance(row, dict) or list(row) != list(columns):
                raise ValueError(f"the tournament table's {seat!r} row of {agent!r} does not list the opponents "
                                 f"{', '.join(map(str, columns))}")
            bad = [b for b, x in row.items() if isinstance(x, bool) or not isinstance(x, (int, float))
                   or not 0 <= x <= 1]
            if bad:
                raise ValueError(f"the tournament table's {seat!r} win rate of {agent!r} against {bad[0]!r} is not "
                                 f"a number in [0, 1]: {row[bad[0]]!r}")
