"""``python -m cathedral`` runs the command line."""

import sys

from cathedral.cli import main

sys.exit(main())
