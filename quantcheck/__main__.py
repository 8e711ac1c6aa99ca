"""``python -m quantcheck`` runs the ``quantcheck`` command."""

import sys

from quantcheck.worker.cli.main import main

sys.exit(main())
