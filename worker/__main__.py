"""``python -m quantcheck.worker`` runs the ``quantcheck`` command."""

import sys

from quantcheck.cli.main import main

sys.exit(main())
