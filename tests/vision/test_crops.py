"""The namer's crop of an index (`vision.crops`): where the box lands, what lies outside the photo,
quarter turns, and a large box shrunk without aliasing."""

from __future__ import annotations

import cv2
import numpy as np

from vision.crops import CROP_SIZE, FILL, crop_box, crop_matrix


def test_crop_holds_the_box_centred_with_context():
    img = np.full((200, 300, 3), 255, np.uint8)
    img[50:130, 100:140] = (0, 0, 255)  # a 40 x 80 red box
    crop = crop_box(img, (100, 50, 140, 130), size=52, context=0.15)
    assert crop.shape == (52, 52, 3)
    # the box's long side spans 80 / (80 * 1.3) of the crop: rows 6..46, columns 13..39
    assert (crop[8:44, 16:36] == (0, 0, 255)).all()
    assert (crop[:, :10] == 255).all() and (crop[:, 43:] == 255).all()
    assert (crop[:4] == 255).all() and (crop[-4:] == 255).all()
    m = crop_matrix((100, 50, 140, 130), 52, 0.15)
    # box corners (continuous) land on crop corners 16, 6 and 36, 46 (continuous): -0.5 for indices
    assert np.allclose(m @ [99.5, 49.5, 1], [15.5, 5.5], atol=0.01)
    assert np.allclose(m @ [139.5, 129.5, 1], [35.5, 45.5], atol=0.01)


def test_crop_outside_the_image_is_grey():
    img = np.zeros((100, 100, 3), np.uint8)
    crop = crop_box(img, (-30, -30, -10, -10))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and (crop == FILL).all()
    half = crop_box(img, (-10, 40, 10, 60))
    assert (half[:, :8] == FILL).all() and (half[:, -8:] == 0).all()


def test_crop_commutes_with_quarter_turns():
    rng = np.random.default_rng(0)
    blocks = rng.integers(0, 255, (30, 40, 3), dtype=np.uint8)
    img = cv2.resize(blocks, (400, 300), interpolation=cv2.INTER_NEAREST)
    box = (120.0, 80.0, 150.0, 140.0)
    crop = crop_box(img, box).astype(int)
    H = img.shape[0]
    rot = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)  # (x, y) -> (H - y, x)
    rbox = (H - box[3], box[0], H - box[1], box[2])
    rcrop = crop_box(rot, rbox).astype(int)
    assert np.abs(np.rot90(crop, -1) - rcrop).max() <= 1


def test_big_box_is_shrunk_without_aliasing():
    img = np.zeros((2000, 2000, 3), np.uint8)
    img[:, ::2] = 255  # one-pixel stripes: a plain warp would alias them to solid colours
    crop = crop_box(img, (500, 500, 900, 1300))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert abs(float(crop.mean()) - 127.5) < 10 and crop.std() < 20
