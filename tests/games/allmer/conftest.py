"""Makes ``allmer_testlib`` (helpers shared by the allmer tests) importable under pytest's
importlib import mode, which does not put test directories on ``sys.path``."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
