"""``Estimator``: scikit-learn's parameter contract (``get_params``, ``set_params``, ``clone``), carried here.

The learners and discovery engines are estimators in the manner of scikit-learn's ``BaseEstimator``
(``sklearn/base.py``): the constructor's signature names the parameters and stores each unchanged under its
name, so ``get_params`` reads them, ``set_params`` writes them (``name__param`` reaches a nested estimator) and
``sklearn.base.clone`` makes an unfitted copy. Importing scikit-learn takes longer than a whole ``discover nim``
(it brings scipy and pandas), so the toolkit keeps the contract itself and imports scikit-learn nowhere on the
way to a rule.
"""

from __future__ import annotations

import inspect

from cgbase.fitted import FittedAttributes

__all__ = ["Estimator"]


class Estimator(FittedAttributes):
    """Base class of the toolkit's estimators: parameters from the constructor's signature; fitted results end in
    ``_`` and raise ``cgbase.fitted.NotFittedError`` when read before ``fit``.

    Examples
    --------
    >>> class Smoother(Estimator):
    ...     def __init__(self, width=3, random_state=None):
    ...         self.width, self.random_state = width, random_state
    >>> Smoother(width=5)
    Smoother(width=5)
    >>> Smoother().set_params(random_state=1).get_params()
    {'random_state': 1, 'width': 3}
    >>> Smoother().set_params(depth=2)
    Traceback (most recent call last):
    ...
    ValueError: Smoother has no parameter 'depth': its parameters are random_state, width
    >>> from sklearn.base import clone
    >>> clone(Smoother(width=7))
    Smoother(width=7)
    """

    @classmethod
    def _get_param_names(cls) -> list[str]:
        """The constructor's parameter names, sorted (as scikit-learn's ``BaseEstimator``)."""
        if cls.__init__ is object.__init__:
            return []
        parameters = [p for p in inspect.signature(cls.__init__).parameters.values() if p.name != "self"]
        if any(p.kind == p.VAR_POSITIONAL for p in parameters):
            raise TypeError(f"{cls.__name__}'s constructor takes *args: an estimator names every parameter")
        return sorted(p.name for p in parameters if p.kind != p.VAR_KEYWORD)

    def get_params(self, deep: bool = True) -> dict:
        """The parameters and their values; with ``deep``, a nested estimator's as ``name__param`` too."""
        params = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                params.update((f"{name}__{key}", inner) for key, inner in value.get_params().items())
            params[name] = value
        return params

    def set_params(self, **params):
        """Set parameters by name (``name__param`` for a nested estimator's); return self."""
        names = self._get_param_names()
        nested = {}
        for key, value in params.items():
            name, _, inner = key.partition("__")
            if name not in names:
                raise ValueError(f"{type(self).__name__} has no parameter {name!r}: its parameters are "
                                 f"{', '.join(names)}")
            if inner:
                nested.setdefault(name, {})[inner] = value
            else:
                setattr(self, name, value)
        for name, inner in nested.items():
            getattr(self, name).set_params(**inner)
        return self

    def __repr__(self) -> str:
        """The class and the parameters that differ from the constructor's defaults (scikit-learn's way)."""
        defaults = {p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values()}
        changed = [f"{k}={v!r}" for k, v in self.get_params(deep=False).items()
                   if not _same(v, defaults.get(k, inspect.Parameter.empty))]
        return f"{type(self).__name__}({', '.join(changed)})"


def _same(value, default) -> bool:
    """A parameter left at its default (identity, or equality where the values compare to a plain bool)."""
    if value is default:
        return True
    try:
        return type(value) is type(default) and bool(value == default)
    except (TypeError, ValueError):  # arrays and other values whose == is not a truth value
        return False
