"""Playing games between agents: one game, and matches from many starting positions."""

from __future__ import annotations

import numpy as np

__all__ = ["play", "match"]


def play(game, first, second, start, rng: np.random.Generator, max_moves: int = 10_000) -> int | None:
    """Play from ``start`` with ``first`` to move; return 0 if ``first`` wins, 1 if ``second``
    wins, None when ``max_moves`` pass (a draw in a game with cycles).

    The player with no move loses under normal play and wins under misere play.

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
            stuck_loses = game.terminal_outcome() == -1
            return 1 - mover if stuck_loses else mover
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
