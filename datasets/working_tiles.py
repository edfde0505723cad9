"""``python -m datasets.working_tiles --photos DIR [--photos DIR ...] --out DIR [--also IMAGES ...]``

Training tiles for the index finder cut from phone-sized photos the way the detector reads them.
`datasets.build` renders a table at twice the tile size, so its indices are 12-40 px; the detector
reads a 4032 px phone photo at `vision.proposer.ScaleConfig`'s long side (1440), where a far seat's
indices are 5-10 px, and looks at small ones again in the sharper decode (`Photo.detail`,
`vision.zoom`). Here each labelled photo (``DIR/images/NAME.jpg`` with ``DIR/labels/NAME.txt``, as
``python -m datasets.synth --size 4032 --kind table`` writes them) is opened with
`vision.imageio.open_photo` as the detector opens it, and tiles are cut from both views: the working
image and the detail view. A photo goes whole to ``train`` or to ``val`` (``--val`` share, by its
name: `datasets.crops.held_out`); a photo of the real set's test half is refused.
"""

from __future__ import annotations

import argparse
import os
import zlib
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.imageio import open_photo
from vision.proposer import ScaleConfig, working_image

from .build import run_jobs, split_dirs, tiles_from, write_yaml
from .crops import held_out, read_yolo, refuse_test_half
from .synth.scene import jpeg_bytes
from .synth.writer import yolo_lines

JPEG_QUALITY = 95  # the tiles are re-encoded once; the photo's own JPEG artefacts are already in them

Label = tuple[int, float, float, float, float]  # class, cx, cy, w, h (normalised)


def views(image_path: Path, scale: ScaleConfig) -> list[np.ndarray]:
    """The images the detector reads of a photo: the working image, then the detail view if any."""
    photo = open_photo(image_path, long_side=scale.long_side, detail=True)
    work, _ = working_image(photo, scale)
    return [work] if photo.detail is None else [work, photo.detail]


_CFG: dict = {}


def _init(cfg: dict) -> None:
    cv2.setNumThreads(1)
    _CFG.update(cfg)


def _run(job: tuple[int, str, list[Label]]) -> int:
    """Cut and write the tiles of one photo; returns how many labelled boxes they hold."""
    k, image, labels = job
    image_path = Path(image)
    out, t, n = Path(_CFG["out"]), _CFG["imgsz"], _CFG["tiles"]
    stem = f"{k:02d}_{image_path.stem}"
    split = "val" if held_out(image_path, _CFG["val"]) else "train"
    rng = np.random.default_rng([_CFG["seed"], zlib.crc32(stem.encode())])
    boxes = 0
    for v, view in enumerate(views(image_path, ScaleConfig())):
        for i, (tile, tile_labels) in enumerate(tiles_from(view, labels, n, t, rng)):
            name = f"{stem}_v{v}_{i}"
            (out / split / "images" / f"{name}.jpg").write_bytes(jpeg_bytes(tile, JPEG_QUALITY))
            (out / split / "labels" / f"{name}.txt").write_text(yolo_lines(tile_labels))
            boxes += len(tile_labels)
    return boxes


def build_tiles(photo_dirs: list[Path], out: Path, tiles: int = 4, seed: int = 0, imgsz: int = 640,
                val_share: float = 0.03, workers: int = 1, progress: bool = True,
                extra_train: tuple[Path, ...] = ()) -> Path:
    """Cut `tiles` tiles from each view of every labelled photo in `photo_dirs`; returns data.yaml,
    which trains on `extra_train` image folders too (`datasets.build.write_yaml`)."""
    split_dirs(out)
    jobs = []
    for k, d in enumerate(photo_dirs):
        items = read_yolo(d)
        refuse_test_half(items)
        jobs += [(k, str(img), [(int(r[0]), *map(float, r[1:])) for r in rows]) for img, rows in items]
    if not jobs:
        raise SystemExit(f"no photos under {', '.join(str(d / 'images') for d in photo_dirs)}")
    cfg = {"out": str(out), "seed": seed, "imgsz": imgsz, "tiles": tiles, "val": val_share}
    for _ in tqdm(run_jobs(jobs, _run, _init, cfg, workers), total=len(jobs), disable=not progress,
                  unit="photo"):
        pass
    return write_yaml(out, extra_train)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", type=Path, action="append", required=True,
                    help="a folder with images/ and labels/ (repeatable)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--tiles", type=int, default=4, help="tiles cut from each view of a photo")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--val", type=float, default=0.03, help="share of photos kept for validation")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--also", type=Path, action="append", default=[],
                    help="an image folder to train on beside the tiles (repeatable; twice weighs double)")
    args = ap.parse_args()
    y = build_tiles(args.photos, args.out, args.tiles, args.seed, args.imgsz, args.val, args.workers,
                    extra_train=tuple(args.also))
    print(y)


if __name__ == "__main__":
    main()
