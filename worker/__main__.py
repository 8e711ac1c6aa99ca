"""``python -m worker`` runs the ``quantcheck`` command."""

import sys

from worker.cli.main import main

sys.exit(main())
