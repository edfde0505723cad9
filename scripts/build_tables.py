"""Rebuild the solver's shipped opponent samples (`scoring/data/winprob.npz`) by self-play.

    python scripts/build_tables.py [--hands 20000] [--seed 20240613] [--tol 0.005] [--presets a,b]

Every preset of `scoring.rules.PRESETS` by default; see `scoring.selfplay` for the procedure.
The value tables of `scoring.fasteval` are not shipped: they are built at first use (< 1 s).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.selfplay import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
