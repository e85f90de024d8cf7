"""``python -m discover.app.cli``: the ``discover`` command."""

import sys

from discover.app.cli import main

sys.exit(main())
