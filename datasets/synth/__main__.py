"""``python -m datasets.synth --out DIR --images N --seed S [--workers K] [--size 1280] [--kind KIND]``

Renders N synthetic reveal photos with YOLO labels and per-image scene JSON. Image i depends only
on (S, i), so the output is identical for any --workers.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from datasets.faces import first_use

from .batch import run
from .scene import KINDS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--images", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--size", type=int, default=1280, help="long side of the photos in pixels")
    ap.add_argument("--kind", choices=KINDS, default=None, help="only this scene kind (default: a mix)")
    ap.add_argument("--no-fetch", action="store_true", help="do not fetch card designs on first use")
    args = ap.parse_args()
    first_use(fetch=not args.no_fetch, workers=args.workers)
    t = time.time()

    n = run(args.out, args.images, args.seed, args.workers, args.size, args.kind)
    dt = time.time() - t
    print(f"{args.images} images, {n} labels in {dt:.1f}s ({args.images / dt:.2f} img/s) -> {args.out}")


if __name__ == "__main__":
    main()
