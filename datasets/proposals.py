"""``python -m datasets.proposals --model models/cards.onnx --yolo DIR [--yolo DIR ...] --out FILE.npz``

Classifier crops cut from the detector's *own* proposals (hard examples) on labelled YOLO sets.

Why: at runtime the classifier sees whatever boxes the YOLO proposes at a very low threshold (~150 a
photo at `box_conf` 0.001): off-centre boxes on real indices, and boxes on pips, court figures, card
edges and table texture that look index-like *to this detector*. Randomly placed background boxes
(`datasets.crops`) rarely look like that, so a classifier trained on them alone lets such boxes
through as cards. Here every proposal is labelled against the ground truth:

- IoU >= `POS_IOU` with a labelled index: that card (the detector's real box error, not a simulated
  jitter);
- overlapping no labelled index (< 15% of the smaller box, as in `datasets.crops`): background;
- anything in between (half an index, two indices in one box) is left out: either answer would teach
  the classifier something false.

Background boxes are capped per image, highest detector score first (the hardest ones). A photo of
the real set's `test` half is refused, as in `datasets.crops`; real photos held out for the crop
validation split (`datasets.crops.held_out`) go to ``FILE-val.npz`` instead.

``--scenes DIR`` (rendered phone-sized photos, `python -m datasets.synth --size 4032`) mines them as the
detector reads a photo (`runtime_proposals`): opened at the working size with its sharper decode, the
proposer's first pass and its second look at small indices (`vision.zoom`), each crop cut from that
decode. A 4032 px table's far seat then gives the namer the small, soft crops it meets at run time,
which a 640 px training image cut at full resolution does not.

Output: FILE.npz (and FILE-val.npz when some photos are held out) with ``x`` N x S x S x 3 uint8 BGR,
``y`` int64 (54 = background), ``src`` (0 synthetic, 1 real), the same form as `datasets.crops`;
`vision.train_classifier --extra FILE.npz` adds them to the training crops. FILE_real.npz holds the
real rows of FILE.npz alone (`--extra FILE_real.npz` twice more weighs real photos three times).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from datasets.boxes import iou_matrix  # the benchmark's IoU: "IoU >= 0.5" means the same in both
from datasets.crops import BG, _overlaps, held_out, read_yolo, refuse_test_half
from datasets.real import REAL_ROOT
from vision.crops import CROP_SIZE, crop_box
from vision.detector import Detector
from vision.imageio import open_photo
from vision.proposer import DEFAULT_BOX_CONF, Proposer, to_photo, working_image

POS_IOU = 0.5
PROPOSAL_CONF = DEFAULT_BOX_CONF  # the crops the classifier sees at runtime
MAX_PROPOSALS = 300  # per image, best first


def label_proposals(
    proposals: np.ndarray, truth_boxes: np.ndarray, truth_cls: np.ndarray, max_bg: int
) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the proposals kept and their labels; proposals must come sorted by score.

    >>> t = np.array([[0, 0, 10, 20.0]]); c = np.array([7])
    >>> p = np.array([[1, 1, 10, 20.0], [2, 5, 8, 12.0], [50, 50, 60, 70.0]])
    >>> label_proposals(p, t, c, max_bg=5)
    (array([0, 2]), array([ 7, 54]))
    """
    keep: list[int] = []
    labels: list[int] = []
    n_bg = 0
    ious = iou_matrix(proposals, truth_boxes)
    for i, b in enumerate(proposals):
        if len(truth_boxes):
            j = int(ious[i].argmax())
            if ious[i, j] >= POS_IOU:
                keep.append(i)
                labels.append(int(truth_cls[j]))
                continue
            if _overlaps(b, truth_boxes):
                continue
        if n_bg < max_bg:
            keep.append(i)
            labels.append(BG)
            n_bg += 1
    return np.array(keep, int), np.array(labels, np.int64)


def _items(root: Path, rng: np.random.Generator, max_images: int) -> list:
    """A YOLO set's (image, labels) pairs, the real test half refused, at most `max_images` of them
    (a random subset, in order)."""
    items = read_yolo(root)
    refuse_test_half(items)
    if max_images and len(items) > max_images:
        items = [items[i] for i in sorted(rng.choice(len(items), max_images, replace=False))]
    return items


def _pixel_boxes(labels: np.ndarray, W: int, H: int) -> np.ndarray:
    """YOLO label rows (class, cx, cy, w, h, all 0..1) as xyxy boxes in pixels of a W x H image."""
    cx, cy, bw, bh = labels[:, 1] * W, labels[:, 2] * H, labels[:, 3] * W, labels[:, 4] * H
    return np.column_stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2])


