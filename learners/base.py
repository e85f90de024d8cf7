"""The contract every learner follows, in the manner of scikit-learn.

A learner is an estimator in scikit-learn's manner (``cgbase.estimator.Estimator``): its constructor
takes keyword arguments only and stores them unchanged (with ``random_state``), so ``get_params``,
``set_params`` and ``sklearn.base.clone`` work; ``fit(game, ...)`` returns the learner; fitted results end in ``_``
(``history_``, learning-curve records, each with ``episode``, the games played so far;
``episodes_``, the games played; ``value_table_``, a ``ValueTable`` over the game's universe, for
learners that keep one); ``policy()`` is the fitted player as an ``Agent``. Before ``fit``, ``policy()``
and reading any fitted result raise ``cgbase.fitted.NotFittedError`` (as scikit-learn's: a ``ValueError``
and an ``AttributeError``).

A learner declares what it needs instead of being special-cased by name:

- ``check_game(game)`` raises a ``ValueError`` naming what the learner needs when it cannot learn
  ``game`` (a board, moves along lines, two coordinates ...);
- ``value_table`` (class attribute): whether ``fit`` leaves a ``value_table_`` to compare with the
  solver or to fit rules on;
- ``opponents`` (class attribute): whether ``fit`` takes ``opponent``, ``start`` and ``checkpoint``
  (the tabular learners);
- ``budget(games, arena)``: the keywords of ``fit`` for a budget of about ``games`` games (None: the
  learner's own default on that arena), so every command and check can fit any learner alike.
"""

from __future__ import annotations

import inspect

from cgbase.estimator import Estimator
from cgbase.fitted import check_is_fitted

__all__ = ["Learner"]


class Learner(Estimator):
    """Base class of every learner (see the module docstring).

    Examples
    --------
    >>> class Toy(Learner):
    ...     def __init__(self, *, alpha=0.5, random_state=0):
    ...         self.alpha, self.random_state = alpha, random_state
    >>> Toy(alpha=0.1)
    Toy(alpha=0.1, random_state=0)
    >>> Toy().set_params(alpha=0.2).get_params()
    {'alpha': 0.2, 'random_state': 0}
    """

    name = "learner"
    value_table = True
    opponents = False

    def check_game(self, game) -> None:
        """Raise a ``ValueError`` saying what is missing when this learner cannot learn ``game`` (here: a game
        whose moves split a heap into a sum of heaps; subclasses add their own needs)."""
        if game.parts > 1:
            raise ValueError(f"{game!r} is a sum of heaps (a move splits a heap): the learners need games whose "
                             "moves lead to single positions, such as nim, wythoff, euclid or subtraction")

    def progress_label(self, game) -> str:
        """The short label of a fit on a progress line: the learner's class and the game in words.

        Examples
        --------
        >>> from games import make_game
        >>> class QLearner(Learner): pass
        >>> QLearner().progress_label(make_game("nim", heaps=3))
        'QLearner · Nim with 3 heaps'
        """
        return f"{type(self).__name__} · {game.title()}"

    def check_params(self) -> None:
        """Raise a ``ValueError`` naming a parameter whose value the learner cannot use, before any work (a sweep
        checks every grid point this way); learners whose ``fit`` checks nothing up front keep this one."""

    def budget(self, games: int | None, arena) -> dict:
        """Keywords of ``fit`` for about ``games`` games on ``arena`` (None: the learner's default)."""
        raise NotImplementedError

    def policy(self, name: str | None = None):
        """The fitted player as an agent: here the greedy policy of ``value_table_`` (``NotFittedError`` before
        ``fit``)."""
        from learners.agents import GreedyAgent

        self.check_fitted("value_table_")
        if self.value_table_ is None:
            raise ValueError(f"the {type(self).__name__} kept no value table (its universe is too large)")
        return GreedyAgent(self.value_table_, name or self.name)

    def check_fitted(self, attribute: str) -> None:
        """Raise ``NotFittedError`` naming the learner when ``fit`` has not set ``attribute`` yet.

        Examples
        --------
        >>> from learners import QLearner
        >>> QLearner().check_fitted("value_table_")
        Traceback (most recent call last):
        cgbase.fitted.NotFittedError: fit the QLearner first: it has no value_table_ yet
        """
        check_is_fitted(self, attribute, msg=f"fit the %(name)s first: it has no {attribute} yet")

    def json_params(self) -> dict:
        """``get_params()`` with every value JSON can hold kept as is and any other written as its repr."""
        return {k: v if isinstance(v, (int, float, str, bool, type(None))) else repr(v)
                for k, v in self.ordered_params().items()}

    def ordered_params(self) -> dict:
        """The constructor's parameters and their values, in the constructor's order (``get_params`` sorts)."""
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        return {name: getattr(self, name) for name in names}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.ordered_params().items())})"

    def _repr_html_(self) -> str:
        """The learner's parameters and, once fitted, its value table and the last record of its history."""
        from cgbase.html import card, escape

        rows = [(name, escape(repr(value))) for name, value in self.ordered_params().items()]
        sections = []
        table = getattr(self, "value_table_", None)
        if table is not None:
            sections.append(("value_table_", table._repr_html_()))
        history = getattr(self, "history_", None)
        if history:
            last = ", ".join(f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in history[-1].items())
            sections.append((f"history_ ({len(history)} records), the last", escape(last)))
        return card(type(self).__name__, rows, sections)
