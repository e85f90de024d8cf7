"""What a solved OpenSpiel game (``games.openspiel``) says in OpenSpiel's terms: the start's value, each first
move's value under OpenSpiel's action names, remoteness in OpenSpiel moves, and how many states win, lose or draw.

The solver counts a forced pass (the same player moving again) as a move; ``move_remoteness`` counts OpenSpiel's
moves only: the winner hurries, the loser delays, a pass costs nothing.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from games.openspiel import END, PASS, STATE

__all__ = ["move_remoteness", "openspiel_record", "values_by_text", "action_values"]

WINNER = {1: "the first player wins", -1: "the second player wins", 0: "a draw"}
ALONE = {1: "a win (a positive return)", -1: "a loss (a negative return)", 0: "a draw (a return of 0)"}


@nb.njit(cache=True, nogil=True)
def _remoteness(indptr, targets, actions, outcome):
    """One pass up the ids (every option has a smaller id): min over winning options, max over all when lost."""
    n = indptr.size - 1
    out = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        if indptr[i] == indptr[i + 1]:
            out[i] = 0 if outcome[i] != 0 else -1
            continue
        if outcome[i] == 0:
            continue
        best = -1
        for j in range(indptr[i], indptr[i + 1]):
            t = targets[j]
            if outcome[t] != -outcome[i]:
                continue  # a winner's options that lose for the opponent; a loser's options (all win for them)
            r = out[t] + (1 if actions[j] >= 0 else 0)
            if best < 0 or (r < best if outcome[i] == 1 else r > best):
                best = r
        out[i] = best
    return out


def move_remoteness(game, outcome) -> np.ndarray:
    """Remoteness of every position of an OpenSpiel game in OpenSpiel moves (a forced pass costs none); -1 for
    draws.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> game = make_game("openspiel:nim(pile_sizes=1;2,is_misere=false)")
    >>> int(move_remoteness(game, solve(game).outcome_table)[game.start[0]])  # take 1 from the 2, then 1 and 1
    3
    """
    return _remoteness(game.indptr, game.targets, game.action_table, np.asarray(outcome, dtype=np.int8))


def openspiel_record(game, solution) -> dict:
    """The summary of a solved OpenSpiel game as JSON-ready data.

    Returns
    -------
    dict
        ``start`` (outcome for the first player: +1, -1, 0), ``winner`` in words, ``remoteness`` of the start,
        ``first_moves`` (each with OpenSpiel's ``action``, its name ``move``, its ``value`` for the player who
        makes it and the ``remoteness`` after it), ``states`` (OpenSpiel states with a player to move) with their
        ``wins``, ``losses`` and ``draws`` for that player, ``terminal_states``, ``passes`` (forced passes) and
        ``positions`` (all three kinds).

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> game = make_game("openspiel:tic_tac_toe")
    >>> record = openspiel_record(game, solve(game))
    >>> record["winner"], record["states"], record["first_moves"][4]
    ('a draw', 4520, {'action': 4, 'move': 'x(1,1)', 'value': 0, 'remoteness': -1})
    """
    outcome = solution.outcome_table
    remoteness = move_remoteness(game, outcome)
    start = game.start[0]
    mover = int(game.players[start]) if game.kinds[start] != END else 0
    value = int(outcome[start]) * (1 if mover == 0 else -1)  # for the first player
    first = []
    for target, action, name in zip(game.moves(game.start), game.actions(game.start), game.action_strings(game.start)):
        t = target[0]
        first.append({"action": int(action), "move": name, "value": -int(outcome[t]),
                      "remoteness": int(remoteness[t]) if remoteness[t] < 0 else int(remoteness[t]) + 1})
    states = game.kinds == STATE
    return {"openspiel_game": game.openspiel_name, "start": value,
            "winner": (WINNER if game.spiel.num_players() == 2 else ALONE)[value],
            "remoteness": int(remoteness[start]), "first_moves": first, "states": int(states.sum()),
            "wins": int((outcome[states] == 1).sum()), "losses": int((outcome[states] == -1).sum()),
            "draws": int((outcome[states] == 0).sum()), "terminal_states": int((game.kinds == END).sum()),
            "passes": int((game.kinds == PASS).sum()), "positions": int(outcome.size)}


def values_by_text(game, outcome) -> dict:
    """The value for player 0 (+1, -1, 0) of every OpenSpiel state of a solved game, keyed by the state's text as
    OpenSpiel's ``value_iteration`` and ``MinimaxSolver`` key their tables; None where states of different
    values share a text (those tables cannot tell them apart).

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> game = make_game("openspiel:nim(pile_sizes=1;2)")
    >>> values_by_text(game, solve(game).outcome_table)["(0): 1 2"]  # misère: the first player wins
    1
    """
    values: dict = {}
    for i in np.flatnonzero(game.kinds != PASS):
        key = str(game.state((int(i),)))
        value = int(outcome[i]) * (1 if game.players[i] == 0 else -1)
        values[key] = value if values.get(key, value) == value else None
    return values


def action_values(solution, state) -> dict[int, int]:
    """The value of each legal action of an OpenSpiel state (a state of ``solution.game``) for the player who
    takes it: +1 wins, -1 loses, 0 draws; an optimal agent picks an action of the largest value.

    Examples
    --------
    >>> from games import make_game
    >>> from solvers import solve
    >>> game = make_game("openspiel:nim(pile_sizes=1;2,is_misere=false)")
    >>> action_values(solve(game), game.spiel.new_initial_state())  # take 1 from the pile of 2: (1, 1)
    {0: -1, 1: 1, 3: -1}
    """
    game = solution.game
    position = game.position_of(state)
    options = np.asarray(game.moves(position), dtype=np.int64).reshape(-1)
    return dict(zip(game.actions(position), (-solution.outcome_table[options]).astype(int).tolist()))
