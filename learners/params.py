"""The scikit-learn habit every learner shares: parameters read back from the constructor's signature."""

from __future__ import annotations

import inspect

__all__ = ["Params"]


class Params:
    """Mixin: ``get_params()`` and ``repr`` from the keyword parameters the constructor stored.

    Examples
    --------
    >>> class Learner(Params):
    ...     def __init__(self, alpha=0.5, random_state=0):
    ...         self.alpha, self.random_state = alpha, random_state
    >>> Learner(alpha=0.1)
    Learner(alpha=0.1, random_state=0)
    """

    def get_params(self) -> dict:
        """The constructor's keyword parameters and their values."""
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        return {name: getattr(self, name) for name in names}

    def json_params(self) -> dict:
        """``get_params()`` with every value JSON can hold kept as is and any other written as its repr."""
        return {k: v if isinstance(v, (int, float, str, bool, type(None))) else repr(v)
                for k, v in self.get_params().items()}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.get_params().items())})"
