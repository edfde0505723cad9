"""Which real labelled photos are held out: the `test` half, never trained or calibrated on.

The model-building tools here (`vision.quantize`'s calibration) and the dataset tools
(`datasets.real`, `datasets.crops`) must agree on it, and `vision` may not import `datasets`, so the
rule lives here. The split is a pure function of the original photo's name (the part before
Roboflow's `.rf.` suffix): every tool agrees on it without a file listing, and a photo never lands
on both sides. The photos themselves stay in ../shared/datasets/real/cardcounter (never copied in).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REAL_ROOT = Path(
    os.environ.get("SHISANSHUI_REAL", REPO.parent / "shared" / "datasets" / "real" / "cardcounter")
)
SPLITS = ("finetune", "test")


def original_name(path: Path) -> str:
    return path.name.split(".rf.")[0]


def split_of(path: Path) -> str:
    """Half the photos fine-tune, half measure: a stable hash of the original photo's name."""
    h = int(hashlib.sha1(original_name(path).encode()).hexdigest(), 16)
    return SPLITS[h % 2]


def in_test_half(path: Path, root: Path | None = None) -> bool:
    """Whether a file (or a link to one) is a real photo of the `test` half: never trained or
    calibrated on, since it is what the detector is measured on. `root` defaults to `REAL_ROOT` as
    it is when called (tests point it elsewhere)."""
    target = Path(path).resolve()
    return (root or REAL_ROOT).resolve() in target.parents and split_of(target) == "test"
