"""The dataset builder writes a YOLO set a trainer can open as it is."""

from __future__ import annotations

from pathlib import Path

from datasets.build import build, plan
from vision.classes import CLASS_NAMES


def test_build_writes_valid_yolo_set(tmp_path):
    y = build(tmp_path / "ds", n_train=8, n_val=3, seed=2, imgsz=320, workers=1, progress=False)
    text = y.read_text().splitlines()
    fields = {
        line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in text if not line.startswith(" ")
    }
    for key in ("train", "val", "path"):
        p = Path(fields[key])
        assert p.is_absolute() and p.is_dir()
    assert int(fields["nc"]) == 54
    names = [line.split(":", 1)[1].strip() for line in text if line.startswith("  ")]
    assert tuple(names) == CLASS_NAMES
    for split, n in (("train", 8), ("val", 3)):
        imgs = sorted((tmp_path / "ds" / split / "images").glob("*.jpg"))
        assert len(imgs) == n
        for img in imgs:
            lab = tmp_path / "ds" / split / "labels" / (img.stem + ".txt")
            for line in lab.read_text().splitlines():
                c, *v = line.split()
                assert 0 <= int(c) < 54
                assert all(0 <= float(x) <= 1 for x in v)


def test_plan_is_fixed_by_seed_and_has_negatives():
    a, b = plan(2000, "train", 1), plan(2000, "train", 1)
    assert a == b
    assert sum(j.tiles for j in a) == 2000
    neg = sum(j.tiles for j in a if j.kind == "negative") / 2000
    assert 0.02 < neg < 0.1
