"""``python -m datasets.faces [--workers K] [--sheet OUT.png]``: fetch, normalise, and show designs."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import cv2
import numpy as np

from . import ensure, load
from .measure import on_paper


def contact_sheet(
    names: list[str], out: Path, cards: tuple[str, ...] = ("As", "Td", "Kh", "Qc", "Js", "8h", "BJ", "SJ")
) -> None:
    """One row per design with the measured index boxes drawn: the check that the boxes are right."""
    rows = []
    for name in names:
        deck = load(name)
        cells = []
        for c in cards:
            cell = np.full((256, 184, 3), 128, np.uint8)
            if deck.has(c):
                f = on_paper(np.asarray(deck.face(c)))
                for (x1, y1, x2, y2), col in zip(deck.boxes(c), ((0, 200, 0), (255, 0, 255)), strict=True):
                    cv2.rectangle(f, (x1, y1), (x2, y2), col, 2)
                cell = cv2.resize(f, (184, 256), interpolation=cv2.INTER_AREA)
            cells.append(cell)
        row = np.hstack(cells)
        cv2.putText(row, name, (4, 250), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 255), 1)
        rows.append(row)
    cv2.imwrite(str(out), np.vstack(rows))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sheet", type=Path, help="write a contact sheet PNG with the measured index boxes")
    args = ap.parse_args()
    names = ensure(args.workers)
    print(f"{len(names)} designs ready: {', '.join(names)}")
    if args.sheet:
        contact_sheet(names, args.sheet)
        print(f"contact sheet: {args.sheet}")


if __name__ == "__main__":
    main()
