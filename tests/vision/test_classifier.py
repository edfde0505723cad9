"""Second-stage index classifier: ONNX runtime, which file, crop dataset
(the detector with it: tests/vision/test_detector.py).

`tiny_cls.onnx` (tests/data/vision/make_tiny_cls.py) reads only a crop's mean colour: a red index on
white is "Ah", a blue one "As", white or grey "bg"; so the right answer for any painted photo is known.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.classes import CLASS_NAMES
from vision.classifier import (
    CLASSIFIER_NAMES,
    IndexClassifier,
    geometric_mean,
    resolve_classifier,
)
from vision.crops import CROP_SIZE

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "vision"
TINY = DATA / "tiny_cls.onnx"


# -- runtime ---------------------------------------------------------------------------------------
def test_tiny_model_reads_crops_in_batches():
    clf = IndexClassifier(TINY, batch=2)
    assert clf.names == CLASSIFIER_NAMES and clf.size == 40
    img = np.full((100, 200, 3), 255, np.uint8)
    img[20:60, 20:40] = (0, 0, 255)  # red
    img[20:60, 120:140] = (255, 0, 0)  # blue
    boxes = np.array([[20, 20, 40, 60], [120, 20, 140, 60], [60, 60, 80, 99]], float)
    p = clf.probabilities(img, boxes)
    assert p.shape == (3, 55) and np.allclose(p.sum(1), 1, atol=1e-5)
    assert [CLASSIFIER_NAMES[i] for i in p.argmax(1)] == ["Ah", "As", "bg"]
    assert clf.probabilities(img, np.zeros((0, 4))).shape == (0, 55)


def test_wrong_class_list_is_refused():
    class Sess:
        def get_inputs(self):
            return [SimpleNamespace(name="crops", shape=["batch", 3, 40, 40])]

        def get_modelmeta(self):
            return SimpleNamespace(custom_metadata_map={"names": repr(list(CLASS_NAMES)), "crop_size": "40"})

    with pytest.raises(ValueError, match="background"):
        IndexClassifier(session=Sess())


def test_resolve_classifier(tmp_path, monkeypatch):
    monkeypatch.delenv("CARDS_CLASSIFIER", raising=False)
    model = tmp_path / "cards.onnx"
    assert resolve_classifier("auto", model) is None
    (tmp_path / "index_classifier_2.onnx").write_bytes(b"x")
    assert resolve_classifier("auto", model) is None  # a second opinion alone is no namer
    (tmp_path / "index_classifier.onnx").write_bytes(b"x")
    assert resolve_classifier("auto", model) == (tmp_path / "index_classifier.onnx",
                                                 tmp_path / "index_classifier_2.onnx")
    (tmp_path / "index_classifier_2.onnx").unlink()
    assert resolve_classifier("auto", model) == (tmp_path / "index_classifier.onnx",)
    assert resolve_classifier("auto", None) is None  # a fake session is never paired
    assert resolve_classifier(TINY, model) == (TINY,)
    assert resolve_classifier(f"{TINY}+{tmp_path / 'b.onnx'}", model) == (TINY, tmp_path / "b.onnx")
    monkeypatch.setenv("CARDS_CLASSIFIER", str(TINY))
    assert resolve_classifier("auto", model) == (TINY,)


class _ColourSession:
    """A fake member: each crop's probabilities chosen by its colour (red, blue, else white), and a
    count of the crops it was asked to read."""

    def __init__(self, red: dict[str, float], size: int = 40):
        self.red, self.size, self.read = red, size, 0

    def get_inputs(self):
        return [SimpleNamespace(name="crops", shape=["batch", 3, self.size, self.size])]

    def get_modelmeta(self):
        return SimpleNamespace(custom_metadata_map={"names": repr(list(CLASSIFIER_NAMES))})

    def run(self, _names, feeds):
        blob = feeds["crops"]
        self.read += len(blob)
        out = np.full((len(blob), len(CLASSIFIER_NAMES)), 1e-6)
        for row, crop in zip(out, blob, strict=True):
            b = crop[2].mean()  # RGB planes
            probs = self.red if b < 0.95 else {"bg": 1.0}  # any red in the crop
            for name, v in probs.items():
                row[CLASSIFIER_NAMES.index(name)] = v
        return [np.log(out)]


def test_a_committee_second_member_reads_only_possible_indices():
    """The first member reads both crops, and the red one again turned; the second only the red one
    as it lies (the white one is surely background). The read is the normalised geometric mean of
    the red crop's reads: the first member's three (the same at every angle) and the second's."""
    first = _ColourSession({"Ah": 0.6, "As": 0.4})
    second = _ColourSession({"Ah": 0.1, "As": 0.9})
    clf = IndexClassifier(session=[first, second])
    img = np.full((100, 200, 3), 255, np.uint8)
    img[20:60, 20:40] = (0, 0, 255)  # red (BGR)
    p = clf.probabilities(img, np.array([[20, 20, 40, 60], [120, 20, 140, 60]], float))
    assert (first.read, second.read) == (2 + len(clf.turns), 1) == (4, 1)
    ah, as_ = (0.6**3 * 0.1) ** 0.25, (0.4**3 * 0.9) ** 0.25
    assert p[0, CLASSIFIER_NAMES.index("As")] == pytest.approx(as_ / (ah + as_), abs=1e-4)
    assert CLASSIFIER_NAMES[int(p[1].argmax())] == "bg" and p[1, -1] == pytest.approx(1.0, abs=1e-4)


