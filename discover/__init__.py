"""Discovery: fit symbolic rules to solved or learned tables, verify them, compare and report.

Examples
--------
>>> from games import make_game
>>> from discover import find_rule
>>> found = find_rule(make_game("nim", heaps=3))
>>> found.status, found.rule.text()
('verified', 'a ⊕ b ⊕ c = 0')
"""

from discover.find import Discovery, default_bound, default_verify_bound, find_rule
from discover.rule import Rule
from discover.table import Table, build_table, table_from_solution
from discover.verify import Check, verify_rule

__all__ = [
    "find_rule", "Discovery", "Rule", "Table", "build_table", "table_from_solution", "verify_rule", "Check",
    "default_bound", "default_verify_bound",
]
