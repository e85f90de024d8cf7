"""``python -m discover``: the ``discover`` command."""

import sys

from discover.cli import main

sys.exit(main())
