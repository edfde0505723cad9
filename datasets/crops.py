"""``python -m datasets.crops --out DIR --train N --val M --seed S --synth YOLO_DIR [--real YOLO_DIR]``

Crops of corner indices for the second-stage classifier (`vision.classifier`), cut from YOLO sets
that already exist: a built synthetic set (`python -m datasets.build`, with train/ and val/) and
optionally the real photos' finetune half (`python -m datasets.real --export DIR --split finetune`).
Reading built sets instead of rendering again keeps this a one-minute job on two cores.

Why it looks like this:
- Every labelled box is cropped with `vision.crops.crop_box`, the runtime's own function, after a
  random jitter of +-15% shift and scale per side: the detector's boxes are never exact.
- Class 54 ("bg") is random non-index boxes of index-like size, half of them near a labelled index
  (card faces, pips, the edge of the next card: where false boxes come from), never overlapping one.
- The real finetune half is oversampled (`--real-share` of the training crops); a few of its photos
  (by name hash) are kept for validation so the real-photo accuracy is visible while training.
  A photo of the real set's `test` half is refused: it is what the detector is measured on.
- Half of the source images pass through a JPEG re-encode at a random quality first.
- `--stretch P`: a share P of the source images is first squeezed along x or y by up to `MAX_SQUEEZE`
  (the real set's photos were stretched to 640x640 from 16:9 and 3:4: a 16:9 webcam index is 1.78x
  too thin, and run 6 read those 91% right as they are, 94% once un-stretched, 36% squeezed once more).
- `--dark P`: a share P of the source images is re-coloured as a dark deck (`recolour_dark`): paper
  near black, black ink silver, red ink gold. A third of run 6's misreads on the real photos' phone
  shots were one black-and-gold novelty deck; no rendered deck design is dark.

Output: DIR/train.npz and DIR/val.npz (``x`` N x S x S x 3 uint8 BGR, ``y`` int64, ``src`` 0 synth /
1 real) and DIR/info.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from datasets.real import in_test_half
from vision.classes import NUM_CLASSES
from vision.classifier import CLASSIFIER_NAMES
from vision.crops import CROP_SIZE, crop_box

BG = NUM_CLASSES  # class id of "not an index"
JITTER = 0.15
MAX_SQUEEZE = 1.8  # the strongest stretch in the real set (16:9 -> 1:1)


def read_yolo(root: Path) -> list[tuple[Path, np.ndarray]]:
    """(image, N x 5 array of cls cx cy w h normalised) for every image of a YOLO images/labels dir."""
    return [(img, read_label(root / "labels" / (img.stem + ".txt")))
            for img in sorted((root / "images").glob("*.jpg"))]


def read_label(label: Path) -> np.ndarray:
    """One YOLO label file's N x 5 rows (cls cx cy w h normalised); none where the file is missing."""
    rows = [ln.split() for ln in label.read_text().splitlines()] if label.exists() else []
    return np.array([[float(v) for v in r] for r in rows if len(r) == 5], np.float64).reshape(-1, 5)


def refuse_test_half(items: list[tuple[Path, np.ndarray]]) -> None:
    """No crop may come from a real photo the detector is measured on."""
    for img, _ in items:
        if in_test_half(img):
            raise SystemExit(f"{img} is in the real set's test half; export --split finetune only")


def held_out(path: Path, share: float) -> bool:
    h = int(hashlib.sha1(path.resolve().name.encode()).hexdigest(), 16)
    return (h % 1000) < share * 1000


