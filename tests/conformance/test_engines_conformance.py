"""Every registered discovery engine through ``discover.engines.checks``, one named case per check.

An engine whose backend is missing here (PySR needs Julia) must say so in one ``ValueError`` naming what to
install or use instead; that is its case. ``KNOWN_FAILURES`` maps ``(engine, check)`` to a reason; keep it empty.
"""

from __future__ import annotations

import pytest

from cgbase.checks import parametrize_with_checks
from discover.engines import ENGINES, make_engine
from discover.engines.checks import engine_checks

KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def _available(name: str) -> bool:
    try:
        make_engine(name)
    except ValueError:
        return False
    return True


CASES = {name: (make_engine(name, random_state=0),) for name in ENGINES if _available(name)}


@parametrize_with_checks(CASES, engine_checks, known_failures=KNOWN_FAILURES)
def test_engine_conformance(check):
    check()


@pytest.mark.parametrize("name", [name for name in ENGINES if not _available(name)])
def test_a_missing_backend_says_what_to_do(name):
    with pytest.raises(ValueError, match="use --engines|install"):
        make_engine(name)
