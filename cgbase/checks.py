"""The check runner shared by every public ``check_*`` of the toolkit (games, solvers, learners, engines)."""

from __future__ import annotations

__all__ = ["run_checks"]


def run_checks(checks) -> None:
    """Run ``(name, check)`` pairs in order; the first failure is an ``AssertionError`` with the check's name in
    front (every ``check_*`` of the toolkit runs its named checks this way)."""
    for name, check in checks:
        try:
            check()
        except AssertionError as err:
            raise AssertionError(f"{name}: {err}") from err
