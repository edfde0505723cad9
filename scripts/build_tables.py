"""Rebuild the solver's shipped win-probability tables (`scoring/data/winprob.npz`).

    python scripts/build_tables.py [--hands 20000] [--seed 20240613]

The same as ``python -m scoring.winprob --build``; see `scoring.winprob` for the procedure.
The value tables of `scoring.fasteval` are not shipped: they are built at first use (< 1 s).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.winprob import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main(["--build", *sys.argv[1:]]))
