"""Mining a rendered photo as the detector reads it: the same proposals, crops the namer reads alike."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from datasets.crops import BG
from datasets.proposals import mine_scenes, runtime_proposals
from datasets.synth.writer import write_scene
from tests.datasets.conftest import procedural
from vision.classifier import DEFAULT_NAMERS
from vision.crops import crops_to_blob
from vision.detector import get_detector
from vision.imageio import open_photo


@pytest.fixture(scope="module")
def scene_dir(tmp_path_factory):
    """One procedural table at 2000 px: larger than the working size, so crops come from the decode
    above it, as on a phone photo."""
    out = tmp_path_factory.mktemp("scenes")
    write_scene(out, "000000", procedural(31, 0, size=2000, kind="table"))
    return out


def test_the_detectors_reads_are_among_the_mined_proposals(scene_dir):
    det = get_detector()
    image = scene_dir / "images" / "000000.jpg"
    boxes, crops, (w, h) = runtime_proposals(det, image)
    reads = det.read_indices(open_photo(image, long_side=det.scale.long_side, detail=True))
    assert max(w, h) == 2000 and len(crops) == len(boxes) and crops.shape[1:] == (56, 56, 3)
    assert len(reads.sure) >= 20
    for d in reads.sure:  # every kept read is one of the proposals, box for box
        assert np.abs(boxes - np.array(d.box)).max(axis=1).min() < 1e-3


def test_mined_crops_are_labelled_as_the_namer_reads_them(scene_dir):
    """Labelled against the scene's own labels; the shipped namer reads the card crops as their labels
    (a crop cut at the wrong place or scale would not), and background is kept too."""
    det = get_detector()
    xs, ys, src = mine_scenes(det, [scene_dir], max_images=0, max_bg=10, seed=0)
    y = np.array(ys)
    assert len(xs) == len(ys) == len(src) and (y == BG).sum() == 10
    cards = np.flatnonzero(y != BG)
    assert len(cards) >= 20
    session = ort.InferenceSession(str(DEFAULT_NAMERS[0]), providers=["CPUExecutionProvider"])
    read = session.run(None, {"crops": crops_to_blob([xs[i] for i in cards])})[0].argmax(1)
    assert np.mean(read == y[cards]) >= 0.9
