"""Playing games between agents: one game, matches from many starting positions, and fast
duels over a whole arena in compiled code."""

from __future__ import annotations

import numpy as np

__all__ = ["play", "match", "duel", "MAX_PLIES"]

MAX_PLIES = 100_000  # a game still running after this many plies is a draw (every agent's play, discover's self-play)


def play(game, first, second, start, rng: np.random.Generator, max_moves: int = MAX_PLIES) -> int | None:
    """Play from ``start`` with ``first`` to move; return 0 if ``first`` wins, 1 if ``second``
    wins, None when ``max_moves`` pass (a draw in a game with cycles).

    A position with no move ends the game with its terminal value for the player to move
    (normal play: a loss; misere: a win; a drawn board: a draw, None).

    Examples
    --------
    >>> from games import make_game
    >>> from learners.agents import RandomAgent
    >>> play(make_game("nim", heaps=1), RandomAgent(), RandomAgent(), (0,), np.random.default_rng(0))
    1
    """
    agents = (first, second)
    position = tuple(int(x) for x in start)
    for turn in range(max_moves):
        mover = turn % 2
        if not game.moves(position):
            value = int(game.terminal_values([position])[0])  # for the player to move
            return None if value == 0 else (1 - mover if value < 0 else mover)
        position = tuple(agents[mover].move(game, position, rng))
    return None


def match(game, agent, opponent, starts, seed: int = 0) -> dict:
    """``agent`` moves first from every start against ``opponent``; counts of wins, losses, draws,
    and the first start it lost from."""
    rng = np.random.default_rng(seed)
    result = {"games": 0, "wins": 0, "losses": 0, "draws": 0, "first_loss": None}
    for start in starts:
        winner = play(game, agent, opponent, start, rng)
        result["games"] += 1
        if winner == 0:
            result["wins"] += 1
        elif winner == 1:
            result["losses"] += 1
            if result["first_loss"] is None:
                result["first_loss"] = tuple(int(x) for x in start)
        else:
            result["draws"] += 1
    return result


def duel(arena, first, second, games: int = 1000, seed: int = 0, starts=None, stream: int = 0,
         in_order: bool = False) -> dict:
    """``games`` games on an arena in compiled code, ``first`` to move from random starts.

    ``first`` and ``second`` are agents or weight-per-move arrays (``Agent.edge_weights``);
    ``starts`` is an array of position ids to draw from (default: every position with a
    move), drawn at random or, with ``in_order``, played in turn; ``stream`` picks an
    independent random stream of the same seed. Returns counts of wins, losses and draws of
    ``first``.

    Examples
    --------
    >>> from games import make_game
    >>> from learners.arena import Arena
    >>> from learners.agents import OptimalAgent, RandomAgent
    >>> arena = Arena(make_game("nim", heaps=3), bound=5)
    >>> n_starts = np.flatnonzero(arena.outcome == 1)
    >>> duel(arena, OptimalAgent(arena.solution), RandomAgent(), 500, starts=n_starts)["wins"]
    500
    """
    from learners.episodes import FIXED, HYPER, START_RANDOM, START_SWEEP, STATS, run_episodes
    from learners.rng import new_state

    weights = [np.asarray(a.edge_weights(arena) if hasattr(a, "edge_weights") else a, dtype=float)
               for a in (first, second)]
    pool = arena.live() if starts is None else np.asarray(starts, dtype=np.int64)
    result = {"games": 0, "wins": 0, "losses": 0, "draws": 0}
    if pool.size == 0 or games < 1:
        return result
    stats = np.zeros(len(STATS), dtype=np.int64)
    table = np.zeros((2, 0))
    mode = START_SWEEP if in_order else START_RANDOM
    run_episodes(arena.indptr, arena.targets, arena.terminal, arena.outcome, pool, mode, 0, int(games),
                 np.array([FIXED, FIXED]), np.zeros(2, dtype=np.bool_), np.zeros(2, dtype=np.int64), table, table,
                 weights[0], weights[1], np.zeros((2, len(HYPER))), True, int(min(arena.size + 1, 100_000)),
                 new_state(seed, stream), stats)
    result.update(games=int(games), wins=int(stats[2]), losses=int(stats[3]), draws=int(stats[4]))
    return result
