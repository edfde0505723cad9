"""``python -m datasets.build --out DIR --train N --val M --seed S [--imgsz 640] [--workers K]``

A ready YOLO dataset of training tiles at the training resolution. Whole-table photos are
rendered at 2 x imgsz (so an index is 12-40 px, as at 1280 px) and cut into imgsz x imgsz tiles
around the cards; close-ups of one seat or a few loose cards are rendered at imgsz directly so
their indices are 30-120 px like the real photos; ~5% of tiles are negatives. Labels are
clipped to the tile and a box less than 60% inside it is dropped.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from tqdm import tqdm

from vision.classes import CLASS_NAMES

from .faces import first_use
from .synth.scene import generate, jpeg_bytes
from .synth.writer import yolo_lines

MIN_KEEP = 0.6
TILES_PER_TABLE = 3
# share of tiles per source
MIX = {"table": 0.55, "seat": 0.17, "pile": 0.23, "negative": 0.05}


@dataclass(frozen=True)
class Job:
    split: str
    index: int  # scene index inside the split (seeds the scene)
    kind: str
    tiles: int  # how many tiles this scene yields


def plan(n_tiles: int, split: str, seed: int) -> list[Job]:
    """The list of scenes to render for ``n_tiles`` tiles, fixed by (seed, split) alone."""
    rng = np.random.default_rng([seed, 7, 0 if split == "train" else 1])
    kinds = list(MIX)
    # a table or negative scene yields several tiles: pick scenes so the *tiles* follow MIX
    per = {k: TILES_PER_TABLE if k in ("table", "negative") else 1 for k in kinds}
    p = np.array([MIX[k] / per[k] for k in kinds])

    jobs, total, i = [], 0, 0
    while total < n_tiles:
        kind = kinds[int(rng.choice(len(kinds), p=p / p.sum()))]
        k = min(TILES_PER_TABLE if kind in ("table", "negative") else 1, n_tiles - total)
        jobs.append(Job(split, i, kind, k))
        total += k
        i += 1
    return jobs


def _crop_labels(
    labels: list[tuple[int, float, float, float, float]], W: int, H: int, x0: int, y0: int, t: int
) -> list[tuple[int, float, float, float, float]]:
    out = []
    for c, cx, cy, w, h in labels:
        bx1, by1, bx2, by2 = (cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H
        ix1, iy1 = max(bx1, x0), max(by1, y0)
        ix2, iy2 = min(bx2, x0 + t), min(by2, y0 + t)
        if ix2 <= ix1 or iy2 <= iy1:
            continue
        if (ix2 - ix1) * (iy2 - iy1) < MIN_KEEP * (bx2 - bx1) * (by2 - by1):
            continue
        out.append(
            (c, ((ix1 + ix2) / 2 - x0) / t, ((iy1 + iy2) / 2 - y0) / t, (ix2 - ix1) / t, (iy2 - iy1) / t)
        )
    return out


def tiles_from(
    image: np.ndarray, labels: list[tuple[int, float, float, float, float]], n: int, t: int,
    rng: np.random.Generator,
) -> list[tuple[np.ndarray, list[tuple[int, float, float, float, float]]]]:
    """Cut ``n`` t x t tiles of ``image`` (YOLO ``labels``, normalised), mostly centred near labelled
    indices so tiles are not empty table."""
    H, W = image.shape[:2]
    out = []
    for _ in range(n):
        if labels and rng.random() < 0.85:
            _, cx, cy, _, _ = labels[int(rng.integers(len(labels)))]
            x0 = int(np.clip(cx * W - rng.uniform(0.1, 0.9) * t, 0, max(0, W - t)))
            y0 = int(np.clip(cy * H - rng.uniform(0.1, 0.9) * t, 0, max(0, H - t)))
        else:
            x0 = int(rng.integers(0, max(1, W - t + 1)))
            y0 = int(rng.integers(0, max(1, H - t + 1)))
        crop = image[y0 : y0 + t, x0 : x0 + t]
        out.append((np.ascontiguousarray(crop), _crop_labels(labels, W, H, x0, y0, t)))
    return out


_CFG: dict = {}


def _init(cfg: dict) -> None:
    cv2.setNumThreads(1)
    _CFG.update(cfg)


def _run(job: Job) -> int:
    out, seed, imgsz = Path(_CFG["out"]), _CFG["seed"], _CFG["imgsz"]
    split_seed = seed * 2 + (0 if job.split == "train" else 1)  # train and val never share a scene
    rng = np.random.default_rng([seed, 11, job.index, 0 if job.split == "train" else 1])
    if job.kind in ("table", "negative"):
        scene = generate(split_seed, job.index, size=2 * imgsz, kind=job.kind)
        tiles = tiles_from(scene.image, scene.labels, job.tiles, imgsz, rng)
    else:
        scene = generate(split_seed, job.index, size=imgsz, kind=job.kind)
        img = scene.image
        if rng.random() < 0.5 and img.shape[0] != img.shape[1]:
            # like the real set (phone photos stretched to 640x640): squash to a square; YOLO
            # labels are normalised, so they stay right
            img = cv2.resize(img, (imgsz, imgsz), interpolation=cv2.INTER_AREA)
        tiles = [(img, scene.labels)]

    n = 0
    for k, (img, labels) in enumerate(tiles):
        name = f"{job.kind[0]}{job.index:06d}_{k}"
        (out / job.split / "images" / f"{name}.jpg").write_bytes(jpeg_bytes(img, scene.quality))
        (out / job.split / "labels" / f"{name}.txt").write_text(yolo_lines(labels))
        n += len(labels)
    return n


def write_yaml(out: Path, extra_train: tuple[Path, ...] = ()) -> Path:
    """data.yaml with absolute paths (training runs from anywhere) and our 54 class names; the
    `extra_train` image folders (a folder named twice counts twice) train beside ``out/train``."""
    out = out.resolve()
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(CLASS_NAMES))
    train = [out / "train" / "images", *(Path(p).resolve() for p in extra_train)]
    train_text = f" {train[0]}" if len(train) == 1 else "".join(f"\n  - {p}" for p in train)
    text = (
        f"path: {out}\ntrain:{train_text}\nval: {out / 'val' / 'images'}\n"
        f"nc: {len(CLASS_NAMES)}\nnames:\n{names}\n"
    )
    p = out / "data.yaml"
    p.write_text(text)
    return p


def split_dirs(out: Path) -> None:
    """``out/{train,val}/{images,labels}``, as a YOLO data set lays its files out."""
    for split in ("train", "val"):
        for sub in ("images", "labels"):
            (out / split / sub).mkdir(parents=True, exist_ok=True)


def run_jobs(jobs: list, run: Callable[[Any], Any], init: Callable[[dict], None], cfg: dict,
             workers: int) -> Iterator:
    """`run(job)` for every job, results in order: here, or in `workers` processes; each process is
    set up by `init(cfg)` first."""
    if workers <= 1:
        init(cfg)
        yield from map(run, jobs)
        return
    with Pool(workers, initializer=init, initargs=(cfg,)) as pool:
        yield from pool.imap(run, jobs, chunksize=2)


def build(
    out: Path, n_train: int, n_val: int, seed: int, imgsz: int = 640, workers: int = 1, progress: bool = True
) -> Path:
    split_dirs(out)
    jobs = plan(n_train, "train", seed) + plan(n_val, "val", seed)
    cfg = {"out": str(out), "seed": seed, "imgsz": imgsz}
    bar = tqdm(total=n_train + n_val, disable=not progress, unit="tile")
    for j, _ in zip(jobs, run_jobs(jobs, _run, _init, cfg, workers), strict=True):
        bar.update(j.tiles)
    bar.close()
    return write_yaml(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--train", type=int, required=True, help="number of training tiles")
    ap.add_argument("--val", type=int, required=True, help="number of validation tiles")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-fetch", action="store_true", help="do not fetch card designs on first use")
    args = ap.parse_args()
    first_use(fetch=not args.no_fetch, workers=args.workers)
    t = time.time()

    y = build(args.out, args.train, args.val, args.seed, args.imgsz, args.workers)
    dt = time.time() - t
    n = args.train + args.val
    print(f"{n} tiles in {dt:.1f}s ({n / dt:.1f} tiles/s); {y}")


if __name__ == "__main__":
    main()
