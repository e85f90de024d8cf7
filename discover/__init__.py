"""Discovery: fit symbolic rules to solved or learned tables, verify them, compare and report.

The names below are imported when first used, so ``import discover`` (and ``discover --help``) stays
light: sympy, numba and torch load only with the functions that need them.

Examples
--------
>>> from games import make_game
>>> from discover import find_rule
>>> found = find_rule(make_game("nim", heaps=3))
>>> found.status, found.rule.text()
('verified', 'a ⊕ b ⊕ c = 0')
"""

import importlib

__all__ = [
    "find_rule", "Discovery", "Rule", "Table", "build_table", "table_from_solution", "verify_rule", "Check",
    "default_bound", "default_verify_bound", "prove_rule", "Proof", "Strategy", "find_strategy",
]

_HOMES = {
    "find_rule": "discover.find", "Discovery": "discover.discovery", "default_bound": "discover.bounds",
    "default_verify_bound": "discover.bounds", "Rule": "discover.rule", "Table": "discover.table",
    "build_table": "discover.table", "table_from_solution": "discover.table", "verify_rule": "discover.verify",
    "Check": "discover.verify", "prove_rule": "discover.proofs.prove", "Proof": "discover.proofs.prove",
    "Strategy": "discover.strategy", "find_strategy": "discover.find_strategy",
}


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'discover' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)


def __dir__():
    return sorted(list(globals()) + __all__)
