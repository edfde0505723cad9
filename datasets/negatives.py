"""``python -m datasets.negatives --out FILE.npz --scenes N --seed S [--real DIR]``

Background crops for the index classifier, cut where a rendered scene knows there is no index.

Why: the reader's false cards are boxes on things that look like an index to a corner finder: the
centre pips and court figures of a face, half of an index (the rank glyph alone or the pip under it:
a box on half an index reads as a second card next to the whole one), card backs, chips, phones and
hands on the table. `datasets.crops` puts its background boxes at random and `datasets.proposals`
where the detector happened to look; here each kind is sampled where the scene's own geometry
(`meta`: card quads, index boxes, back quads, occluder polygons) says it is:

- ``face``: an index-sized box inside a face-up card's quad that overlaps no index of any card;
- ``half``: the rank half or the pip half of a visible index, split across the card's up direction;
- ``back``: an index-sized box inside a face-down card;
- ``object``: an index-sized box on a chip, phone, hand, paper or keyboard, away from every index;
- ``cloth``: an index-sized box on the bare table, on no card, back or object: the dots, checks and
  stripes of a patterned cloth, which the namers otherwise never see named background (a red dot
  read as the big joker).

With ``--real DIR`` (a YOLO export of the real photos' finetune half, `datasets.real --export`), the
halves of its labelled indices are added too (the real set has no card quads). The test half is
refused, as everywhere. Scenes come from the generator's training split only
(`datasets.synth.holdout`).

Output: FILE.npz with ``x`` N x S x S x 3 uint8 BGR, ``y`` int64 (all `BG`), ``src`` (0 synthetic,
1 real) and ``kind`` (index into `KINDS`), the form `vision.train_classifier --extra` takes.
"""

from __future__ import annotations

import argparse
import os
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from datasets.crops import BG, _overlaps, read_yolo, refuse_test_half
from datasets.synth.scene import generate, rng_for
from vision.crops import CROP_SIZE, crop_box

KINDS = ("face", "half", "back", "object", "cloth")
SCENE_KINDS = ("table", "seat", "pile")
Box = np.ndarray  # x1, y1, x2, y2


def _index_boxes(meta: dict) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Every index box of the scene (covered ones too), and the visible ones with their card's quad."""
    every, visible = [], []
    for c in meta["cards"]:
        for i in c["indices"]:
            every.append(i["box"])
            if i["visible"]:
                visible.append((np.array(i["box"], float), np.array(c["quad"], float)))
    return np.array(every, float).reshape(-1, 4), visible


def _inside(quad: np.ndarray, rng: np.random.Generator, margin: float = 0.12) -> np.ndarray:
    """A random point inside a quad (bilinear in the quad's own coordinates, away from its edges)."""
    u, v = rng.uniform(margin, 1 - margin, 2)
    top = quad[0] + u * (quad[1] - quad[0])
    bottom = quad[3] + u * (quad[2] - quad[3])
    return top + v * (bottom - top)


def _sized(centre: np.ndarray, ref: np.ndarray, rng: np.random.Generator) -> Box:
    w, h = ref[2] - ref[0], ref[3] - ref[1]
    w, h = w * rng.uniform(0.7, 1.4), h * rng.uniform(0.7, 1.4)
    if rng.random() < 0.3:
        w, h = h, w
    return np.array([centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2])


def half_boxes(box: Box, up: np.ndarray) -> tuple[Box, Box]:
    """The two halves of an axis-aligned index box, cut across the card's up direction (rank, pip).

    >>> [b.tolist() for b in half_boxes(np.array([0, 0, 10, 20.0]), np.array([0, -1.0]))]
    [[0.0, 0.0, 10.0, 10.0], [0.0, 10.0, 10.0, 20.0]]
    """
    x1, y1, x2, y2 = box
    if abs(up[1]) >= abs(up[0]):  # upright or upside down: cut horizontally
        ym = (y1 + y2) / 2
        first, second = np.array([x1, y1, x2, ym]), np.array([x1, ym, x2, y2])
        return (first, second) if up[1] < 0 else (second, first)
    xm = (x1 + x2) / 2
    first, second = np.array([x1, y1, xm, y2]), np.array([xm, y1, x2, y2])
    return (first, second) if up[0] < 0 else (second, first)


def negative_boxes(meta: dict, rng: np.random.Generator, per_kind: int = 4) -> list[tuple[Box, int]]:
    """Up to ``per_kind`` background boxes of each kind in `KINDS`, with the kind's index."""
    every, visible = _index_boxes(meta)
    if not len(every):
        return []
    out: list[tuple[Box, int]] = []
    faces = [np.array(c["quad"], float) for c in meta["cards"]]
    regions = {
        0: faces,
        2: [np.array(q, float) for q in meta.get("back_quads", [])],
        3: [np.array(o["poly"], float) for o in meta.get("occluders", [])],
    }
    for kind, quads in regions.items():
        got = 0
        for _ in range(per_kind * 6):
            if got >= per_kind or not quads:
                break
            q = quads[int(rng.integers(len(quads)))]
            centre = _inside(q, rng) if len(q) == 4 else q[int(rng.integers(len(q)))] * 0.5 + q.mean(0) * 0.5
            b = _sized(centre, every[int(rng.integers(len(every)))], rng)
            if not _overlaps(b, every):
                out.append((b, kind))
                got += 1
    for j in rng.permutation(len(visible))[:per_kind]:
        box, quad = visible[int(j)]
        up = quad[0] - quad[3]  # bottom-left to top-left: the card's up direction in the photo
        out.append((half_boxes(box, up)[int(rng.integers(2))], 1))
    return out + [(b, 4) for b in cloth_boxes(meta, every, [q for qs in regions.values() for q in qs], rng,
                                              per_kind)]


