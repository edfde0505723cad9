"""Reader for the real labelled photos (cardcounter, 640x640, YOLO labels, CC BY 4.0).

``python -m datasets.real --export DIR --split finetune`` writes one half as a YOLO set with our
class ids, so a detector can be fine-tuned on it and measured on the other half. The split is a
hash of the file name: stable across machines and independent of directory listing order.
The photos themselves are never copied into the repository.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import cv2

from vision.classes import CLASS_INDEX, CLASS_NAMES, from_real_name

DEFAULT_ROOT = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "real" / "cardcounter"
SPLITS = ("finetune", "test")


@dataclass(frozen=True)
class RealItem:
    image: Path
    cards: list[tuple[str, tuple[float, float, float, float]]]  # (card, (x1, y1, x2, y2) pixels)
    width: int
    height: int


def real_root(root: Path | None = None) -> Path:
    if root is not None:
        return root
    for cand in (DEFAULT_ROOT, Path("/work/shared/datasets/real/cardcounter")):
        if cand.is_dir():
            return cand
    return DEFAULT_ROOT


def real_names(root: Path) -> list[str]:
    """Class names from the set's data.yaml (read by hand: no YAML dependency for one list)."""
    text = (root / "data.yaml").read_text()
    m = re.search(r"^names:\s*\[(.*?)\]", text, re.M | re.S)
    if not m:
        raise ValueError(f"no names list in {root / 'data.yaml'}")
    return [s.strip().strip("'\"") for s in m.group(1).split(",") if s.strip()]


def split_of(image: Path, test_fraction: float = 0.5) -> str:
    """'test' or 'finetune', from a hash of the photo's base name (before Roboflow's '.rf.' suffix)."""
    base = image.name.split(".rf.")[0]
    h = int(hashlib.sha1(base.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "test" if h < test_fraction else "finetune"


def items(root: Path | None = None, split: str | None = None) -> list[RealItem]:
    """All labelled photos (optionally one split), BACK boxes dropped, classes in our notation."""
    root = real_root(root)
    names = real_names(root)
    out = []
    for img in sorted((root / "images").iterdir()):
        if img.suffix.lower() not in (".jpg", ".jpeg", ".png"):
            continue
        if split is not None and split_of(img) != split:
            continue
        im = cv2.imread(str(img), cv2.IMREAD_UNCHANGED)
        if im is None:
            continue
        h, w = im.shape[:2]
        cards = []
        lab = root / "labels" / (img.stem + ".txt")
        if lab.is_file():
            for line in lab.read_text().splitlines():
                parts = line.split()
                if len(parts) != 5:
                    continue
                card = from_real_name(names[int(parts[0])])
                if card is None:
                    continue
                cx, cy, bw, bh = (float(v) for v in parts[1:])
                cards.append(
                    (card, ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
                )
        out.append(RealItem(img, cards, w, h))
    return out


def export(out: Path, split: str, root: Path | None = None) -> int:
    """Write ``split`` as a YOLO set (images/, labels/ with our ids, data.yaml); return image count."""
    its = items(root, split)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    for it in its:
        shutil.copyfile(it.image, out / "images" / it.image.name)
        lines = []
        for card, (x1, y1, x2, y2) in it.cards:
            lines.append(
                f"{CLASS_INDEX[card]} {(x1 + x2) / 2 / it.width:.6f} {(y1 + y2) / 2 / it.height:.6f} "
                f"{(x2 - x1) / it.width:.6f} {(y2 - y1) / it.height:.6f}\n"
            )
        (out / "labels" / (it.image.stem + ".txt")).write_text("".join(lines))
    o = out.resolve()
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(CLASS_NAMES))
    (out / "data.yaml").write_text(
        f"path: {o}\ntrain: {o / 'images'}\nval: {o / 'images'}\nnc: {len(CLASS_NAMES)}\nnames:\n{names}\n"
    )
    return len(its)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--export", type=Path, required=True, help="output directory")
    ap.add_argument("--split", choices=SPLITS, default="finetune")
    ap.add_argument("--root", type=Path, default=None, help="cardcounter directory (default: shared/)")
    args = ap.parse_args()
    n = export(args.export, args.split, args.root)
    print(f"{n} images of split {args.split!r} -> {args.export}")


if __name__ == "__main__":
    main()
