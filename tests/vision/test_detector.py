"""The two-stage detector without the trained models: proposals from a one-class finder cut for
whole photos, named by the index classifier, deduplicated, boxes back in the photo's pixels.

`Finder` stands in for the shipped `models/cards.onnx` (a onnxruntime-like session with its outputs
`box_dist`, `cls_logits` and its metadata): it proposes one box per red or blue square, exactly on
the square, plus optionally a weak false box at a fixed place. `tiny_cls.onnx` names a red index "Ah",
a blue one "As", white or grey "bg" (tests/data/vision/make_tiny_cls.py). So the right answer for any
photo painted here is known.
"""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.classifier import CLASSIFIER_NAMES
from vision.dedupe import drop_contained, drop_same_card_neighbours, side_by_side
from vision.detector import (
    DEDUPE_CONTAINED,
    Detector,
    ModelMismatchError,
    ModelMissingError,
)
from vision.proposer import ScaleConfig, nms
from vision.regions import RegionConfig
from vision.yolo_head import OUTPUTS, REG_MAX, anchor_grid

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"
TINY_CLS = DATA / "tiny_cls.onnx"
TINY_DET = DATA / "tiny_det.onnx"


def _logit(p: float) -> float:
    return float(np.log(p / (1 - p)))


class Finder:
    """A fake cut one-class finder: per red or blue component of the input, the stride-8 anchor
    holding its centre scores 0.9 with the component's box; `false_box` (input pixels, so read the
    photo whole) scores 0.08."""

    def __init__(self, false_box=None, outputs=OUTPUTS, names="{0: 'item'}"):
        self.false_box, self.outputs, self.names = false_box, outputs, names
        self.shapes: list[tuple[int, ...]] = []

    def get_inputs(self):
        return [SimpleNamespace(name="images", shape=[1, 3, "height", "width"])]

    def get_outputs(self):
        return [SimpleNamespace(name=n) for n in self.outputs]

    def get_modelmeta(self):
        return SimpleNamespace(custom_metadata_map={"names": self.names, "strides": "8,16,32"})

    def run(self, names, feeds):
        assert list(names) == list(OUTPUTS)
        x = feeds["images"]
        self.shapes.append(x.shape)
        assert x.dtype == np.float32 and x.shape[2] % 32 == 0 and x.shape[3] % 32 == 0
        hw = x.shape[2:]
        pts, st = anchor_grid(hw)
        box = np.full((1, 4 * REG_MAX, len(pts)), -50.0, np.float32)
        box[0, ::REG_MAX] = 0.0  # a zero-size box wherever nothing is found
        cls = np.full((1, 1, len(pts)), -20.0, np.float32)
        r, b = x[0, 0], x[0, 2]
        mask = (((r > 0.8) & (b < 0.2)) | ((b > 0.8) & (r < 0.2))).astype(np.uint8)
        n, _, stats, cents = cv2.connectedComponentsWithStats(mask)
        found = [(tuple(stats[k][:2]), tuple(stats[k][:2] + stats[k][2:4]), 0.9) for k in range(1, n)]
        if self.false_box is not None:
            found.append((self.false_box[:2], self.false_box[2:], 0.08))
        for (x0, y0), (x1, y1), p in found:
            a = int((int((y0 + y1) / 2 // 8)) * (hw[1] // 8) + (x0 + x1) / 2 // 8)  # a stride-8 anchor
            cx, cy = pts[a] * st[a]
            for side, d in enumerate(((cx - x0) / 8, (cy - y0) / 8, (x1 - cx) / 8, (y1 - cy) / 8)):
                lo, f = int(d), d - int(d)  # expectation lo + f from two bins
                box[0, side * REG_MAX:(side + 1) * REG_MAX, a] = -50.0
                box[0, side * REG_MAX + lo, a] = np.log(max(1 - f, 1e-12))
                box[0, side * REG_MAX + min(lo + 1, REG_MAX - 1), a] = np.log(max(f, 1e-12))
            cls[0, 0, a] = _logit(p)
        return [box, cls]


def detector(**kw) -> Detector:
    kw.setdefault("session", Finder())
    return Detector(classifier=kw.pop("classifier", TINY_CLS), **kw)


def paint(w, h, squares):
    """A white photo with red (card "Ah") or blue ("As") squares (x, y, side, card), BGR."""
    img = np.full((h, w, 3), 255, np.uint8)
    for x, y, side, card in squares:
        img[y : y + side, x : x + side] = (0, 0, 255) if card == "Ah" else (255, 0, 0)
    return img


def check(dets, squares, tol):
    assert len(dets) == len(squares), [(d.card, d.box) for d in dets]
    for x, y, side, card in squares:
        d = min(dets, key=lambda d: abs(d.center[0] - x - side / 2) + abs(d.center[1] - y - side / 2))
        assert d.card == card
        assert np.allclose(d.box, (x, y, x + side, y + side), atol=tol), (d.box, (x, y, side))
        assert d.scores is not None and d.scores.shape == (54,)
        assert d.scores.sum() == pytest.approx(1, abs=1e-4)
        assert 0.9 < d.confidence <= 1.0


# -- scale and coordinates ------------------------------------------------------------------------
def test_large_photo_read_at_the_working_scale_and_mapped_back():
    rng = np.random.default_rng(1)
    squares = [(int(x), int(y), 110, "Ah" if c else "As") for x, y, c in
               zip(rng.integers(0, 3850, 18), rng.integers(0, 2850, 18), rng.integers(0, 2, 18), strict=True)]
    squares = [s for i, s in enumerate(squares) if all(abs(s[0] - t[0]) > 200 or abs(s[1] - t[1]) > 200
                                                      for t in squares[:i])]  # apart: one read each
    finder = Finder()
    dets = detector(session=finder, regions=RegionConfig(enabled=False)).detect(paint(4000, 3000, squares))
    assert finder.shapes == [(1, 3, 1088, 1440)]  # 1440 x 1080 working photo padded to 32s, one pass
    check(dets, squares, tol=4)  # a working pixel is 2.8 photo pixels


def test_the_namer_reads_the_sharper_view_and_boxes_come_back_in_photo_pixels():
    """A 4000 x 3000 photo is proposed on at 1440 x 1080, named from crops of its 2880 x 2160 view."""
    squares = [(300, 200, 110, "Ah"), (2100, 1400, 110, "As"), (3500, 2700, 110, "Ah")]
    det = detector(regions=RegionConfig(enabled=False))
    seen: list[tuple[int, ...]] = []
    probabilities = det.classifier.probabilities

    def recording(image, boxes):
        seen.append(image.shape)
        return probabilities(image, boxes)

    det.classifier = SimpleNamespace(probabilities=recording)
    check(det.detect(paint(4000, 3000, squares)), squares, tol=4)
    assert seen and set(seen) == {(2160, 2880, 3)}


def test_small_indices_are_proposed_again_from_the_sharper_view():
    """Indices 16 working px tall (a far seat) get a second proposer pass over their window of the
    2880 x 2160 view, and their boxes come back to photo pixels tighter than one working pixel."""
    squares = [(1000 + 150 * i, 800, 45, "Ah" if i % 2 else "As") for i in range(4)]
    finder = Finder()
    dets = detector(session=finder, regions=RegionConfig(enabled=False)).detect(paint(4000, 3000, squares))
    assert finder.shapes[0] == (1, 3, 1088, 1440) and len(finder.shapes) == 2
    assert finder.shapes[1][2] * finder.shapes[1][3] < 1440 * 1080 / 8  # the window, not the photo
    check(dets, squares, tol=2.0)  # a detail pixel is 1.39 photo pixels (a working one 2.8)


def test_regions_read_only_parts_and_map_back_the_same():
    squares = [(300, 200, 110, "Ah"), (3500, 2700, 110, "As")]
    finder = Finder()
    dets = detector(session=finder).detect(paint(4000, 3000, squares))
    assert len(finder.shapes) == 2 and all(s[2] * s[3] < 1440 * 1080 / 4 for s in finder.shapes)
    check(dets, squares, tol=4)


def test_close_up_is_read_at_native_scale_never_enlarged():
    squares = [(40, 40, 40, "Ah"), (300, 200, 80, "As")]
    assert ScaleConfig().factor(640, 480) == 1.0
    dets = detector(regions=RegionConfig(enabled=False)).detect(paint(640, 480, squares))
    check(dets, squares, tol=1.01)


def test_encoded_jpeg_with_exif_rotation():
    squares = [(100, 100, 60, "Ah")]
    rgb = paint(900, 600, squares)[:, :, ::-1]
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways; viewer rotates 90 cw
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(np.rot90(rgb, 1))).save(buf, "JPEG", quality=98, exif=exif)
    check(detector().detect(buf.getvalue()), squares, tol=3)


def test_nms_keeps_the_best_of_overlapping_boxes():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60]], np.float32)
    assert nms(boxes, np.array([0.8, 0.9, 0.7], np.float32), 0.5).tolist() == [1, 2]
    assert nms(boxes, np.array([0.8, 0.9, 0.7], np.float32), 0.9).tolist() == [1, 0, 2]


