"""Where the sure proposals are small, the detail view is read again and its boxes replace them."""

from __future__ import annotations

import numpy as np
import pytest

from vision.zoom import ZoomConfig, rezoom, zoom_windows


def _row(x: float, y: float, n: int, side: float) -> list[list[float]]:
    return [[x + 30 * i, y, x + 30 * i + side * 0.7, y + side] for i in range(n)]


@pytest.mark.parametrize(("boxes", "scores", "windows"), [
    (_row(100, 100, 3, 14), [0.9] * 3, 1),  # a seat's worth of small indices: one window
    (_row(100, 100, 2, 14), [0.9] * 2, 0),  # two are not a seat
    (_row(100, 100, 3, 14), [0.9, 0.9, 0.1], 0),  # a weak proposal says nothing of index size
    (_row(100, 100, 3, 30), [0.9] * 3, 0),  # indices big enough for the first pass
    (_row(100, 100, 3, 14) + _row(900, 700, 4, 14), [0.9] * 7, 2),  # two far seats: two windows
])
def test_windows_open_around_groups_of_sure_small_proposals(boxes, scores, windows) -> None:
    got = zoom_windows(np.array(boxes, np.float32), np.array(scores, np.float32), (960, 1280))
    assert len(got) == windows
    for x0, y0, x1, y1 in got:  # each window holds its proposals whole, with room around them
        held = [b for b in boxes if x0 <= b[0] and b[2] <= x1 and y0 <= b[1] and b[3] <= y1]
        assert len(held) >= 3 and x1 - x0 > 3 * 14


@pytest.mark.parametrize("has_detail", [True, False])
def test_the_detail_views_boxes_join_the_first_pass_in_photo_pixels(has_detail: bool) -> None:
    """A fake proposer that finds, in any image it is given, the one index drawn at detail scale;
    a photo without a detail view has the window enlarged twice instead."""
    first = np.array(_row(100, 100, 3, 14) + [[600, 400, 640, 450]], np.float32)
    scores = np.array([0.9, 0.8, 0.7, 0.95], np.float32)
    detail = np.zeros((1920, 2560, 3), np.uint8) if has_detail else None
    truth = np.array(_row(100, 100, 3, 14), np.float32) + np.array([0.5, 0.5, 0.5, 0.5], np.float32)
    seen: list[tuple[int, ...]] = []
    [(x0, y0, x1, y1)] = zoom_windows(first, scores, (960, 1280))

    def infer(img: np.ndarray):
        seen.append(img.shape)
        return (truth * 2 - np.array([x0 * 2, y0 * 2] * 2, np.float32)), np.full(3, 0.99, np.float32)

    boxes, got_scores = rezoom(infer, np.zeros((960, 1280, 3), np.uint8), detail, first, scores, 0.5,
                               ZoomConfig())
    assert seen == [((y1 - y0) * 2, (x1 - x0) * 2, 3)]  # the window, read at twice the scale
    assert np.allclose(np.sort(boxes[:3], axis=0), np.sort(truth, axis=0), atol=0.01)
    assert boxes[3].tolist() == [600, 400, 640, 450] and got_scores.tolist()[3] == pytest.approx(0.95)
    assert len(boxes) == 4


def test_off_leaves_the_first_pass_alone() -> None:
    first = np.array(_row(100, 100, 3, 14), np.float32)
    boxes, _ = rezoom(lambda img: pytest.fail("read again"), np.zeros((960, 1280, 3), np.uint8),
                      np.zeros((1920, 2560, 3), np.uint8), first, np.full(3, 0.9, np.float32), 0.5,
                      ZoomConfig(enabled=False))
    assert np.array_equal(boxes, first)
