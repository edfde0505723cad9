"""Fetched designs and the real photo set: checked when present (they are not in the repository)."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.faces import load, stored_names
from datasets.real import REAL_ROOT, items, split_of
from datasets.synth.scene import generate

from .test_labels import _check

DESIGNS = stored_names()
CLASSIC = [d for d in ("cardsjs", "gnome-anglo", "svg-cards") if d in DESIGNS]


@pytest.mark.skipif(not DESIGNS, reason="no designs fetched (python -m datasets.faces)")
def test_stored_designs_have_boxes_inside_faces():
    for name in DESIGNS:
        deck = load(name)
        assert len(deck.cards) >= 52, name
        for c in deck.cards:
            h, w = deck.face(c).shape[:2]
            for x1, y1, x2, y2 in deck.boxes(c):
                assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h, (name, c)
            tl, br, *others = deck.boxes(c)
            assert tl[1] < h / 2 < br[3], (name, c)
            assert len(others) == (2 if deck.four_corners else 0), (name, c)


@pytest.mark.skipif(not CLASSIC, reason="no classic red/black design fetched")
def test_fetched_design_labels_hold_ink():
    scenes = [
        generate(21, i, size=640, kind=k, designs=tuple(CLASSIC), p_procedural=0.0)
        for i, k in enumerate(["seat", "pile", "seat"])
    ]
    good, total = _check(scenes)
    assert total >= 10 and good / total >= 0.8, (good, total)


@pytest.mark.skipif(not (REAL_ROOT / "data.yaml").is_file(), reason="real photo set not present")
def test_real_items_and_split():
    its = items()
    assert len(its) > 100
    assert all(c not in ("BACK",) for it in its for c, _ in it.cards)
    splits = {split_of(it.image) for it in its}
    assert splits == {"finetune", "test"}
    ft = items(split="finetune")
    assert 0 < len(ft) < len(its)
    assert all(np.isfinite(b).all() for it in ft for _, b in it.cards)


def test_polygon_label_rows_become_their_bounding_box():
    from datasets.real import label_box

    assert label_box("3 0.5 0.5 0.2 0.4".split()) == pytest.approx((0.4, 0.3, 0.6, 0.7))
    poly = "45 0.27 0.55 0.25 0.57 0.29 0.65 0.32 0.63 0.27 0.55".split()
    assert label_box(poly) == pytest.approx((0.25, 0.55, 0.32, 0.65))
    assert label_box("3 0.5 0.5 0.2".split()) is None  # malformed: skipped, not misread


@pytest.mark.skipif(not (REAL_ROOT / "data.yaml").is_file(), reason="real photo set not present")
def test_every_face_label_row_is_read():
    """Polygon rows used to be skipped, which left photos full of cards with no truth at all."""
    from datasets.real import _class_names

    back = _class_names(REAL_ROOT).index("BACK")
    rows = [ln.split() for f in (REAL_ROOT / "labels").glob("*.txt") for ln in f.read_text().splitlines()]
    faces = sum(1 for r in rows if r and int(r[0]) != back)
    assert sum(len(it.cards) for it in items(checked=False)) == faces