def cloth_boxes(meta: dict, every: np.ndarray, covers: list[np.ndarray], rng: np.random.Generator,
                count: int) -> list[Box]:
    """Up to `count` index-sized boxes on the bare table: inside the photo, overlapping no index, and
    none of nine points across the box (its corners, edge middles and centre) on a card, a back or an
    object (`covers`, their quads and polygons)."""
    w, h = meta["width"], meta["height"]
    polys = [np.asarray(q, np.float32).reshape(-1, 1, 2) for q in covers]
    out: list[Box] = []
    for _ in range(count * 8):
        if len(out) >= count:
            break
        b = _sized(rng.uniform([0, 0], [w, h]), every[int(rng.integers(len(every)))], rng)
        if b[0] < 0 or b[1] < 0 or b[2] > w or b[3] > h or _overlaps(b, every):
            continue
        grid = [(float(x), float(y)) for x in np.linspace(b[0], b[2], 3) for y in np.linspace(b[1], b[3], 3)]
        if not any(cv2.pointPolygonTest(poly, p, False) >= 0 for poly in polys for p in grid):
            out.append(b)
    return out


def crops_of_scene(image: np.ndarray, meta: dict, rng: np.random.Generator, size: int = CROP_SIZE,
                   per_kind: int = 4) -> tuple[list[np.ndarray], list[int]]:
    xs, kinds = [], []
    for box, kind in negative_boxes(meta, rng, per_kind):
        xs.append(crop_box(image, box, size))
        kinds.append(kind)
    return xs, kinds


def real_halves(root: Path, rng: np.random.Generator, size: int = CROP_SIZE) -> tuple[list, list]:
    """Half-index crops of a real YOLO export; the photos there are upright close-ups, so the cut is
    across each box's longer side with the rank half first."""
    items = read_yolo(root)
    refuse_test_half(items)
    xs: list[np.ndarray] = []
    for path, labels in tqdm(items, desc="real halves", unit="photo"):
        img = cv2.imread(str(path))
        if img is None:
            continue
        H, W = img.shape[:2]
        for _, cx, cy, bw, bh in labels:
            box = np.array([(cx - bw / 2) * W, (cy - bh / 2) * H, (cx + bw / 2) * W, (cy + bh / 2) * H])
            up = np.array([0.0, -1.0]) if bh >= bw else np.array([-1.0, 0.0])
            xs.append(crop_box(img, half_boxes(box, up)[int(rng.integers(2))], size))
    return xs, [1] * len(xs)


_CFG: dict = {}


def _init(cfg: dict) -> None:
    cv2.setNumThreads(1)
    _CFG.update(cfg)


def _scene(i: int) -> tuple[list[np.ndarray], list[int]]:
    seed, size = _CFG["seed"], _CFG["size"]
    rng = rng_for(seed, i)
    kind = SCENE_KINDS[int(rng.integers(len(SCENE_KINDS)))]
    scene = generate(seed, i, size=1280 if kind == "table" else 640, kind=kind)
    return crops_of_scene(scene.image, scene.meta, np.random.default_rng([seed, i, 1]), size)


def build(out: Path, scenes: int, seed: int, workers: int, real: Path | None = None,
          size: int = CROP_SIZE) -> dict[str, int]:
    xs: list[np.ndarray] = []
    kinds: list[int] = []
    with Pool(workers, initializer=_init, initargs=({"seed": seed, "size": size},)) as pool:
        for x, k in tqdm(pool.imap(_scene, range(scenes), chunksize=2), total=scenes, desc="scenes",
                         unit="scene"):
            xs += x
            kinds += k
    src = [0] * len(xs)
    if real is not None:
        x, k = real_halves(real, np.random.default_rng([seed, 2]), size)
        xs += x
        kinds += k
        src += [1] * len(x)
    x = np.stack(xs) if xs else np.zeros((0, size, size, 3), np.uint8)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, x=x, y=np.full(len(x), BG, np.int64), src=np.array(src, np.int8),
             kind=np.array(kinds, np.int8))
    counts = {KINDS[k]: int(n) for k, n in zip(*np.unique(np.array(kinds, int), return_counts=True),
                                                  strict=True)}
    return {"crops": len(x), "real": int(sum(src)), **counts}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--scenes", type=int, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--real", type=Path, default=None, help="YOLO export of the real finetune half")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--size", type=int, default=CROP_SIZE)
    args = ap.parse_args(argv)
    info = build(args.out, args.scenes, args.seed, args.workers, args.real, args.size)
    print(f"{args.out}: {info}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
