"""YOLO label rows to pixel boxes: one reader for the data builders and the benchmarks."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.regions import yolo_boxes
from datasets.boxes import yolo_to_xyxy
from datasets.crops import read_label, read_yolo


@pytest.mark.parametrize(
    ("rows", "w", "h", "expected"),
    [
        ([[0, 0.5, 0.5, 1.0, 1.0]], 640, 480, [[0, 0, 640, 480]]),
        ([[7, 0.25, 0.75, 0.1, 0.2]], 100, 50, [[20, 32.5, 30, 42.5]]),
        ([[1, 0.0, 0.0, 0.2, 0.2], [2, 1.0, 1.0, 0.2, 0.2]], 10, 10, [[-1, -1, 1, 1], [9, 9, 11, 11]]),
        (np.zeros((0, 5)), 640, 480, np.zeros((0, 4))),
    ],
)
def test_yolo_rows_become_pixel_boxes(rows, w, h, expected):
    got = yolo_to_xyxy(np.array(rows, float), w, h)
    np.testing.assert_allclose(got, np.array(expected, float).reshape(-1, 4))


def test_a_label_file_reads_its_whole_rows_only(tmp_path):
    """Rows of five numbers; a short row (a slip) and a missing file give nothing."""
    label = tmp_path / "a.txt"
    label.write_text("3 0.5 0.5 0.1 0.2\n4 0.1 0.1\n\n12 0.25 0.75 0.5 0.5\n")
    np.testing.assert_array_equal(read_label(label), [[3, 0.5, 0.5, 0.1, 0.2], [12, 0.25, 0.75, 0.5, 0.5]])
    assert read_label(tmp_path / "missing.txt").shape == (0, 5)
    assert yolo_boxes(label, 200, 100) == [(90.0, 40.0, 110.0, 60.0), (0.0, 50.0, 100.0, 100.0)]


def test_a_yolo_folder_pairs_each_image_with_its_rows(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    for name in ("b", "a"):
        (tmp_path / "images" / f"{name}.jpg").write_bytes(b"")
    (tmp_path / "labels" / "b.txt").write_text("5 0.5 0.5 0.5 0.5\n")
    (a, rows_a), (b, rows_b) = read_yolo(tmp_path)
    assert (a.name, b.name) == ("a.jpg", "b.jpg")
    assert rows_a.shape == (0, 5) and rows_b.tolist() == [[5, 0.5, 0.5, 0.5, 0.5]]
