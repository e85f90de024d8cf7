"""The README's console samples are part of the suite: sybil collects README.md (``tests/docs/console.py``)."""

from tests.docs.console import CONSOLE

pytest_collect_file = CONSOLE.pytest()
