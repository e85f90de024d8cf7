"""``python -m discover``: the ``discover`` command."""

import sys

from discover.app.launch import main

sys.exit(main())
