"""``python -m loopstep``: the ``loopstep`` command (serve, trace, export)."""
import sys

from loopstep.server import main

sys.exit(main())
