"""Render a numbered set of scenes into a folder, in parallel: image i depends only on (seed, i), so
the output is identical for any number of workers. The CLI (``python -m datasets.synth``) and the
benchmarks and tests that generate their own scenes share it."""

from __future__ import annotations

from multiprocessing import get_context
from pathlib import Path

import cv2
from tqdm import tqdm

from .scene import generate
from .writer import write_scene

_ARGS: dict = {}
# Workers are started fresh, not forked: a fork copies a parent whose OpenCV thread pool is already
# running (any large cv2 call before the render starts it) without its threads, and a worker's first
# parallel cv2 call then waits forever on them.
POOL = get_context("spawn")


def _init(args: dict) -> None:
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
    with POOL.Pool(workers, initializer=_init, initargs=(args,)) as pool:
        for n in tqdm(
            pool.imap(_one, range(images), chunksize=4), total=images, disable=not progress, unit="img"
        ):
            total += n
    return total