# -- the second stage -----------------------------------------------------------------------------
def test_weak_false_box_is_proposed_and_read_as_background():
    """The box threshold is a proposal threshold: a 0.08 box reaches the classifier, which drops it
    as background on blank card."""
    whole = RegionConfig(enabled=False)
    img = paint(640, 480, [(50, 100, 40, "Ah")])
    det = detector(session=Finder(false_box=(500, 400, 530, 450)), regions=whole)
    assert len(det.proposer.propose(img)[0]) == 2
    check(det.detect(img), [(50, 100, 40, "Ah")], tol=1.01)
    above = detector(session=Finder(false_box=(500, 400, 530, 450)), regions=whole, box_conf=0.1)
    assert len(above.proposer.propose(img)[0]) == 1


def _probs(card: str, p: float) -> np.ndarray:
    v = np.full(55, (1 - p) / 54, np.float32)
    v[CLASSIFIER_NAMES.index(card)] = p
    return v


def test_a_read_mostly_inside_a_surer_one_is_the_same_index():
    """On the app's sample photo a sideways index was read as Th (its whole box) and as Td (a box
    half inside it, IoU 0.29, below the 0.3 dedupe). A read with half or more of its box inside a
    surer read's box is that index again and goes; neighbours that only touch stay."""
    det = detector(skip_sure=None)  # every box read (the half box would not be, behind a sure Th)
    table = np.stack([_probs("Th", 0.98), _probs("Td", 0.9), _probs("9c", 0.95), _probs("8c", 0.93)])
    det.classifier = SimpleNamespace(probabilities=lambda image, boxes: table)
    boxes = np.array([[269, 445, 312, 470], [293, 450, 312, 482],  # Th, and a half box on it
                      [400, 445, 443, 470], [440, 445, 483, 470]], np.float32)  # 9c and 8c touching
    kept, conf, _, _ = det.reclassify(np.zeros((600, 600, 3), np.uint8), boxes)
    assert sorted(map(tuple, kept.tolist())) == sorted(map(tuple, boxes[[0, 2, 3]].tolist()))
    assert np.allclose(sorted(conf), [0.93, 0.95, 0.98], atol=1e-4)


