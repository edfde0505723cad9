"""vision.jokers.at_table_without_jokers: at a table that plays without jokers, no read is one."""

from __future__ import annotations

import numpy as np
import pytest

import vision
from tests.vision.layouts import build_table, detections
from vision.classes import CLASS_INDEX, CLASS_NAMES, JOKERS
from vision.detector import IndexReads
from vision.jokers import JOKER_SCORE, at_table_without_jokers
from vision.types import Detection


def _scores(**shares: float) -> np.ndarray:
    """Shares of P(card) (background left out): the named cards', the rest spread evenly."""
    rest = (1.0 - sum(shares.values())) / (len(CLASS_NAMES) - len(shares))
    s = np.full(len(CLASS_NAMES), rest, np.float32)
    for name, v in shares.items():
        s[CLASS_INDEX[name]] = v
    return s


def _read(card: str, confidence: float, scores: np.ndarray | None, x: float = 0.0) -> Detection:
    return Detection(card, (x, 0.0, x + 20.0, 40.0), confidence, scores)


@pytest.mark.parametrize("read, kind, card, confidence", [
    # a dot of the cloth, sure it is the big joker and of nothing else: no card at all
    (_read("BJ", 0.95, _scores(BJ=0.99)), None, None, None),
    # a real 7h misread as the joker, the 7h close behind: its runner-up, unsure
    (_read("BJ", 0.7, _scores(BJ=0.6, **{"7h": 0.36})), "unsure", "7h", 0.7 * 0.36 / 0.6),
    # the same, surer of the 7h than of the small joker's other reading: sure
    (_read("SJ", 0.95, _scores(SJ=0.5, Ks=0.45)), "sure", "Ks", 0.95 * 0.45 / 0.5),
    # a plain read stays as it was
    (_read("Qd", 0.9, _scores(Qd=0.9, BJ=0.05)), "sure", "Qd", 0.9),
])
def test_a_joker_read_is_its_most_probable_other_card(read, kind, card, confidence):
    out = at_table_without_jokers(IndexReads([read] if read.confidence >= 0.6 else [],
                                             [read] if read.confidence < 0.6 else []), 0.6, 0.25)
    got = {"sure": out.sure, "unsure": out.unsure}
    if kind is None:
        assert out.sure == [] and out.unsure == []
        return
    (d,) = got[kind]
    assert (d.card, d.box) == (card, read.box)
    assert d.confidence == pytest.approx(confidence, rel=1e-5)
    assert all(d.scores[CLASS_INDEX[j]] == pytest.approx(JOKER_SCORE) for j in JOKERS)


def test_faint_joker_reads_are_dropped_and_the_lists_stay_surest_first():
    faint = [_read("BJ", 0.5, _scores(BJ=0.9)), _read("4c", 0.4, _scores(**{"4c": 0.4}))]
    reads = IndexReads([_read("Ah", 0.7, _scores(Ah=0.7), 50.0), _read("SJ", 0.99, _scores(SJ=0.3, As=0.69))],
                       [], faint)
    out = at_table_without_jokers(reads, 0.6, 0.25)
    assert [d.card for d in out.sure] == ["As", "Ah"]
    assert [d.card for d in out.faint] == ["4c"]


def test_a_polka_dot_cloth_read_as_jokers_leaves_a_table_without_them_whole():
    """Four seats read right, and a lattice of red dots on the cloth between them read surely as
    the big joker: told the table has no jokers, the dots are gone and every seat is its 13 cards;
    left free, the reader takes the dots for a seat of their own, with cards of two seats beside."""
    scene = build_table(4, seed=5)
    dets = detections(scene, seed=5)
    xs = np.array([d.center[0] for d in dets])
    ys = np.array([d.center[1] for d in dets])
    cx, cy = float(xs.mean()), float(ys.mean())
    dots = [Detection("BJ", (cx + dx - 10, cy + dy - 10, cx + dx + 10, cy + dy + 10), 0.9, _scores(BJ=0.98))
            for dx in (-60.0, 0.0, 60.0) for dy in (-60.0, 0.0, 60.0)]
    reads = IndexReads(dets + dots, [])
    truth = sorted(c["card"] for c in scene["cards"])

    told = vision.table_of(reads, scene["width"], scene["height"], conf=0.6, unsure_conf=0.25, jokers=0)
    free = vision.table_of(reads, scene["width"], scene["height"], conf=0.6, unsure_conf=0.25)
    assert sorted(c.card for s in told.seats for c in s.cards) == truth
    assert [len(s.cards) for s in told.seats] == [13] * 4 and told.orphans == []
    assert [len(s.cards) for s in free.seats] != [13] * 4
