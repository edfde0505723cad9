"""Contested names across a chain of renames: on a full table a card X read surely as Y's name, and
Y's own index misread as a card Z another seat holds; the deck fix renames the Z read to X (the card
no seat shows) and X's read keeps Y. When the two could as well be the other way round, X's seat is
flagged too (`problems._contested`), not left looking sure."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

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
