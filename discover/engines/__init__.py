"""Discovery engines: a portfolio of estimators proposing symbolic rules from a labelled table.

Engines are imported only when asked for, so an optional backend (PySR, gplearn) costs nothing
until it is used; ``Candidate`` and ``Engine`` (``discover.engines.base``, with sympy) load on first use too,
so an unknown engine name is refused without them.
"""

from __future__ import annotations

import difflib
import importlib

__all__ = ["Candidate", "Engine", "ENGINES", "make_engine"]  # the default portfolio: discover.defaults.ENGINES

ENGINES = {
    "sequence": ("discover.engines.sequence", "SequenceEngine", {}),
    "binary": ("discover.engines.binary", "BinaryEngine", {}),
    "enumeration": ("discover.engines.enumeration", "EnumerationEngine", {}),
    "decision_list": ("discover.engines.decision_list", "DecisionList", {}),
    "residues": ("discover.engines.residues", "ResidueEngine", {}),
    "periods2d": ("discover.engines.periods2d", "Periods2DEngine", {}),
    "operon": ("discover.engines.regression", "RegressionEngine", {"backend": "operon"}),
    "pysr": ("discover.engines.regression", "RegressionEngine", {"backend": "pysr"}),
    "gplearn": ("discover.engines.regression", "RegressionEngine", {"backend": "gplearn"}),
}


def __getattr__(name: str):
    if name in ("Candidate", "Engine"):
        return getattr(importlib.import_module("discover.engines.base"), name)
    raise AttributeError(f"module 'discover.engines' has no attribute {name!r}")


def make_engine(name: str, random_state: int = 0):
    """An engine by name, seeded.

    Examples
    --------
    >>> type(make_engine("sequence")).__name__
    'SequenceEngine'
    """
    if name not in ENGINES:
        near = difflib.get_close_matches(name, list(ENGINES), n=2, cutoff=0.6)
        hint = f"did you mean {' or '.join(near)}? " if near else ""
        raise ValueError(f"unknown engine {name!r}; {hint}the engines: {', '.join(ENGINES)}")
    module, cls, params = ENGINES[name]
    return getattr(importlib.import_module(module), cls)(random_state=random_state, **params)