def jitter(box: np.ndarray, rng: np.random.Generator, amount: float = JITTER) -> np.ndarray:
    """A detector-like imperfect box: centre shifted and each side scaled by up to `amount`."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.uniform(-amount, amount) * w
    cy = (y1 + y2) / 2 + rng.uniform(-amount, amount) * h
    w *= rng.uniform(1 - amount, 1 + amount)
    h *= rng.uniform(1 - amount, 1 + amount)
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


def _overlaps(box: np.ndarray, boxes: np.ndarray, limit: float = 0.15) -> bool:
    if len(boxes) == 0:
        return False
    ix = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    inter = ix * iy
    a = (box[2] - box[0]) * (box[3] - box[1])
    b = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    # against the smaller of the two: a small box on half an index is not background either
    return bool(np.any(inter > limit * np.minimum(a, b)))


def background_boxes(boxes: np.ndarray, W: int, H: int, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """`n` index-sized boxes that overlap no labelled index; half of them next to one."""
    out: list[np.ndarray] = []
    for _ in range(n * 8):
        if len(out) >= n:
            break
        if len(boxes):
            ref = boxes[int(rng.integers(len(boxes)))]
            w, h = ref[2] - ref[0], ref[3] - ref[1]
            if rng.random() < 0.3:
                w, h = h, w
        else:
            h = rng.uniform(0.02, 0.12) * max(W, H)
            w = h * rng.uniform(0.4, 1.0)
            if rng.random() < 0.5:
                w, h = h, w
        w, h = w * rng.uniform(0.7, 1.4), h * rng.uniform(0.7, 1.4)
        if len(boxes) and rng.random() < 0.5:
            ang = rng.uniform(0, 2 * np.pi)
            d = rng.uniform(0.8, 3.0)
            cx = (ref[0] + ref[2]) / 2 + np.cos(ang) * d * w
            cy = (ref[1] + ref[3]) / 2 + np.sin(ang) * d * h
        else:
            cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        b = np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
        if 0 <= cx < W and 0 <= cy < H and not _overlaps(b, boxes):
            out.append(b)
    return out


def squeeze(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The image shrunk along x or y by a factor in [1, MAX_SQUEEZE] (log-uniform), like a photo
    stretched to a square; YOLO labels are normalised, so they stay right."""
    f = float(np.exp(rng.uniform(0.0, np.log(MAX_SQUEEZE))))
    h, w = img.shape[:2]
    wh = (max(1, round(w / f)), h) if rng.random() < 0.5 else (w, max(1, round(h / f)))
    return cv2.resize(img, wh, interpolation=cv2.INTER_AREA)


