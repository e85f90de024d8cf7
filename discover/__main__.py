"""``python -m discover``: the ``discover`` command."""

import sys

from discover.launch import main

sys.exit(main())
