"""Self-play for verification: every game side by side, each ply one call of ``game.option_block``.

A player is a function ``choose(X, counts, options, rng) -> index`` picking, for each row of positions X,
one of its ``counts[r]`` options ``options[r, :counts[r]]`` (the block the game's numba kernel writes, or a
custom game's ``moves()`` for every row).
``hypothesis_player`` (a move into a position the rule calls P, else at random), ``strategy_player`` (the
strategy's move), ``optimal_player`` (into a position the solver calls P when there is one) and
``random_player`` mirror the agents of ``learners.agents``; ``play_batched`` plays them from many starts at
once, so a ply costs a few numpy operations whatever the number of games.  Over a small universe (``tabled``) the
rule's labels and the strategy's moves are computed once for every position and read by id at each ply (a
subtraction game's hundred-ply games then cost a lookup a ply).
"""

from __future__ import annotations

import numpy as np

from learners.play import MAX_PLIES

__all__ = ["play_batched", "hypothesis_player", "strategy_player", "optimal_player", "random_player", "tabled"]

TABLE_POSITIONS = 1 << 12  # a universe this small (one heap) gets its labels and moves computed once, read by id


def tabled(function, universe):
    """``function`` (of an (n, dims) array of positions, a result row per position) computed once on every
    position of ``universe`` and then read by id (computed for positions outside it); ``function`` itself when
    there is no universe or it has more than ``TABLE_POSITIONS`` positions.

    Examples
    --------
    >>> from games.universe import Universe
    >>> even = tabled(lambda X: X[:, 0] % 2 == 0, Universe.box(1, 9))
    >>> even(np.array([[4], [7], [12]])).tolist()
    [True, False, True]
    """
    if universe is None or universe.size > TABLE_POSITIONS:
        return function
    table = function(universe.positions())

    def read(X):
        ids = universe.index(X, strict=False)
        out = table[ids]
        outside = ids < 0
        if outside.any():
            out[outside] = function(X[outside])
        return out
    return read


def _valid(counts, options) -> np.ndarray:
    return np.arange(options.shape[1])[None, :] < counts[:, None]


def random_player(X, counts, options, rng) -> np.ndarray:
    return (rng.random(len(counts)) * counts).astype(np.int64)


def _first_or_random(good, counts, rng) -> np.ndarray:
    return np.where(good.any(axis=1), good.argmax(axis=1), random_player(None, counts, None, rng))


def hypothesis_player(is_p):
    """The first option ``is_p`` (a function of an (n, dims) array) calls P, else a random one."""
    def choose(X, counts, options, rng):
        valid = _valid(counts, options)
        good = np.zeros(valid.shape, dtype=bool)
        good[valid] = is_p(options[valid])
        return _first_or_random(good, counts, rng)
    return choose


def strategy_player(strategy, universe=None):
    """The strategy's move (``strategy.moves``) where it is one of the options, else a random one; the moves from
    every position of a small ``universe`` are computed once (``tabled``)."""
    moves = tabled(strategy.moves, universe)

    def choose(X, counts, options, rng):
        moved = np.asarray(moves(X))
        good = _valid(counts, options) & (moved >= 0).all(axis=1)[:, None]
        for k in range(moved.shape[1]):  # coordinate by coordinate: several times faster than .all(axis=2)
            good &= options[:, :, k] == moved[:, None, k]
        return _first_or_random(good, counts, rng)
    return choose


def optimal_player(solution):
    """A random option among those the solver calls P (a random one where there is none)."""
    def choose(X, counts, options, rng):
        valid = _valid(counts, options)
        good = np.zeros(valid.shape, dtype=bool)
        good[valid] = solution.outcome(options[valid]) == -1
        score = np.where(good, rng.random(good.shape), -1.0)
        return np.where(good.any(axis=1), score.argmax(axis=1), random_player(None, counts, None, rng))
    return choose


def play_batched(game, first, second, starts, seed: int = 0, option_block=None) -> dict:
    """``first`` moves first from every start against ``second``; counts of wins, losses and draws of
    ``first`` and the first start it lost from (as ``learners.play.match`` returns).  ``option_block`` (a function
    of an (n, dims) array of positions returning what ``game.option_block`` does, which it defaults to) gives each
    ply's options.

    Examples
    --------
    >>> from games import make_game
    >>> game = make_game("subtraction", subtract=(1, 2, 3))
    >>> four = hypothesis_player(lambda X: X[:, 0] % 4 == 0)
    >>> play_batched(game, four, random_player, [[5], [6], [7], [9]])["wins"]
    4
    """
    rng = np.random.default_rng(seed)
    option_block = option_block or game.option_block
    X = np.array(starts, dtype=np.int64).reshape(len(starts), game.dims)
    winner = np.full(len(X), -1)
    alive = np.arange(len(X))
    for ply in range(MAX_PLIES):
        if not alive.size:
            break
        here = X[alive]
        counts, options = option_block(here)
        mover = ply % 2  # 0: first
        stuck = counts == 0
        if stuck.any():
            ends = game.terminal_values(here[stuck])  # +1: the player to move wins
            winner[alive[stuck]] = np.where(ends > 0, mover, 1 - mover)
            alive, here, counts, options = alive[~stuck], here[~stuck], counts[~stuck], options[~stuck]
        if alive.size:
            pick = (first if mover == 0 else second)(here, counts, options, rng)
            X[alive] = options[np.arange(len(alive)), pick]
    lost = np.flatnonzero(winner == 1)
    return {"games": len(X), "wins": int((winner == 0).sum()), "losses": int(lost.size),
            "draws": int((winner == -1).sum()),
            "first_loss": tuple(int(x) for x in np.asarray(starts)[lost[0]]) if lost.size else None}
