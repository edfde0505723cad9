"""Does the detector's region cut (`vision.regions`) keep every card index, and what does it save?

    python -m benchmarks.regions [--tables 30] [--seed 424242] [--also-tune] [--dim 0.3,0.1]

For every labelled corner index of held-out generated table photos (and the 24 the speed photo was
chosen from) and of the real photos (both halves): is it inside a region, and how far from the region's
edge (the context the network gets; a photo edge counts as no edge). Also the fraction of the
photo the regions keep (what the detector then reads), how often the whole photo is read, and the
time the cut takes; the kept fraction of the speed benchmark's photo too. `--dim` repeats it on the
photos darkened (a dim photo has less contrast, ink included). Nothing here runs a model.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from benchmarks.pipeline import BENCH, generate, speed_photo
from datasets.boxes import yolo_to_xyxy
from datasets.crops import read_label
from datasets.fingerprint import benchmark_fingerprint
from datasets.real import items as real_items
from vision.imageio import open_photo
from vision.proposer import ScaleConfig, working_image
from vision.regions import Region, RegionConfig, detail_regions, region_keeps

Box = tuple[float, float, float, float]


def margin(box: Box, regions: list[Region], w: int, h: int) -> float:
    """Context around `box` in the window that keeps it (the core holding its centre; inf at photo
    edges); -1 when no core holds its centre or that window does not hold it whole."""
    best = -1.0
    for r in regions:
        if not region_keeps(r, np.array([box], np.float32), w, h)[0]:
            continue
        x0, y0, x1, y1 = r.window
        sides = [box[0] - x0 if x0 > 0 else np.inf, box[1] - y0 if y0 > 0 else np.inf,
                 x1 - box[2] if x1 < w else np.inf, y1 - box[3] if y1 < h else np.inf]
        if min(sides) >= 0:
            best = max(best, min(sides))
    return best


def yolo_boxes(label: Path, w: int, h: int) -> list[Box]:
    """A generated photo's index boxes, in pixels of it at w x h, from its YOLO label file."""
    return [tuple(float(v) for v in b) for b in yolo_to_xyxy(read_label(label), w, h)]


def measure(label: str, photos: list[tuple[Path, list[Box] | None]], cfg: RegionConfig,
            dim: float = 1.0) -> int:
    """`photos`: paths with their index boxes in original pixels (None: YOLO labels beside the image);
    `dim` < 1 darkens every photo first (an evening table under one lamp). Returns the indices missed."""
    margins, areas, times = [], [], []
    for path, boxes in tqdm(photos, desc=label, unit="photo", leave=False):
        img, scale = working_image(open_photo(path, long_side=ScaleConfig.long_side), ScaleConfig())
        h, w = img.shape[:2]
        if boxes is None:  # generated: normalised YOLO labels, so any scale
            boxes = yolo_boxes(path.parent.parent / "labels" / (path.stem + ".txt"), w, h)
        else:
            boxes = [tuple(v * scale for v in b) for b in boxes]
        if dim != 1.0:
            img = (img.astype(np.float32) * dim).astype(np.uint8)
        t = time.perf_counter()
        rects = detail_regions(img, cfg)
        times.append(time.perf_counter() - t)
        areas.append(sum(r.area for r in rects) / (w * h))
        margins += [margin(b, rects, w, h) for b in boxes]
    m = np.array(margins)
    a = np.array(areas)
    least = float(m[m >= 0].min()) if (m >= 0).any() else float("nan")
    print(f"{label}: {len(photos)} photos, {len(m)} indices: inside a region {int((m >= 0).sum())} "
          f"({100 * float((m >= 0).mean()) if len(m) else 100:.2f}%), least context "
          f"{least:.0f} px; photo kept: median {statistics.median(a):.2f}, mean "
          f"{a.mean():.2f}, read whole {int((a == 1).sum())}/{len(a)}; cut "
          f"{1000 * statistics.median(times):.1f} ms/photo")
    return int((m < 0).sum())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=30, help="held-out generated table photos")
    ap.add_argument("--seed", type=int, default=424242)
    ap.add_argument("--dim", default="0.3,0.1",
                    help="also the generated and real photos darkened by these factors ('' for none)")
    ap.add_argument("--also-tune", action="store_true",
                    help="also the 100 tuning tables of cache/bench/tune-5151-100-* when present")
    args = ap.parse_args(argv)
    cfg = RegionConfig()
    print(f"{cfg}")
    photo = speed_photo()
    gen = benchmark_fingerprint()
    folder = generate(BENCH / f"e2e-{args.seed}-{args.tables}-g{gen}", args.tables, args.seed)
    sets = {f"generated tables (seed {args.seed})": [
        (folder / "images" / json.loads(p.read_text())["image"], None)
        for p in sorted((folder / "meta").glob("*.json"))[: args.tables]]}
    tune = BENCH / f"tune-5151-100-g{gen}"
    if args.also_tune and tune.exists():
        sets["tuning tables (seed 5151)"] = [(p, None) for p in sorted((tune / "images").glob("*.jpg"))]
    src = BENCH / f"speed-src-g{gen}" / "images"  # the speed photo is one of these, enlarged
    sets["speed photo's source tables (seed 31337)"] = [(p, None) for p in sorted(src.glob("*.jpg"))]
    sets["speed photo, 4000x3000 (no labels)"] = [(photo, [])]
    try:
        sets["real photos (both halves)"] = [(it.image, [b for _, b in it.cards]) for it in real_items()]
    except (FileNotFoundError, OSError) as e:
        print(f"real photos skipped ({e})")
    missed = sum(measure(name, photos, cfg) for name, photos in sets.items())
    for dim in [float(d) for d in args.dim.split(",") if d]:
        for name, photos in sets.items():
            if not name.startswith("speed photo,"):
                missed += measure(f"{name}, darkened x{dim}", photos, cfg, dim)
    print(f"indices outside every region: {missed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