def mine(
    model: Path, sources: list[Path], out: Path, max_images: int, max_bg: int, seed: int,
    size: int = CROP_SIZE, real_val_share: float = 0.15,
) -> dict:
    finder = Proposer(model, conf=PROPOSAL_CONF)
    rng = np.random.default_rng([seed, 77])
    real_root = REAL_ROOT.resolve()
    parts: dict[str, tuple[list, list, list]] = {"train": ([], [], []), "val": ([], [], [])}
    for root in sources:
        items = _items(root, rng, max_images)
        for img_path, labels in tqdm(items, desc=f"proposals {root.name}", unit="img"):
            img = cv2.imread(str(img_path))
            if img is None:
                continue
            is_real = real_root in img_path.resolve().parents
            H, W = img.shape[:2]
            truth = _pixel_boxes(labels, W, H)
            props = finder.propose(img)[0][:MAX_PROPOSALS].astype(np.float64)
            idx, ys = label_proposals(props, truth, labels[:, 0].astype(int), max_bg)
            split = "val" if is_real and held_out(img_path, real_val_share) else "train"
            xs, yl, src = parts[split]
            for i, y in zip(idx, ys, strict=True):
                xs.append(crop_box(img, props[i], size))
                yl.append(int(y))
                src.append(int(is_real))
    info: dict = {"model": str(model), "sources": [str(s) for s in sources], "max_images": max_images,
                  "max_bg": max_bg, "seed": seed}
    info.update(write_parts(parts, out))
    return info


def runtime_proposals(det: Detector, image: Path, size: int = CROP_SIZE
                      ) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """A photo's proposals as `Detector.read_indices` makes them (`Detector.propose`), best first: their
    boxes in photo pixels, the namer's crops of them (cut from the photo's sharper decode, as at run
    time) and the photo's width and height."""
    photo = open_photo(image, long_side=det.scale.long_side, detail=True)
    work, total = working_image(photo, det.scale)
    boxes, _ = det.propose(work, photo.detail)
    src = photo.detail if photo.detail is not None else work
    k = np.array([src.shape[1] / work.shape[1], src.shape[0] / work.shape[0]] * 2)
    crops = [crop_box(src, b, size) for b in boxes * k]
    x = np.stack(crops) if crops else np.zeros((0, size, size, 3), np.uint8)
    return to_photo(boxes.astype(np.float64), total, photo), x, (photo.width, photo.height)


def mine_scenes(det: Detector, sources: list[Path], max_images: int, max_bg: int, seed: int,
                size: int = CROP_SIZE) -> tuple[list, list, list]:
    """`runtime_proposals` of rendered photos labelled against their YOLO labels (`label_proposals`)."""
    rng = np.random.default_rng([seed, 78])
    xs: list = []
    ys: list = []
    for root in sources:
        items = _items(root, rng, max_images)
        for img_path, labels in tqdm(items, desc=f"runtime proposals {root.name}", unit="img"):
            boxes, crops, (W, H) = runtime_proposals(det, img_path, size)
            idx, lab = label_proposals(boxes, _pixel_boxes(labels, W, H), labels[:, 0].astype(int), max_bg)
            xs.extend(crops[idx])
            ys.extend(int(y) for y in lab)
    return xs, ys, [0] * len(ys)


def write_parts(parts: dict[str, tuple[list, list, list]], out: Path) -> dict:
    """`out` (training crops), `<out>-val.npz` (the real photos held out) and `<out>_real.npz` (the
    training crops from real photos alone, so they can be given to the trainer more than once:
    `--extra out --extra out_real --extra out_real` weighs real photos three times)."""
    info: dict = {}
    out.parent.mkdir(parents=True, exist_ok=True)
    for split, (xs, ys, src) in parts.items():
        if not xs:
            continue
        path = out if split == "train" else out.with_name(out.stem + "-val.npz")
        x, y, s = np.stack(xs), np.array(ys, np.int64), np.array(src, np.int8)
        np.savez(path, x=x, y=y, src=s)
        info[split] = {"file": str(path), "crops": len(y), "background": int((y == BG).sum()),
                       "real": int(np.sum(src))}
        if split == "train":
            real = out.with_name(out.stem + "_real.npz")
            np.savez(real, x=x[s == 1], y=y[s == 1], src=s[s == 1])
            info["train_real"] = {"file": str(real), "crops": int((s == 1).sum())}
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, default=Path("models/cards.onnx"))
    ap.add_argument("--yolo", type=Path, action="append", default=[],
                    help="a YOLO images/labels dir (repeat): a built set's train/, the real finetune export")
    ap.add_argument("--scenes", type=Path, action="append", default=[],
                    help="rendered photos (python -m datasets.synth output) read as the detector reads them")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--max-images", type=int, default=0, help="per source, a random subset (0: all)")
    ap.add_argument("--max-bg", type=int, default=25, help="background proposals kept per image")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=int, default=CROP_SIZE, help="crop side in px (the classifier's input)")
    args = ap.parse_args(argv)
    if bool(args.yolo) == bool(args.scenes):
        ap.error("give --yolo or --scenes sources (not both)")
    t = time.time()
    if args.yolo:
        info = mine(args.model, args.yolo, args.out, args.max_images, args.max_bg, args.seed, args.size)
    else:
        det = Detector(args.model)
        parts = {"train": mine_scenes(det, args.scenes, args.max_images, args.max_bg, args.seed, args.size)}
        info = {"model": str(args.model), "scenes": [str(s) for s in args.scenes], "max_bg": args.max_bg,
                **write_parts(parts, args.out)}
    print(json.dumps(info), f"in {time.time() - t:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
