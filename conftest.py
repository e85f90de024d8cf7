"""The README's console samples are part of the suite: sybil collects README.md (``tests/docs/console.py``); a
sample too slow for the suite is skipped in the README with its reason (``<!-- skip: next "reason" -->``)."""

from sybil import Sybil
from sybil.parsers.markdown import SkipParser

from tests.docs.console import ConsoleBlockParser

pytest_collect_file = Sybil(parsers=[ConsoleBlockParser(), SkipParser()], patterns=["README.md"]).pytest()