def test_drop_contained_judges_each_box_against_the_better_ones_kept():
    b = np.array([[0, 0, 20, 20], [0, 0, 20, 9], [0, 0, 20, 11], [30, 0, 50, 20]], np.float32)
    # the 20x9 box is 100% inside the whole one; 20x11 too, but 9 of its 11 rows are the kept 20x9's
    assert drop_contained(b, np.array([0.9, 0.8, 0.7, 0.6]), DEDUPE_CONTAINED).tolist() == [0, 3]
    assert drop_contained(b, np.array([0.5, 0.8, 0.7, 0.6]), DEDUPE_CONTAINED).tolist() == [1, 3]
    assert drop_contained(b, np.array([0.9, 0.8, 0.7, 0.6]), 1.01).tolist() == [0, 1, 2, 3]


def test_two_reads_of_one_card_on_one_index_become_one():
    """A tall index read as Ks from a box on its rank and from one on its pip (IoU 0.2, neither half
    inside the other), and a box shifted half off an 8h beside it: one read each. The same card's
    other corner a card away, and a different card touching, stay."""
    det = detector(skip_sure=None)
    reads = [("Ks", 0.98), ("Ks", 0.82), ("8h", 0.99), ("8h", 0.93), ("Ks", 0.97), ("7d", 0.9)]
    det.classifier = SimpleNamespace(probabilities=lambda image, boxes: np.stack([_probs(*r) for r in reads]))
    boxes = np.array([[217, 228, 235, 261], [218, 250, 237, 283],  # Ks: rank box, pip box below it
                      [320, 250, 337, 288], [329, 254, 350, 287],  # 8h and a box shifted right
                      [520, 426, 538, 459],  # Ks's other corner, a card away
                      [238, 228, 256, 261]], np.float32)  # 7d touching the Ks
    kept, _, rows, _ = det.reclassify(np.zeros((600, 600, 3), np.uint8), boxes)
    got = sorted((CLASSIFIER_NAMES[int(r.argmax())], int(b[0])) for b, r in zip(kept, rows, strict=True))
    assert got == [("7d", 238), ("8h", 320), ("Ks", 217), ("Ks", 520)]


