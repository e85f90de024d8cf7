"""Every registered discovery engine through ``discover.engines.checks.check_engine``, one named case per check.

An engine whose backend is missing here (PySR needs Julia) must say so in one ``ValueError`` naming what to
install or use instead; that is its case. ``KNOWN_FAILURES`` maps ``(engine, check)`` to a reason; keep it empty.
"""

from __future__ import annotations

import functools

import pytest

from discover.engines import ENGINES, make_engine
from discover.engines.checks import engine_checks

KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def _available(name: str) -> bool:
    try:
        make_engine(name)
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=None)
def _checks(name: str) -> dict:
    return dict(engine_checks(make_engine(name, random_state=0)))


def _cases():
    for name in ENGINES:
        if not _available(name):
            continue
        for check in _checks(name):
            marks = ([pytest.mark.xfail(reason=KNOWN_FAILURES[(name, check)], strict=True)]
                     if (name, check) in KNOWN_FAILURES else [])
            yield pytest.param(name, check, id=f"{name}-{check}", marks=marks)


@pytest.mark.parametrize("name, check", list(_cases()))
def test_engine_conformance(name, check):
    _checks(name)[check]()


@pytest.mark.parametrize("name", [name for name in ENGINES if not _available(name)])
def test_a_missing_backend_says_what_to_do(name):
    with pytest.raises(ValueError, match="use --engines|install"):
        make_engine(name)
