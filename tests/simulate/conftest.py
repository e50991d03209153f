from __future__ import annotations

import sys
from pathlib import Path

# the hand-written replayer test hands (tests/replayer/replay_hands.py) and the reference
# MCR calculator adapter (tests/replayer/mcr_oracle.py)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "replayer"))