def test_the_read_kept_carries_the_box_the_finder_scored_far_better():
    """A squeezed webcam photo's narrow 6h: the finder's tight box (0.48) is read 6h at 0.99, a loose
    box reaching onto the next card (0.002) at 1.00. The surer read is kept, on the tight box; without
    the finder's scores its own box stays."""
    det = detector(skip_sure=None)
    reads = [("6h", 0.99), ("6h", 0.999)]
    det.classifier = SimpleNamespace(probabilities=lambda image, boxes: np.stack([_probs(*r) for r in reads]))
    boxes = np.array([[219, 534, 236, 608], [226, 516, 248, 611]], np.float32)  # best first
    image = np.zeros((700, 700, 3), np.uint8)
    kept, conf, _, _ = det.reclassify(image, boxes, scores=np.array([0.478, 0.002], np.float32))
    assert kept.tolist() == [boxes[0].tolist()] and conf.tolist() == pytest.approx([0.999])
    kept, conf, _, _ = det.reclassify(image, boxes)
    assert kept.tolist() == [boxes[1].tolist()] and conf.tolist() == pytest.approx([0.999])

def test_a_box_behind_a_sure_read_is_not_read_again():
    """`skip_sure`: proposals come best first; one that the dedupe would merge with a better box read
    as a sure card is not cropped at all, one behind an unsure or background read is."""
    det = detector(skip_sure=0.8)
    reads = {269: ("Th", 0.98), 293: ("Td", 0.99), 400: ("9c", 0.5), 410: ("9c", 0.95),
             600: ("bg", 0.99), 605: ("8c", 0.9)}
    asked: list[int] = []

    def probabilities(image, boxes):
        asked.extend(int(b[0]) for b in boxes)
        return np.stack([_probs(*reads[int(b[0])]) for b in boxes])

    det.classifier = SimpleNamespace(probabilities=probabilities)
    boxes = np.array([[269, 445, 312, 470], [293, 450, 312, 482],  # sure Th, a half box on it
                      [400, 445, 443, 470], [410, 445, 453, 470],  # unsure 9c, a shifted box on it
                      [600, 445, 643, 470], [605, 447, 648, 472]], np.float32)  # background, a box on it
    kept, conf, rows, _ = det.reclassify(np.zeros((700, 700, 3), np.uint8), boxes)
    assert sorted(asked) == [269, 400, 410, 600, 605]  # the Td box behind the sure Th was never read
    assert sorted(CLASSIFIER_NAMES[int(r.argmax())] for r in rows) == ["8c", "9c", "Th"]


def test_a_lone_faint_proposal_is_not_read():
    """`lone_floor`: a proposal the finder scores under it and that overlaps no better one is taken
    as background unread; a faint box beside a better one that was not read surely is still read
    (it may be the tight box on an index the better one boxed loosely), and so is a lone box at or
    over the floor. Without the finder's scores every proposal is read."""
    det = detector(skip_sure=0.8, lone_floor=0.005)
    reads = {100: ("9c", 0.5), 110: ("9c", 0.95), 300: ("8c", 0.9), 500: ("7d", 0.9)}
    asked: list[int] = []

    def probabilities(image, boxes):
        asked.extend(int(b[0]) for b in boxes)
        return np.stack([_probs(*reads[int(b[0])]) for b in boxes])

    det.classifier = SimpleNamespace(probabilities=probabilities)
    boxes = np.array([[100, 445, 143, 470], [110, 445, 153, 470],  # unsure 9c, a faint shifted box on it
                      [300, 445, 343, 470],  # a lone box at the floor
                      [500, 445, 543, 470]], np.float32)  # a lone box under it
    scores = np.array([0.3, 0.002, 0.005, 0.004], np.float32)
    kept, _, rows, _ = det.reclassify(np.zeros((700, 700, 3), np.uint8), boxes, scores=scores)
    assert sorted(asked) == [100, 110, 300]
    assert sorted(CLASSIFIER_NAMES[int(r.argmax())] for r in rows) == ["8c", "9c"]
    asked.clear()
    det.reclassify(np.zeros((700, 700, 3), np.uint8), boxes)
    assert sorted(asked) == [100, 110, 300, 500]