def test_a_single_net_reads_its_unsure_crops_again_at_two_more_contexts():
    """Without a second opinion the unsure red crop is cut twice more (`REFINE_CONTEXTS`) and read
    again; the surely-background white one is read once."""
    only = _ColourSession({"Ah": 0.6, "As": 0.4})
    clf = IndexClassifier(session=only)
    img = np.full((100, 200, 3), 255, np.uint8)
    img[20:60, 20:40] = (0, 0, 255)
    p = clf.probabilities(img, np.array([[20, 20, 40, 60], [120, 20, 140, 60]], float))
    assert only.read == 2 + len(clf.refine_contexts) + len(clf.turns) == 6
    assert p[0, CLASSIFIER_NAMES.index("Ah")] == pytest.approx(0.6, abs=1e-4)


class _UprightSession(_ColourSession):
    """A fake member unsure of a red index whose red lies in the crop's top half (Ah or As, even),
    sure of it at any other angle."""

    def run(self, _names, feeds):
        blob = feeds["crops"]
        self.read += len(blob)
        out = np.full((len(blob), len(CLASSIFIER_NAMES)), 1e-6)
        for row, crop in zip(out, blob, strict=True):
            red = crop[2] < 0.5  # the blue plane is dark where the crop is red
            ys = np.nonzero(red)[0]
            if not len(ys):
                row[-1] = 1.0
                continue
            top = ys.mean() < 0.4 * crop.shape[1]
            read = (0.5, 0.5) if top else (0.9, 0.1)
            row[CLASSIFIER_NAMES.index("Ah")], row[CLASSIFIER_NAMES.index("As")] = read
        return [np.log(out)]


def test_an_unsure_crop_is_read_again_turned_sideways():
    """The red mark sits in the box's top half: read as it lies neither net can choose, turned a
    quarter either way the first can; the combined read is the geometric mean of the first net's
    three angles' reads and the second's upright one."""
    net, other = _UprightSession({}), _UprightSession({})
    clf = IndexClassifier(session=[net, other])
    img = np.full((100, 100, 3), 255, np.uint8)
    img[20:40, 30:50] = (0, 0, 255)  # the top half of the 20 x 40 box below
    p = clf.probabilities(img, np.array([[30, 20, 50, 60]], float))
    assert (net.read, other.read) == (1 + 2, 1)
    ah, as_ = (0.5 * 0.9**2 * 0.5) ** (1 / 4), (0.5 * 0.1**2 * 0.5) ** (1 / 4)
    assert p[0, CLASSIFIER_NAMES.index("Ah")] == pytest.approx(ah / (ah + as_), abs=1e-3)
    clf.turns = ()
    assert clf.probabilities(img, np.array([[30, 20, 50, 60]], float))[0, CLASSIFIER_NAMES.index("Ah")] \
        == pytest.approx(0.5, abs=1e-3)


@pytest.mark.parametrize(("first_read", "read_again"), [
    ({"Ah": 0.6, "As": 0.4}, True),  # leans to a card, unsure of it
    ({"Ah": 0.75, "bg": 0.25}, True),  # some background, still under REFINE_BELOW_BG
    ({"Ah": 0.65, "bg": 0.35}, False),  # as likely background as REFINE_BELOW_BG: left as read
    ({"Ah": 0.95, "As": 0.05}, False),  # sure the first time
    ({n: 0.16 for n in ("Ah", "As", "Kh", "Ks", "Qh")} | {"bg": 0.2}, False),  # no card over 0.2
])
def test_which_crops_the_committee_reads_again(first_read, read_again):
    """Only a crop that leans to a card (top >= `REFINE_FROM_TOP`) without being sure of it (top <
    `REFINE_BELOW_TOP`) and is unlike background (< `REFINE_BELOW_BG`) costs the extra reads."""
    first, second = _ColourSession(first_read), _ColourSession({"Ah": 0.9, "As": 0.1})
    clf = IndexClassifier(session=[first, second])
    img = np.full((100, 100, 3), 255, np.uint8)
    img[20:60, 20:40] = (0, 0, 255)
    p = clf.probabilities(img, np.array([[20, 20, 40, 60]], float))
    assert (first.read, second.read) == ((1 + len(clf.turns), 1) if read_again else (1, 0))
    assert (p[0, CLASSIFIER_NAMES.index("Ah")] > max(first_read.values())) == read_again


