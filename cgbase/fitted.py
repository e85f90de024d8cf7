"""Fitted state, the scikit-learn way: ``NotFittedError``, ``check_is_fitted`` and the mixin that raises it.

The learners and discovery engines follow scikit-learn's estimator habits (``cgbase.estimator.Estimator``):
their fitted results end in ``_``. ``NotFittedError`` is, as scikit-learn's (``sklearn.exceptions``), both a
``ValueError`` and an ``AttributeError``, so ``except ValueError``, ``hasattr`` and ``getattr(obj, name,
default)`` keep working; it is the toolkit's own so that no command pays scikit-learn's import (a second or
more: scipy and pandas come with it). ``FittedAttributes`` makes reading any fitted result (``value_table_``,
``candidates_``, ``notes_`` ...) of an unfitted object raise it, naming the object and the attribute.
"""

from __future__ import annotations

__all__ = ["NotFittedError", "check_is_fitted", "FittedAttributes"]


class NotFittedError(ValueError, AttributeError):
    """A fitted result was read, or a fitted object was used, before ``fit``.

    Examples
    --------
    >>> issubclass(NotFittedError, ValueError) and issubclass(NotFittedError, AttributeError)
    True
    """


def check_is_fitted(estimator, attributes, *, msg: str | None = None) -> None:
    """Raise ``NotFittedError`` unless ``estimator`` has every one of ``attributes`` (a name or a list of names);
    ``msg`` may name the estimator's class as ``%(name)s``.

    Examples
    --------
    >>> class Counter:
    ...     def fit(self, items):
    ...         self.count_ = len(items)
    ...         return self
    >>> check_is_fitted(Counter().fit("ab"), "count_")
    >>> check_is_fitted(Counter(), "count_", msg="fit the %(name)s first")
    Traceback (most recent call last):
    cgbase.fitted.NotFittedError: fit the Counter first
    """
    names = [attributes] if isinstance(attributes, str) else list(attributes)
    if not all(hasattr(estimator, name) for name in names):
        message = msg or "this %(name)s is not fitted yet: call fit(...) before reading " + ", ".join(names)
        raise NotFittedError(message % {"name": type(estimator).__name__})


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
    cgbase.fitted.NotFittedError: this Counter is not fitted yet: call fit(...) before reading count_
    >>> Counter().fit("abc").count_
    3
    >>> getattr(Counter(), "count_", None) is None
    True
    """

    def __getattr__(self, name: str):
        if name.endswith("_") and not name.startswith("_"):
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet: call fit(...) before reading {name}")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