def test_reads_under_the_bar_are_kept_apart_as_unsure():
    """Of the reads not background: at or over `conf` sure, from `unsure_conf` up to it unsure, under
    it dropped; an unsure read of an index a sure read holds goes with the dedupe, and the sure
    reads come first."""
    det = detector(skip_sure=None, conf=0.6, unsure_conf=0.25)
    reads = [("Th", 0.98), ("Td", 0.4), ("9c", 0.45), ("8c", 0.2), ("bg", 0.9), ("7d", 0.7)]
    det.classifier = SimpleNamespace(probabilities=lambda image, boxes: np.stack([_probs(*r) for r in reads]))
    boxes = np.array([[269, 445, 312, 470], [272, 446, 312, 470],  # sure Th, an unsure Td on it
                      [400, 445, 443, 470], [500, 445, 543, 470],  # unsure 9c, 8c under the floor
                      [100, 100, 143, 125], [600, 445, 643, 470]], np.float32)  # background, sure 7d
    kept, conf, rows, sure = det.reclassify(np.zeros((700, 700, 3), np.uint8), boxes)
    got = [(CLASSIFIER_NAMES[int(r.argmax())], bool(s)) for r, s in zip(rows, sure, strict=True)]
    assert got == [("Th", True), ("7d", True), ("9c", False)]
    assert kept[2].tolist() == boxes[2].tolist() and conf[2] == pytest.approx(0.45, abs=1e-4)


def _faint_probs(card: str, p: float, bg: float) -> np.ndarray:
    v = np.full(55, (1 - p - bg) / 53, np.float32)
    v[CLASSIFIER_NAMES.index(card)], v[-1] = p, bg
    return v


def test_proposals_the_namer_keeps_nothing_of_are_faint_reads_unless_plain_background():
    """`faint_reads`: of the proposals not kept, those under `faint_bg` background, on no kept read's
    index, one a place (the least background of two on one spot), with their card scores without
    background, least background first; a kept read is never a faint one, and plain background
    (P 0.99) is none."""
    det = detector(skip_sure=None, conf=0.6, unsure_conf=0.25, faint_bg=0.98)
    p = np.stack([_faint_probs("Th", 0.97, 0.01),  # kept, sure
                  _faint_probs("Jd", 0.01, 0.9),  # background to the namer, but not plainly
                  _faint_probs("Jd", 0.005, 0.95),  # the same spot, a looser box: more background
                  _faint_probs("8c", 0.2, 0.3),  # a card read under the unsure floor
                  _faint_probs("5s", 0.001, 0.99),  # plain background
                  _faint_probs("7d", 0.02, 0.9)])  # on the kept Th's index
    boxes = np.array([[269, 445, 312, 470], [400, 445, 443, 470], [402, 446, 447, 472],
                      [500, 445, 543, 470], [600, 445, 643, 470], [270, 446, 311, 470]], np.float32)
    kept, *_ = det.keep_reads(boxes, p)
    faint, scores = det.faint_reads(boxes, p, kept)
    assert faint.tolist() == boxes[[3, 1]].tolist()  # least background first
    assert [CLASSIFIER_NAMES[int(s.argmax())] for s in scores] == ["8c", "Jd"]
    assert np.allclose(scores.sum(1), 1.0) and scores[1, CLASSIFIER_NAMES.index("Jd")] == pytest.approx(0.1)


# -- what is refused ------------------------------------------------------------------------------
def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(ModelMissingError, match="not found"):
        Detector(tmp_path / "nope.onnx")


