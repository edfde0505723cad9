"""The training split's face variety: pips in a deck's own shapes, the pip above or beside the rank,
a bottom index printed upright, bold or thin strokes; the held-out split draws its faces as before."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from datasets.synth import procedural
from datasets.synth.holdout import Split
from datasets.synth.pips import PipShape, draw_pip, random_pip_shape
from datasets.synth.procedural import FaceStyle, draw_face, random_style

ROUND = PipShape(lobe=0.29, spread=0.3, stem=0.06, flare=3.0, cleft=0.08, point=0.2, waist=-0.08, aspect=1.0)
SLIM = PipShape(lobe=0.2, spread=0.19, stem=0.15, flare=1.0, cleft=0.25, point=1.0, waist=0.14, aspect=0.72)


def _alpha(suit: str, shape: PipShape, height: int = 48) -> np.ndarray:
    return np.asarray(draw_pip(suit, shape, height, (0, 0, 0)).getchannel("A"), np.float32) / 255


@pytest.mark.parametrize("suit", list("shdc"))
def test_a_pip_is_as_tall_as_asked_and_solid(suit):
    a = _alpha(suit, ROUND)
    assert a.shape[0] == 48 and a.shape[1] >= 20
    assert 0.3 < a.mean() < 0.85  # a filled shape, not an outline and not a block
    assert a[:, : a.shape[1] // 2].sum() == pytest.approx(a[:, ::-1][:, : a.shape[1] // 2].sum(), rel=0.05)


@pytest.mark.parametrize("shape", [ROUND, SLIM])
def test_each_suit_has_its_own_outline(shape):
    """A spade comes to a point on top, a heart at its foot, a diamond at both ends and is widest in
    its middle; a club is not a spade; one suit drawn in two decks' shapes differs."""
    pip = {suit: _alpha(suit, shape) for suit in "shdc"}
    widest = {suit: pip[suit].sum(axis=1).max() for suit in pip}
    assert pip["s"][1].sum() < 0.3 * widest["s"] and pip["h"][-2].sum() < 0.3 * widest["h"]
    d = pip["d"].sum(axis=1)
    assert d[1] < 0.3 * widest["d"] and d[-2] < 0.3 * widest["d"] and abs(int(d.argmax()) - 24) <= 3
    club = cv2.resize(pip["c"], pip["s"].shape[::-1], interpolation=cv2.INTER_AREA)
    assert np.abs(club - pip["s"]).mean() > 0.1
    other = ROUND if shape is SLIM else SLIM
    for suit in "shdc":
        b = cv2.resize(_alpha(suit, other), pip[suit].shape[::-1], interpolation=cv2.INTER_AREA)
        assert np.abs(pip[suit] - b).mean() > 0.03


def test_held_out_styles_are_drawn_as_before_and_carry_no_variety():
    """A held-out deck takes no extra number from the scene's generator and gets the plain look: its
    benchmark photos stay the photos earlier figures were measured on."""
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    held = random_style(a, split=Split.HELD_OUT)
    base = procedural._base_style(b, True, Split.HELD_OUT)
    assert held == base and a.random() == b.random()
    assert (held.pip_shape, held.layout, held.bottom_upright, held.weight) == (None, "below", False, 0)


def test_training_styles_show_every_variety():
    styles = [random_style(np.random.default_rng(s), split=Split.TRAIN) for s in range(200)]
    assert {s.layout for s in styles} == {"below", "above", "beside"}
    assert 0.3 < np.mean([s.pip_shape is not None for s in styles]) < 0.7
    assert 0.03 < np.mean([s.bottom_upright for s in styles]) < 0.25
    assert {s.weight for s in styles} >= {-1, 0, 1}
    assert np.mean([s.layout == "below" for s in styles]) > 0.6


def _plain() -> FaceStyle:
    st = random_style(np.random.default_rng(7), exotic=False, split=Split.TRAIN)
    return replace(st, pip_shape=None, layout="below", bottom_upright=False, weight=0, centre="plain")


def _ink(face: np.ndarray, box) -> np.ndarray:
    x1, y1, x2, y2 = box
    lum = face[y1:y2, x1:x2, :3].astype(np.float32).mean(axis=2)
    return lum < np.percentile(lum, 95) - 45


def test_the_bottom_index_is_turned_unless_the_deck_prints_it_upright():
    st = _plain()
    for upright in (False, True):
        face, (tl, br) = draw_face(replace(st, bottom_upright=upright), "7h")
        top, bottom = _ink(face, tl), _ink(face, br)
        same = (top == (bottom if upright else bottom[::-1, ::-1])).mean()
        other = (top == (bottom[::-1, ::-1] if upright else bottom)).mean()
        assert same > 0.97 and other < same - 0.05


def test_layouts_place_the_pip_where_they_say():
    """Below: the index is taller than wide, the rank's ink on top; above: the pip on top (a heart's
    ink is widest near its top, a 1's stroke is narrow); beside: wider than tall."""
    st = _plain()
    boxes = {lay: draw_face(replace(st, layout=lay), "Ah")[1][0] for lay in ("below", "above", "beside")}
    for lay in ("below", "above"):
        x1, y1, x2, y2 = boxes[lay]
        assert y2 - y1 > 1.4 * (x2 - x1)
    x1, y1, x2, y2 = boxes["beside"]
    assert x2 - x1 > y2 - y1
    rows = {}
    for lay in ("below", "above"):
        face, (tl, _) = draw_face(replace(st, layout=lay), "Ah")
        ink = _ink(face, tl)
        h = ink.shape[0]
        rows[lay] = ink[: h // 2].sum() / max(1, ink[h // 2 :].sum())
    assert rows["above"] > rows["below"]


def test_bold_strokes_hold_more_ink_than_thin_ones():
    st = replace(_plain(), rank_h=60)
    ink = {}
    for w in (-1, 0, 2):
        face, boxes = draw_face(replace(st, weight=w), "8s")
        ink[w] = _ink(face, boxes[0]).sum()
    assert ink[-1] < ink[0] < ink[2]


def test_a_deck_draws_its_centre_pips_in_its_own_shape():
    st = _plain()
    a, _ = draw_face(replace(st, centre="pips", pip_shape=ROUND), "9c")
    b, _ = draw_face(replace(st, centre="pips", pip_shape=SLIM), "9c")
    c, _ = draw_face(replace(st, centre="pips"), "9c")
    h, w = a.shape[:2]
    mid = (slice(h // 4, 3 * h // 4), slice(w // 4, 3 * w // 4))
    assert np.abs(a[mid].astype(int) - b[mid]).mean() > 1 and np.abs(a[mid].astype(int) - c[mid]).mean() > 1


def test_random_pip_shapes_stay_in_their_ranges():
    for s in range(50):
        p = random_pip_shape(np.random.default_rng(s))
        assert 0.2 <= p.lobe <= 0.29 and 1.0 <= p.flare <= 3.5 and 0.72 <= p.aspect <= 1.02
