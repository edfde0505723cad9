"""``python -m datasets.synth --out DIR --images N --seed S [--workers K] [--size 1280] [--kind KIND]``

Renders N synthetic reveal photos with YOLO labels and per-image scene JSON. Image i depends only
on (S, i), so the output is identical for any --workers.
"""

from __future__ import annotations

import argparse
import os
import time
from multiprocessing import Pool
from pathlib import Path

from tqdm import tqdm

from .scene import KINDS, generate
from .writer import write_scene

_ARGS: dict = {}


def _init(args: dict) -> None:
    import cv2

    cv2.setNumThreads(1)  # one process per core; OpenCV's own threads would only fight them
    _ARGS.update(args)


def _one(i: int) -> int:
    a = _ARGS
    scene = generate(a["seed"], i, size=a["size"], kind=a["kind"])
    write_scene(Path(a["out"]), f"{a['prefix']}{i:06d}", scene)
    return len(scene.labels)


def run(
    out: Path,
    images: int,
    seed: int,
    workers: int,
    size: int = 1280,
    kind: str | None = None,
    prefix: str = "",
    progress: bool = True,
) -> int:
    """Generate the set; return the number of labels written."""
    out.mkdir(parents=True, exist_ok=True)
    args = {"out": str(out), "seed": seed, "size": size, "kind": kind, "prefix": prefix}
    total = 0
    if workers <= 1:
        _init(args)
        for i in tqdm(range(images), disable=not progress, unit="img"):
            total += _one(i)
        return total
    with Pool(workers, initializer=_init, initargs=(args,)) as pool:
        for n in tqdm(
            pool.imap(_one, range(images), chunksize=4), total=images, disable=not progress, unit="img"
        ):
            total += n
    return total


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
    from datasets.faces import first_use

    first_use(fetch=not args.no_fetch, workers=args.workers)
    t = time.time()

    n = run(args.out, args.images, args.seed, args.workers, args.size, args.kind)
    dt = time.time() - t
    print(f"{args.images} images, {n} labels in {dt:.1f}s ({args.images / dt:.2f} img/s) -> {args.out}")


if __name__ == "__main__":
    main()