def recolour_dark(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A white-paper BGR image as a dark deck: ink = 1 - min(B, G, R) (paper 0, black or red ink
    near 1), its red share keeps red and black suits apart (gold and silver, as such decks do)."""
    f = img.astype(np.float32) / 255.0
    ink = 1.0 - f.min(axis=2, keepdims=True)
    red = np.clip((f[..., 2:3] - f[..., :2].max(axis=2, keepdims=True)) / (ink + 1e-3), 0.0, 1.0)
    paper = rng.uniform(0.02, 0.18) * rng.uniform(0.6, 1.0, 3)  # black, navy, dark green, ...
    gold = np.array([0.25, 0.62, 0.85]) * rng.uniform(0.8, 1.15)  # BGR
    silver = np.full(3, rng.uniform(0.7, 0.95)) if rng.random() < 0.7 else gold * rng.uniform(0.9, 1.1)
    colour = red * gold + (1.0 - red) * silver
    out = paper * (1.0 - ink) + ink * colour
    return (np.clip(out, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)


def crops_of_image(
    img_path: Path, labels: np.ndarray, rng: np.random.Generator, bg_share: float, size: int,
    stretch: float = 0.0, dark: float = 0.0,
) -> tuple[list[np.ndarray], list[int]]:
    """Jittered crops of every labelled index of one image, plus background crops."""
    img = cv2.imread(str(img_path))
    if img is None:
        return [], []
    if stretch > 0 and rng.random() < stretch:
        img = squeeze(img, rng)
    if dark > 0 and rng.random() < dark:
        img = recolour_dark(img, rng)
    H, W = img.shape[:2]
    if rng.random() < 0.5:
        q = int(rng.integers(35, 96))
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])[1], cv2.IMREAD_COLOR)
    cls = labels[:, 0].astype(int)
    cx, cy, bw, bh = labels[:, 1] * W, labels[:, 2] * H, labels[:, 3] * W, labels[:, 4] * H
    boxes = np.column_stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2])
    xs, ys = [], []
    for c, b in zip(cls, boxes, strict=True):
        xs.append(crop_box(img, jitter(b, rng), size))
        ys.append(int(c))
    n_bg = int(rng.poisson(bg_share / (1 - bg_share) * max(len(boxes), 3)))
    for b in background_boxes(boxes, W, H, n_bg, rng):
        xs.append(crop_box(img, b, size))
        ys.append(BG)
    return xs, ys


def collect(
    items: list[tuple[Path, np.ndarray]], n: int, rng: np.random.Generator, bg_share: float, size: int,
    desc: str, stretch: float = 0.0, dark: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """`n` crops from passes over `items` in random order (each pass with fresh jitter)."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    bar = tqdm(total=n, desc=desc, unit="crop", leave=False)
    while len(xs) < n and items:
        for i in rng.permutation(len(items)):
            a, b = crops_of_image(*items[i], rng, bg_share, size, stretch, dark)
            xs += a
            ys += b
            bar.update(len(a))
            if len(xs) >= n:
                break
    bar.close()
    x = np.stack(xs[:n]) if xs else np.zeros((0, size, size, 3), np.uint8)
    return x, np.array(ys[:n], np.int64)


def build(
    out: Path, n_train: int, n_val: int, seed: int, synth: Path, real: Path | None = None,
    real_share: float = 0.25, real_val_share: float = 0.15, bg_share: float = 0.12, size: int = CROP_SIZE,
    stretch: float = 0.0, dark: float = 0.0,
) -> dict:
    rng = np.random.default_rng([seed, 55])
    s_train, s_val = read_yolo(synth / "train"), read_yolo(synth / "val")
    r_train: list = []
    r_val: list = []
    if real is not None:
        r_all = read_yolo(real)
        refuse_test_half(r_all)
        r_train = [it for it in r_all if not held_out(it[0], real_val_share)]
        r_val = [it for it in r_all if held_out(it[0], real_val_share)]
    nr_train = int(round(n_train * real_share)) if r_train else 0
    nr_val = int(round(n_val * 0.3)) if r_val else 0
    parts = {
        "train": [(s_train, n_train - nr_train, 0), (r_train, nr_train, 1)],
        "val": [(s_val, n_val - nr_val, 0), (r_val, nr_val, 1)],
    }
    out.mkdir(parents=True, exist_ok=True)
    info: dict = {"seed": seed, "size": size, "names": list(CLASSIFIER_NAMES), "synth": str(synth),
                  "real": str(real) if real else None, "stretch": stretch, "dark": dark}
    for split, sources in parts.items():
        xs, ys, srcs = [], [], []
        for items, n, src in sources:
            if n <= 0:
                continue
            x, y = collect(items, n, rng, bg_share, size, f"{split}/{'real' if src else 'synth'}",
                           *((stretch, dark) if split == "train" else (0.0, 0.0)))
            xs.append(x)
            ys.append(y)
            srcs.append(np.full(len(y), src, np.int8))
        x, y, src = np.concatenate(xs), np.concatenate(ys), np.concatenate(srcs)
        np.savez(out / f"{split}.npz", x=x, y=y, src=src)
        info[split] = {"crops": len(y), "real": int(src.sum()), "background": int((y == BG).sum()),
                       "classes_seen": int(len(set(y.tolist())))}
    (out / "info.json").write_text(json.dumps(info, indent=1))
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--train", type=int, required=True, help="number of training crops")
    ap.add_argument("--val", type=int, required=True, help="number of validation crops")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--synth", type=Path, required=True, help="a built YOLO set (train/ and val/ inside)")
    ap.add_argument("--real", type=Path, default=None, help="the real finetune half as a YOLO set")
    ap.add_argument("--real-share", type=float, default=0.25, help="share of training crops from --real")
    ap.add_argument("--bg-share", type=float, default=0.12, help="share of background crops")
    ap.add_argument("--size", type=int, default=CROP_SIZE)
    ap.add_argument("--stretch", type=float, default=0.0,
                    help="share of training source images squeezed along one axis first (0..1)")
    ap.add_argument("--dark", type=float, default=0.0,
                    help="share of training source images re-coloured as a dark deck (0..1)")
    args = ap.parse_args(argv)
    t = time.time()
    info = build(args.out, args.train, args.val, args.seed, args.synth, args.real, args.real_share,
                 bg_share=args.bg_share, size=args.size, stretch=args.stretch,
                 dark=args.dark)
    print(json.dumps({k: info[k] for k in ("train", "val")}), f"in {time.time() - t:.0f}s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
