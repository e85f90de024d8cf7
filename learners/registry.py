"""The one table of learners: every command, study, check and test reads its names from here.

Each entry is a learner class and the parameters of its preset. What a learner needs (a game it can
learn, a value table it leaves, opponents it takes, the budget of a fit) it declares itself
(``learners.base.Learner``), so a new learner touches its own file and one line here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from learners.alphazero.learner import AlphaZeroLearner
from learners.exploration.learner import BoardQLearner
from learners.hqn.learner import HQN
from learners.hqn.qnetwork import QNetworkLearner
from learners.tabular.bayes import BayesLearner
from learners.tabular.q import QLearner

__all__ = ["Entry", "LEARNERS", "make_learner", "learner_names", "default_bound", "fit_learner"]


@dataclass(frozen=True)
class Entry:
    """A registered learner: its class, the parameters of the preset, and one line for help texts."""

    cls: type
    summary: str
    params: dict = field(default_factory=dict)


LEARNERS = {
    "q": Entry(QLearner, "Q-learning, epsilon-greedy (the Nim thesis's learning rate 0.45)"),
    "qt": Entry(QLearner, "Q-learning with exploration decaying as 0.5 exp(-1e-4 t) (the Nim study's Q_t)",
                {"epsilon": 0.5, "eta": 1e-4}),
    "bayes": Entry(BayesLearner, "the Nim study's quasi-Bayesian agent (discount 0.9)"),
    "qnetwork": Entry(QNetworkLearner, "the HQN paper's Q-network baseline (games whose moves are lines)"),
    "hqn": Entry(HQN, "the HQN paper's Hierarchical Q-Network"),
    "alphazero": Entry(AlphaZeroLearner, "AlphaZero: PUCT search with a policy-value network, in self-play"),
    "board_q": Entry(BoardQLearner, "the Hex exploration paper's Q-learning of win probabilities on board games "
                                    "(its variants: learners.exploration.VARIANTS)"),
}


def make_learner(name: str, random_state: int = 0, **params):
    """A fresh learner by name, with ``params`` overriding its preset.

    Examples
    --------
    >>> make_learner("qt", random_state=3)
    QLearner(alpha=0.45, gamma=1.0, backup='negamax', exploration='epsilon', epsilon=0.5, eta=0.0001, temperature=0.2, random_state=3)
    """
    if name not in LEARNERS:
        raise ValueError(f"unknown learner {name!r}: use one of {', '.join(LEARNERS)}")
    entry = LEARNERS[name]
    try:
        return entry.cls(**{**entry.params, **params, "random_state": random_state})
    except TypeError as err:
        raise ValueError(f"learner {name!r}: {err}") from None


def learner_names(*, value_table: bool | None = None, opponents: bool | None = None) -> list[str]:
    """The registered names, those that leave a value table or take opponents when asked.

    Examples
    --------
    >>> learner_names(opponents=True)
    ['q', 'qt', 'bayes']
    """
    return [name for name, entry in LEARNERS.items()
            if (value_table is None or entry.cls.value_table == value_table)
            and (opponents is None or entry.cls.opponents == opponents)]


def default_bound(game) -> int:
    """The universe learned over by default: the papers' sizes (a 12 x 12 board, three heaps of at most 7).

    Examples
    --------
    >>> from games import make_game
    >>> [default_bound(make_game(*g)) for g in [("subtraction",), ("wythoff",), ("nim",)]]
    [30, 12, 7]
    """
    if game.dims == 1:
        return 30
    if game.dims == 2:
        return 12
    return int(max(2, min(7, round(4096 ** (1 / game.dims)) - 1)))


def fit_learner(name: str, game, *, bound: int | None = None, games: int | None = None, seed: int = 0,
                progress: bool = False, params: dict | None = None, **options):
    """Fit the learner ``name`` (its preset, with ``params`` overriding it) on ``game.universe(bound)`` with the
    budget it declares for ``games`` games (``Learner.budget``) and any other keywords of its ``fit``
    (``options``); return it fitted.

    Examples
    --------
    >>> from games import make_game
    >>> learner = fit_learner("q", make_game("nim", heaps=2), bound=3, games=3000)
    >>> learner.value_table_.partition(0.5).reshape(4, 4).diagonal().tolist()
    [-1, -1, -1, -1]
    """
    from learners.arena import Arena

    learner = make_learner(name, seed, **(params or {}))
    learner.check_game(game)
    bound = default_bound(game) if bound is None else bound
    arena = Arena(game, bound)
    return learner.fit(game, bound=bound, solution=arena.solution, progress=progress,
                       **{**learner.budget(games, arena), **options})
