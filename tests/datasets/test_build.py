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


def test_the_generator_imports_where_cairo_is_absent():
    """Rendering from the stored designs needs no cairo (a GPU machine has none): only fetching a
    design rasterises SVG, so `cairosvg` is imported there and nowhere else."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['cairosvg'] = None\n"
            "import datasets.build, datasets.crops, datasets.negatives, datasets.faces\n"
            "from datasets.faces import sources\n"
            "try:\n    sources.render_svg(b'<svg/>', 10)\nexcept ImportError:\n    print('needs cairosvg')\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "needs cairosvg"