def test_a_committee_member_at_another_crop_size_is_refused():
    with pytest.raises(ValueError, match="member 1"):
        IndexClassifier(session=[_ColourSession({}), _ColourSession({}, size=56)])


def test_geometric_mean_of_one_read_is_that_read():
    p = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]], np.float32)
    assert np.allclose(geometric_mean([p]), p, atol=1e-6)
    assert np.allclose(geometric_mean([p, p[:, ::-1]]), [[0.363, 0.274, 0.363], [0.425, 0.150, 0.425]],
                       atol=0.002)


# -- the crop dataset ------------------------------------------------------------------------------
def _yolo_set(root: Path, n: int, rng: np.random.Generator) -> None:
    for sub in ("images", "labels"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for i in range(n):
        img = np.full((160, 160, 3), 230, np.uint8)
        rows = []
        for k in range(2):
            x, y = 20 + 70 * k, int(rng.integers(10, 100))
            img[y : y + 40, x : x + 20] = (0, 0, 200)
            rows.append(f"{13 + k} {(x + 10) / 160:.5f} {(y + 20) / 160:.5f} {20 / 160:.5f} {40 / 160:.5f}")
        cv2.imwrite(str(root / "images" / f"t{i}.jpg"), img)
        (root / "labels" / f"t{i}.txt").write_text("\n".join(rows) + "\n")


def test_crops_cli_on_a_handful_of_images(tmp_path):
    rng = np.random.default_rng(3)
    synth = tmp_path / "synth"
    _yolo_set(synth / "train", 4, rng)
    _yolo_set(synth / "val", 2, rng)
    out = tmp_path / "crops"
    cmd = [sys.executable, "-m", "datasets.crops", "--out", str(out), "--train", "30", "--val", "6",
           "--seed", "1", "--synth", str(synth)]
    subprocess.run(cmd, check=True, cwd=REPO, capture_output=True)
    tr = np.load(out / "train.npz")
    assert tr["x"].shape == (30, CROP_SIZE, CROP_SIZE, 3) and tr["x"].dtype == np.uint8
    assert set(tr["y"].tolist()) <= {13, 14, 54} and {13, 14} <= set(tr["y"].tolist())
    fg = tr["x"][tr["y"] != 54]
    assert (fg[:, 15:25, 17:23, 2] > 150).all()  # the red index sits in the middle of every crop
    info = json.loads((out / "info.json").read_text())
    assert info["val"]["crops"] == 6 and info["names"][-1] == "bg"


def test_crops_refuse_the_real_test_half(tmp_path, monkeypatch):
    from datasets import crops
    from vision import holdout

    monkeypatch.setattr(holdout, "REAL_ROOT", tmp_path)
    monkeypatch.setattr(holdout, "split_of", lambda p: "test")
    (tmp_path / "x.jpg").write_bytes(b"")
    with pytest.raises(SystemExit, match="test half"):
        crops.refuse_test_half([(tmp_path / "x.jpg", np.zeros((0, 5)))])


# -- training (extra `train`, in a subprocess) -----------------------------------------------------
@pytest.mark.train
@pytest.mark.timeout(300)
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="training needs torch ([train] extra)")
def test_a_few_training_steps_export_a_loadable_onnx(tmp_path):
    rng = np.random.default_rng(0)
    data = tmp_path / "crops"
    data.mkdir()
    for split, n in (("train", 64), ("val", 16)):
        np.savez(data / f"{split}.npz", x=rng.integers(0, 255, (n, 40, 40, 3), dtype=np.uint8),
                 y=rng.integers(0, 55, n), src=np.zeros(n, np.int8))
    pt, onnx_path = tmp_path / "c.pt", tmp_path / "c.onnx"
    cmd = [sys.executable, "-m", "vision.train_classifier", "--data", str(data), "--steps", "3",
           "--batch", "8", "--width", "8", "--out", str(pt), "--onnx", str(onnx_path)]
    subprocess.run(cmd, check=True, cwd=REPO, capture_output=True)
    clf = IndexClassifier(onnx_path)
    p = clf.probabilities(np.zeros((80, 80, 3), np.uint8), np.array([[10, 10, 30, 50], [40, 40, 60, 60]]))
    assert p.shape == (2, 55) and np.allclose(p.sum(1), 1, atol=1e-5)
