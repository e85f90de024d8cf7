"""``python -m discover.cli``: the ``discover`` command."""

import sys

from discover.cli import main

sys.exit(main())
