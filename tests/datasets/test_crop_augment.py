"""The crop set's image-level augmentations: a squeezed photo and a dark deck keep their labels right."""

from __future__ import annotations

import numpy as np

from datasets.crops import MAX_SQUEEZE, crops_of_image, recolour_dark, squeeze


def _index_image(tmp_path):
    """A white card with a black and a red ink blob on a grey table, and its YOLO labels."""
    import cv2

    img = np.full((200, 300, 3), 90, np.uint8)
    img[40:160, 60:240] = 255
    img[60:100, 80:110] = (0, 0, 0)  # black ink
    img[60:100, 190:220] = (30, 30, 220)  # red ink (BGR)
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), img)
    labels = np.array([[0, 95 / 300, 80 / 200, 30 / 300, 40 / 200],
                       [13, 205 / 300, 80 / 200, 30 / 300, 40 / 200]])
    return img, path, labels


def test_squeeze_shrinks_one_axis_within_the_limit():
    img = np.zeros((300, 400, 3), np.uint8)
    for seed in range(40):
        out = squeeze(img, np.random.default_rng(seed))
        fy, fx = img.shape[0] / out.shape[0], img.shape[1] / out.shape[1]
        assert min(fx, fy) == 1.0, "only one axis shrinks"
        assert 1.0 <= max(fx, fy) <= MAX_SQUEEZE + 0.01


def test_dark_deck_turns_paper_dark_and_keeps_red_and_black_apart():
    img = np.zeros((3, 1, 3), np.uint8)
    img[0] = 255  # paper
    img[1] = 0  # black ink
    img[2] = (20, 20, 230)  # red ink, BGR
    out = recolour_dark(img, np.random.default_rng(0)).astype(int)
    paper, black, red = out[0, 0], out[1, 0], out[2, 0]
    assert paper.max() < 60, "paper becomes near black"
    assert black.mean() > 120 and red.mean() > 100, "ink becomes light"
    assert red[2] - red[0] > 80, "red ink turns gold (much more red than blue)"


def test_squeezed_and_dark_crops_still_hold_their_ink(tmp_path):
    """The label follows the squeeze: every crop of the black index still centres on dark/light ink."""
    _, path, labels = _index_image(tmp_path)
    for seed in range(10):
        rng = np.random.default_rng(seed)
        xs, ys = crops_of_image(path, labels, rng, bg_share=0.0, size=40, stretch=1.0, dark=0.0)
        centre = {y: x[14:26, 14:26].astype(int) for x, y in zip(xs, ys, strict=True)}
        assert centre[0].mean() < 80, f"seed {seed}: black index crop is not on its ink"
        red = centre[13]
        assert (red[..., 2] - red[..., 0]).mean() > 100, f"seed {seed}: red index crop is not on its ink"
    rng = np.random.default_rng(1)
    xs, ys = crops_of_image(path, labels, rng, bg_share=0.0, size=40, stretch=0.0, dark=1.0)
    centre = {y: x[14:26, 14:26].astype(int) for x, y in zip(xs, ys, strict=True)}
    assert centre[0].mean() > 120, "dark deck: the black index's ink is now light"
