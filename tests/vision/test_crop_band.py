"""`mask_band`: a crop greyed beyond a band across its box's shorter side, and the namer members that
read their crops cut that way (`crop_band` in their metadata)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from vision.classifier import CLASSIFIER_NAMES, FILL, IndexClassifier, crop_box, mask_band

SIZE = 56


def _photo() -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.integers(0, 256, (200, 200, 3), dtype=np.uint8)


@pytest.mark.parametrize(("box", "band", "axis", "kept"), [
    # 20 x 40: the square is 52 px of photo (40 x 1.3) on 56 crop px; 1.5 x 20 px wide is 32.3 crop px
    ((80, 60, 100, 100), 1.5, 1, (11, 45)),
    ((80, 60, 100, 100), 1.0, 1, (17, 39)),
    ((60, 80, 100, 100), 1.5, 0, (11, 45)),  # 40 x 20 (a sideways index): rows are greyed
    ((90, 50, 100, 100), 2.0, 1, (19, 37)),  # a sliver, 10 x 50: 65 px of photo, 2 x 10 px on 17.2 crop px
])
def test_the_band_keeps_the_box_and_greys_the_rest_across_its_short_side(box, band, axis, kept):
    img = _photo()
    plain = crop_box(img, box, SIZE)
    banded = crop_box(img, box, SIZE, band=band)
    lo, hi = kept
    inside = [slice(None), slice(None)]
    inside[axis] = slice(lo, hi)
    np.testing.assert_array_equal(banded[tuple(inside)], plain[tuple(inside)])
    for cut in (slice(0, lo), slice(hi, SIZE)):
        outside = [slice(None), slice(None)]
        outside[axis] = cut
        assert (banded[tuple(outside)] == FILL).all()


@pytest.mark.parametrize("band", [0.0, 2.6])  # none; wider than the square (20 x 40: 2.6 x 20 > 52)
def test_no_band_or_one_wider_than_the_crop_changes_nothing(band):
    img = _photo()
    box = (80, 60, 100, 100)
    plain = crop_box(img, box, SIZE)
    np.testing.assert_array_equal(crop_box(img, box, SIZE, band=band), plain)
    np.testing.assert_array_equal(mask_band(plain, box, 0.15, 2.6), plain)


class _Recorder:
    """A fake member with a `crop_band` in its metadata (or none), unsure of every crop (so the
    committee reads each again), that keeps the crops it is given."""

    def __init__(self, band: float | None):
        self.band, self.blobs = band, []

    def get_inputs(self):
        return [SimpleNamespace(name="crops", shape=["batch", 3, SIZE, SIZE])]

    def get_modelmeta(self):
        meta = {"names": repr(list(CLASSIFIER_NAMES))}
        if self.band is not None:
            meta["crop_band"] = repr(self.band)
        return SimpleNamespace(custom_metadata_map=meta)

    def run(self, _names, feeds):
        self.blobs.append(feeds["crops"].copy())
        out = np.full((len(feeds["crops"]), len(CLASSIFIER_NAMES)), 1e-6)
        out[:, CLASSIFIER_NAMES.index("Ah")], out[:, CLASSIFIER_NAMES.index("As")] = 0.6, 0.4
        return [np.log(out)]


def test_each_committee_member_reads_crops_cut_with_its_own_band():
    """A white photo: the banded first member's crops are grey beyond the band (also turned), the
    second member, trained on plain crops, reads the same box plain (white to the edges)."""
    first, second = _Recorder(1.5), _Recorder(None)
    clf = IndexClassifier(session=[first, second])
    assert clf.bands == [1.5, 0.0]
    img = np.full((200, 200, 3), 255, np.uint8)
    clf.probabilities(img, np.array([[80, 60, 100, 100]], float))
    grey, white = FILL[0] / 255, 1.0
    upright = first.blobs[0][0]
    assert np.allclose(upright[:, :, :11], grey) and np.allclose(upright[:, :, 11:45], white)
    turned = first.blobs[1][0]  # a quarter turn: the grey band edges now lie across the rows
    assert np.allclose(turned[:, :11, :], grey) and np.allclose(turned[:, 11:45, :], white)
    assert np.allclose(second.blobs[0], white)
