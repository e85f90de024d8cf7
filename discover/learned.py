"""Tables from learners: learn a game, threshold the value table, hand it to the engines.

This is seed 002's proposal and seed 000's dataset: a position whose learned value is at
most ``-confidence`` is labelled P, at least ``confidence`` N, and anything in between is
left out; each label is weighted by how sure the table is (``|value|``).  Rules fitted on
such a table are verified against the solver exactly like rules from exact tables.
"""

from __future__ import annotations

import numpy as np

from discover.table import Table, build_table

__all__ = ["learn_bound", "learn_episodes", "learn", "table_from_values"]

SOURCES = ("q", "qt", "bayes", "alphazero")

#: AlphaZero's default budget for discovery: small, random starts over the whole universe
ALPHAZERO_FIT = {"iterations": 60, "games_per_iteration": 64, "simulations": 30, "eval_every": 10, "eval_games": 50}


def learn_bound(game) -> int:
    """Default learning bound: the seeds' sizes (a 12 x 12 board, three heaps of at most 7).

    Examples
    --------
    >>> from games import make_game
    >>> [learn_bound(make_game(*g)) for g in [("subtraction",), ("wythoff",), ("nim",)]]
    [30, 12, 7]
    """
    if game.dims == 1:
        return 30
    if game.dims == 2:
        return 12
    return int(max(2, min(7, round(4096 ** (1 / game.dims)) - 1)))


def learn_episodes(edges: int) -> int:
    """Default number of games: 50 per move of the universe, at least 20,000."""
    return int(max(20_000, 50 * edges))


def learn(game, source: str = "q", bound: int | None = None, episodes: int | None = None, seed: int = 0,
          progress: bool = False):
    """Fit the learner named ``source`` in self-play on ``game.universe(bound)``; return it fitted.

    ``"alphazero"`` plays ``ALPHAZERO_FIT`` from random starts (``episodes``, when given, is its
    number of self-play games, rounded up to whole iterations); its value table is the value head's.

    Examples
    --------
    >>> from games import make_game
    >>> learner = learn(make_game("nim", heaps=2), "q", bound=3, episodes=3000)
    >>> learner.value_table_.partition(0.5).reshape(4, 4).diagonal().tolist()
    [-1, -1, -1, -1]
    """
    from learners import Arena
    from learners.registry import make_learner

    if source not in SOURCES:
        raise ValueError(f"unknown learner {source!r}: use one of {', '.join(SOURCES)}")
    bound = learn_bound(game) if bound is None else bound
    arena = Arena(game, bound)
    if source == "alphazero":
        from learners.alphazero.learner import AlphaZeroLearner

        fit = dict(ALPHAZERO_FIT)
        if episodes is not None:
            fit["iterations"] = max(1, -(-int(episodes) // fit["games_per_iteration"]))
        return AlphaZeroLearner(random_state=seed).fit(game, bound=bound, start="random", solution=arena.solution,
                                                       progress=progress, **fit)
    episodes = learn_episodes(arena.edges) if episodes is None else episodes
    learner = make_learner(source, seed)
    return learner.fit(game, bound=bound, episodes=episodes, opponent="self", solution=arena.solution,
                       progress=progress)


def table_from_values(value_table, confidence: float = 0.3) -> Table:
    """The labelled table of the confident positions of a ``ValueTable``.

    Examples
    --------
    >>> from games import make_game
    >>> table = table_from_values(learn(make_game("nim", heaps=2), "q", bound=3, episodes=3000).value_table_)
    >>> len(table), int(table.is_p.sum()), table.provenance["source"]
    (16, 4, 'QLearner self-play, 3000 episodes, confidence 0.3')
    """
    labels = value_table.partition(confidence)
    keep = np.flatnonzero(labels != 0)
    if keep.size == 0:
        raise ValueError(f"no position of the value table is learned with confidence {confidence}: "
                         f"learn longer or lower the confidence")
    meta = value_table.meta
    opponent = meta.get("opponent", "self")
    how = "self-play" if opponent == "self" else f"play against {opponent}"
    source = f"{meta.get('learner', 'learner')} {how}, {meta.get('episodes', '?')} episodes, confidence {confidence}"
    provenance = {"game": value_table.game.spec(), "bound": value_table.bound, "source": source,
                  "learner": meta, "confidence": confidence, "labelled": int(keep.size),
                  "positions": int(labels.size)}
    positions = value_table.universe.positions(keep)
    weights = np.abs(value_table.value[keep])
    return build_table(value_table.game, positions, labels[keep] == -1, None, weights, provenance)
