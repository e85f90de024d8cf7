"""Discovery: fit symbolic rules to solved or learned tables, verify them, compare and report.

The command-line interface lives in ``discover.cli`` (the ``discover`` command); the
discovery API arrives with the discovery issue.
"""

__all__: list[str] = []
