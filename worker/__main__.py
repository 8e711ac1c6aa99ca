"""``python -m quantcheck.worker`` runs the ``quantcheck`` command."""

import sys

from quantcheck.worker.cli.main import main

sys.exit(main())
