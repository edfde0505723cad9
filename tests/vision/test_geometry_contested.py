"""Contested names across a chain of renames: on a full table a card X read surely as Y's name, and
Y's own index misread as a card Z another seat holds; the deck fix renames the Z read to X (the card
no seat shows) and X's read keeps Y. When the two could as well be the other way round, X's seat is
flagged too (`problems._contested`), not left looking sure."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.layouts import build_table, detections
from vision.classes import CLASS_INDEX, CLASS_NAMES
from vision.geometry import read_table
from vision.types import Detection


def _read_as(dets: list[Detection], box: tuple, p: dict[str, float]) -> list[Detection]:
    """The detections with the one at `box` read with scores `p` (the rest spread thinly)."""
    s = np.full(len(CLASS_NAMES), 1e-4, np.float32)
    for k, v in p.items():
        s[CLASS_INDEX[k]] = v
    s /= s.sum()
    top = CLASS_NAMES[int(s.argmax())]
    return [replace(d, card=top, confidence=float(s.max()), scores=s) if d.box == box else d for d in dets]


def _table(p_x_as_itself: float):
    scene = build_table(4, seed=3, jitter=0.01)
    first = {s: next(c for c in scene["cards"] if c["seat"] == s and c["row"] == "middle") for s in range(4)}
    x, y, z = first[0], first[2], first[1]
    box = lambda c: tuple(float(v) for v in c["indices"][0]["box"])  # noqa: E731
    dets = _read_as(detections(scene, seed=1), box(x), {y["card"]: 0.69, x["card"]: p_x_as_itself})
    dets = _read_as(dets, box(y), {z["card"]: 0.6, y["card"]: 0.03, x["card"]: 0.02})
    return scene, x["card"], y["card"], read_table(dets, width=scene["width"], height=scene["height"])


def test_a_keeper_that_may_be_the_renamed_card_is_flagged():
    """X read 0.69 as Y and 0.144 as itself; Y's index read 0.6 as Z, 0.03 as Y, 0.02 as X. The fix
    keeps Y on X's index (the likelier whole reading), renames the Z read to X; the swap is a third
    as probable: X's seat carries a contested problem naming Y (read seat 0 is true seat 0)."""
    scene, x, y, tr = _table(0.144)
    [seat0] = [s for s in tr.seats if s.seat == 0]
    assert y in [c.card for c in seat0.middle]
    assert [p.card for p in tr.problems if p.kind == "contested" and p.seat == 0] == [y]


def test_a_keeper_that_is_not_the_renamed_card_is_not_flagged():
    """The same with X's read giving itself 0.001: the swap is 200 times less probable; nothing
    contests Y on X's index (the Z read renamed is flagged where it lies, and Z's own read, which may
    be the misread, where it lies)."""
    scene, x, y, tr = _table(0.001)
    assert not [p for p in tr.problems if p.seat == 0]
    assert [p.kind for p in tr.problems if p.seat == 2] == ["changed"]


def _swapped_with_an_unsure_read(p_x_as_itself: float):
    """X read surely as Y (0.67, and `p_x_as_itself` as itself); Y's own index read only unsurely as
    X (0.42, and 0.33 as Y), taken where its row lacks a card. The deck holds each once: nothing is
    renamed."""
    scene = build_table(4, seed=3, jitter=0.01)
    first = {s: next(c for c in scene["cards"] if c["seat"] == s and c["row"] == "middle") for s in range(4)}
    x, y = first[0], first[2]
    box = lambda c: tuple(float(v) for v in c["indices"][0]["box"])  # noqa: E731
    dets = _read_as(detections(scene, seed=1), box(x), {y["card"]: 0.67, x["card"]: p_x_as_itself})
    [unsure] = _read_as([d for d in dets if d.box == box(y)], box(y), {x["card"]: 0.42, y["card"]: 0.33})
    dets = [d for d in dets if not any(d.box == tuple(float(v) for v in ix["box"]) for ix in y["indices"])]
    tr = read_table(dets, width=scene["width"], height=scene["height"],
                    unsure=[replace(unsure, confidence=0.38)])
    return x["card"], y["card"], tr


def test_a_keeper_that_may_be_a_card_read_unsurely_is_flagged():
    """The swap (X's read naming X, the unsure read naming Y) is a fifth as probable as the reads as
    they stand: X's seat carries a contested problem, as the unsure read's seat carries its doubt."""
    x, y, tr = _swapped_with_an_unsure_read(0.135)
    assert [(p.kind, p.card) for p in tr.problems if p.seat == 0] == [("contested", y)]
    assert [(p.kind, p.card) for p in tr.problems if p.seat == 2] == [("low_confidence", x)]


def test_a_keeper_that_is_not_the_unsure_card_is_not_flagged():
    x, y, tr = _swapped_with_an_unsure_read(0.001)
    assert not [p for p in tr.problems if p.seat == 0]


def test_a_read_renamed_to_a_second_copy_of_the_keepers_card_contests_nothing():
    """Five seats of the 65 (the spades twice): one copy of a spade read right, the other misread as a
    card another seat holds and renamed back to the spade by the deck fix. Swapping the two names
    changes nothing, so the copy read right carries no problem."""
    scene = build_table(5, seed=12)
    spades = [c for c in scene["cards"] if c["card"].endswith("s")]
    keeper = next(c for c in spades if sum(o["card"] == c["card"] for o in spades) == 2)
    copy = next(c for c in spades if c["card"] == keeper["card"] and c is not keeper)
    held = next(c["card"] for c in scene["cards"] if not c["card"].endswith("s"))
    box = tuple(float(v) for v in copy["indices"][0]["box"])
    dets = [d for d in detections(scene, seed=1)
            if not (d.box != box and any(d.box == tuple(ix["box"]) for ix in copy["indices"]))]
    dets = _read_as(dets, box, {held: 0.6, copy["card"]: 0.2})
    tr = read_table(dets, width=scene["width"], height=scene["height"], extra_suit="s")
    assert [(p.kind, p.card) for p in tr.problems] == [("changed", copy["card"])]


@pytest.mark.parametrize("keeper_corners, contested", [(None, False), (1, True)])
def test_a_lone_repeat_contests_a_card_only_as_well_read(keeper_corners, contested):
    """A four-corner table: a lone read of X, a card of seat 2 showing both its left-hand corners,
    lies on a card of seat 0 (a pip read as X), which then holds 14 and leaves it out. X read at both
    corners is not made doubtful by it; X read at one corner only, as that lone read, may be its
    misread: contested."""
    scene = build_table(4, seed=3, jitter=0.01, four_corners=True)
    x = next(c for c in scene["cards"] if c["seat"] == 2 and sum(ix["visible"] for ix in c["indices"]) == 2)
    on = next(c for c in scene["cards"] if c["seat"] == 0 and c["row"] == "tail" and c["position"] == 4)
    boxes = [tuple(float(v) for v in ix["box"]) for ix in x["indices"] if ix["visible"]]
    dets = [d for d in detections(scene, seed=1)
            if keeper_corners is None or d.box not in boxes[keeper_corners:]]
    cx, cy = np.mean(np.array(on["quad"], float), axis=0)
    box = (cx - 8, cy - 12, cx + 8, cy + 12)
    [stray] = _read_as([Detection(x["card"], box, 0.7)], box, {x["card"]: 0.7, on["card"]: 0.01})
    tr = read_table([*dets, stray], width=scene["width"], height=scene["height"])
    assert [(p.kind, p.card) for p in tr.problems if p.seat == 0] == [("false_read", x["card"])]
    assert bool([p for p in tr.problems if p.seat == 2 and p.kind == "contested"]) is contested
