"""Finder tiles are cut from a phone photo's working image and detail view, labels kept in place."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.crops import read_yolo
from datasets.working_tiles import build_tiles

W, H = 4032, 3024
BOX = (2000, 1400, 2120, 1580)  # one white "index" on a dark table, in photo pixels


def _photo_folder(root: Path) -> Path:
    img = np.full((H, W, 3), 40, np.uint8)
    x1, y1, x2, y2 = BOX
    img[y1:y2, x1:x2] = 255
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    cv2.imwrite(str(root / "images" / "p0.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    cx, cy, bw, bh = (x1 + x2) / 2 / W, (y1 + y2) / 2 / H, (x2 - x1) / W, (y2 - y1) / H
    (root / "labels" / "p0.txt").write_text(f"7 {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}\n")
    return root


def _white_extent(tile: np.ndarray) -> tuple[int, int]:
    ys, xs = np.nonzero(tile[..., 1] > 150)
    return int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1


def test_tiles_come_from_both_views_at_the_detectors_scales(tmp_path):
    yaml = pytest.importorskip("yaml")
    src = _photo_folder(tmp_path / "src")
    extra = tmp_path / "real" / "images"
    extra.mkdir(parents=True)
    y = build_tiles([src], tmp_path / "out", tiles=2, seed=1, imgsz=320, val_share=0.0,
                    progress=False, extra_train=(extra, extra))
    data = yaml.safe_load(y.read_text())
    assert data["train"] == [str((tmp_path / "out" / "train" / "images").resolve()), str(extra), str(extra)]
    assert len(data["names"]) == data["nc"] == 54

    tiles = read_yolo(tmp_path / "out" / "train")
    assert [t.stem.rsplit("_", 2)[1] for t, _ in tiles] == ["v0", "v0", "v1", "v1"]
    # the working image is the photo at long side 1440, the detail view its half-size decode (2016)
    expect = {"v0": 1440 / W, "v1": 2016 / W}
    for t, rows in tiles:
        img = cv2.imread(str(t))
        (c, cx, cy, bw, bh), = rows
        assert c == 7
        s = expect[t.stem.rsplit("_", 2)[1]]
        # at this view's scale, cut by the tile's edge at most to the 60% `tiles_from` keeps
        for size, full in ((bw * 320, (BOX[2] - BOX[0]) * s), (bh * 320, (BOX[3] - BOX[1]) * s)):
            assert 0.6 * full - 1.5 <= size <= full + 1.5
        # and the label is the white box's place in this tile
        ww, wh = _white_extent(img)
        assert (ww, wh) == (pytest.approx(bw * 320, abs=3), pytest.approx(bh * 320, abs=3))
        ys, xs = np.nonzero(img[..., 1] > 150)
        assert (xs.min() + xs.max()) / 2 == pytest.approx(cx * 320, abs=2)
        assert (ys.min() + ys.max()) / 2 == pytest.approx(cy * 320, abs=2)


@pytest.mark.parametrize(("share", "split"), [(0.0, "train"), (1.0, "val")])
def test_a_photo_goes_whole_to_one_split(tmp_path, share, split):
    src = _photo_folder(tmp_path / "src")
    build_tiles([src], tmp_path / "out", tiles=2, seed=1, imgsz=320, val_share=share, progress=False)
    other = "val" if split == "train" else "train"
    assert len(list((tmp_path / "out" / split / "images").glob("*.jpg"))) == 4
    assert not list((tmp_path / "out" / other / "images").glob("*.jpg"))
