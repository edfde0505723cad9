"""Reader for the real labelled photos in ../shared/datasets/real/cardcounter (never copied here).

The set is used two ways: part of it may fine-tune the detector, the rest measures it. The split
(`vision.holdout`, which the model tools share) is a pure function of the original photo's name.

    python -m datasets.real --export DIR --split finetune   # a YOLO set with our class ids
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2

from datasets.real_labels import StaleFixError, corrected, is_slip, unlabelled_in
from vision.classes import CLASS_INDEX, from_real_name
from vision.holdout import REAL_ROOT, SPLITS, in_test_half, original_name, split_of

__all__ = ["REAL_ROOT", "SPLITS", "RealItem", "in_test_half", "items", "label_box", "original_name",
           "split_of"]


@dataclass(frozen=True)
class RealItem:
    image: Path
    width: int
    height: int
    cards: list[tuple[str, tuple[float, float, float, float]]]  # (card, xyxy pixels)
    unlabelled: tuple[str, ...] = ()  # cards the photo shows that no label names (`UnlabelledCard`)


def _class_names(root: Path) -> list[str]:
    text = (root / "data.yaml").read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith("names:"))
    return [n.strip().strip("'\"") for n in line.split("[", 1)[1].rsplit("]", 1)[0].split(",")]


def label_box(parts: list[str]) -> tuple[float, float, float, float] | None:
    """Normalised xyxy of one label row: `cls cx cy w h`, or `cls x1 y1 x2 y2 ...` (a polygon,
    as Roboflow writes for some annotations: 49 of the set's 1,202 rows, in 17 photos), whose
    bounding box is the index box, as Ultralytics reads it. None for a malformed row."""
    v = [float(x) for x in parts[1:]]
    if len(v) == 4:
        cx, cy, bw, bh = v
        return cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if len(v) >= 6 and len(v) % 2 == 0:
        xs, ys = v[0::2], v[1::2]
        return min(xs), min(ys), max(xs), max(ys)
    return None


def items(split: str | None = None, root: Path = REAL_ROOT, *, checked: bool = True) -> list[RealItem]:
    """Every labelled photo (optionally one split), card backs dropped, boxes in pixels.

    `checked` applies `datasets.real_labels`: the rows found naming another card than the photo shows
    are renamed, slips (boxes too thin to hold an index) dropped, and the cards the photo shows but no
    row names are listed as `unlabelled`; False gives the set as labelled."""
    if not (root / "data.yaml").exists():
        raise FileNotFoundError(f"real photo set not found at {root}")
    names = _class_names(root)
    out = []
    for img in sorted((root / "images").glob("*.jpg")):
        if split is not None and split_of(img) != split:
            continue
        im = cv2.imread(str(img))
        if im is None:
            continue
        h, w = im.shape[:2]
        cards = []
        label = root / "labels" / (img.stem + ".txt")
        for row, line in enumerate(label.read_text().splitlines() if label.exists() else []):
            parts = line.split()
            box = label_box(parts) if parts else None
            card = from_real_name(names[int(parts[0])]) if box is not None else None
            if card is None:
                continue
            x1, y1, x2, y2 = box
            px = (x1 * w, y1 * h, x2 * w, y2 * h)
            if checked:
                if is_slip(px):
                    continue
                card = corrected(img.stem, row, card)
            cards.append((card, px))
        unlabelled = tuple(u.card for u in unlabelled_in(img.stem)) if checked else ()
        named = {c for c, _ in cards} & set(unlabelled)
        if named:
            raise StaleFixError(f"{img.stem}.txt now names {sorted(named)}, listed as unlabelled: the "
                                "real set changed; check the photo again")
        out.append(RealItem(img, w, h, cards, unlabelled))
    return out


def export_yolo(out: Path, split: str, root: Path = REAL_ROOT) -> int:
    """Write one split as YOLO images/labels with our class ids (images are symlinked, not copied)."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    n = 0
    for it in items(split, root):
        link = out / "images" / it.image.name
        if not link.exists():
            link.symlink_to(it.image.resolve())
        rows = []
        for card, (x1, y1, x2, y2) in it.cards:
            cx, cy = (x1 + x2) / 2 / it.width, (y1 + y2) / 2 / it.height
            bw, bh = (x2 - x1) / it.width, (y2 - y1) / it.height
            rows.append(f"{CLASS_INDEX[card]} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
        (out / "labels" / (it.image.stem + ".txt")).write_text("\n".join(rows) + ("\n" if rows else ""))
        n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Export the real photo set as a YOLO set with our class ids")
    p.add_argument("--export", required=True, type=Path)
    p.add_argument("--split", choices=SPLITS, default="finetune")
    args = p.parse_args(argv)
    print(f"wrote {export_yolo(args.export, args.split)} images to {args.export}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