def test_a_model_not_cut_for_whole_photos_is_refused_with_the_command_that_cuts_it():
    with pytest.raises(ModelMismatchError, match=r"python -m vision\.whole_photo --model"):
        detector(session=Finder(outputs=("output0",)))
    with pytest.raises(ModelMismatchError, match=r"python -m vision\.whole_photo --model"):
        Detector(TINY_CLS)  # the classifier's file as the detector


def test_a_model_of_the_54_cards_is_refused():
    names = str({i: n for i, n in enumerate(CLASSIFIER_NAMES[:-1])})
    with pytest.raises(ModelMismatchError, match="one-class index finder"):
        detector(session=Finder(names=names))


def test_the_detector_needs_its_classifier(tmp_path, monkeypatch):
    monkeypatch.delenv("CARDS_CLASSIFIER", raising=False)
    with pytest.raises(ModelMissingError, match="no index classifier"):
        Detector(session=Finder())  # a fake session has no file the classifier could sit beside
    with pytest.raises(ModelMissingError, match="no index classifier"):
        Detector(TINY_DET)  # nothing called index_classifier.onnx beside it
    monkeypatch.setenv("CARDS_CLASSIFIER", "off")
    with pytest.raises(ModelMissingError, match="index classifier not found: off"):
        Detector(TINY_DET)
    with pytest.raises(ModelMissingError, match="index classifier not found"):
        Detector(session=Finder(), classifier=tmp_path / "none.onnx")


def test_the_onnx_stand_in_loads_with_the_classifier_from_the_environment(monkeypatch):
    """A real ONNX file (tests/data/vision/make_tiny_onnx.py): the cut outputs, the strides in its
    metadata, the classifier named by $CARDS_CLASSIFIER. It proposes a 32 x 32 box on each red or blue
    8 x 8 cell, so a square comes out as a few reads, each centred on the square and named right."""
    monkeypatch.setenv("CARDS_CLASSIFIER", str(TINY_CLS))
    det = Detector(TINY_DET)
    assert det.classifier.model_paths == (TINY_CLS,) and det.proposer.strides == (8, 16, 32)
    squares = [(48, 96, 32, "Ah"), (200, 96, 32, "As")]
    dets = det.detect(paint(640, 480, squares))

    def on(d, square) -> bool:  # centred on the square, give or take the 8-pixel cell grid
        x, y, side, _ = square
        return abs(d.center[0] - x - side / 2) <= 12 and abs(d.center[1] - y - side / 2) <= 12

    for square in squares:
        reads = [d for d in dets if on(d, square)]
        assert reads and all(d.card == square[3] for d in reads)
    assert all(any(on(d, square) for square in squares) for d in dets)
    assert det.detect(np.full((64, 96, 3), 255, np.uint8)) == []


# An upright index box 10 wide, 30 tall at the origin, and where a second read of the same card lies.
SIDE_BY_SIDE_CASES = [
    ("the next index of a fan, touching", [10, 0, 20, 30], True),
    ("the next index of a fan, a little lower", [12, 8, 22, 38], True),
    ("a sideways fan: wide boxes one above the other", None, True),
    ("a box on the pip below the rank", [0, 31, 10, 45], False),
    ("a box shifted half off the index", [5, 0, 15, 30], False),
    ("a squarish box beside it (half an index)", [11, 0, 25, 14], False),
    ("beside it but mostly above or below", [11, 20, 21, 50], False),
]


@pytest.mark.parametrize(("what", "other", "expected"), SIDE_BY_SIDE_CASES,
                         ids=[c[0] for c in SIDE_BY_SIDE_CASES])
def test_side_by_side(what, other, expected):
    box = np.array([0, 0, 10, 30.0])
    if other is None:  # the same pair turned a quarter: x and y swapped
        box, other = np.array([0, 0, 30, 10.0]), [0, 11, 30, 21]
    assert side_by_side(box, np.array([other], float)).tolist() == [expected]


def test_a_fan_keeps_both_reads_of_one_name_for_the_deck_fix():
    """Two whole indices side by side read as one card (one of them misread) both stay; a box on the
    same index's pip read the same is folded into the surer read."""
    boxes = np.array([[0, 0, 10, 30], [11, 0, 21, 30], [0, 31, 10, 45]], np.float32)
    kept = drop_same_card_neighbours(boxes, np.array([0.92, 0.86, 0.7]), np.array([3, 3, 3]))
    assert kept.tolist() == [0, 1]
