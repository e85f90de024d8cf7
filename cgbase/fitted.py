"""Fitted state, the scikit-learn way: ``NotFittedError``, ``check_is_fitted`` and the mixin that raises it.

``NotFittedError`` and ``check_is_fitted`` are scikit-learn's own (``sklearn.exceptions``,
``sklearn.utils.validation``): the learners and discovery engines are ``BaseEstimator`` subclasses whose
fitted results end in ``_``, which is what they test. ``NotFittedError`` is both a ``ValueError`` and an
``AttributeError``, so ``except ValueError``, ``hasattr`` and ``getattr(obj, name, default)`` keep working.
``FittedAttributes`` makes reading any fitted result (``value_table_``, ``candidates_``, ``notes_`` ...) of an
unfitted object raise it, naming the object and the attribute.
"""

from __future__ import annotations

from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

__all__ = ["NotFittedError", "check_is_fitted", "FittedAttributes"]


class FittedAttributes:
    """Mixin: a missing public attribute whose name ends in ``_`` is a fitted result not computed yet, and reading
    it raises ``NotFittedError`` (an ``AttributeError``) saying to call ``fit`` first.

    Examples
    --------
    >>> class Counter(FittedAttributes):
    ...     def fit(self, items):
    ...         self.count_ = len(items)
    ...         return self
    >>> Counter().count_
    Traceback (most recent call last):
    sklearn.exceptions.NotFittedError: this Counter is not fitted yet: call fit(...) before reading count_
    >>> Counter().fit("abc").count_
    3
    >>> getattr(Counter(), "count_", None) is None
    True
    """

    def __getattr__(self, name: str):
        if name.endswith("_") and not name.startswith("_"):
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet: call fit(...) before reading {name}")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
