"""The per-image JSON agrees with the labels and with how players lay their rows."""

from __future__ import annotations

import cv2
import numpy as np

from vision.classes import CLASS_INDEX


def test_seats_have_three_rows_of_3_5_5(table_scenes):
    for s in table_scenes:
        m = s.meta
        assert m["kind"] == "table" and 1 <= len(m["seats"]) <= 5
        for seat in m["seats"]:
            cards = [c for c in m["cards"] if c["seat"] == seat["seat"]]
            assert len(cards) == 13
            for row, n in (("head", 3), ("middle", 5), ("tail", 5)):
                pos = sorted(c["position"] for c in cards if c["row"] == row)
                assert pos == list(range(n))
            assert 0 <= seat["orientation_deg"] < 360


def test_visible_indices_lie_inside_their_card_and_match_labels(table_scenes, closeups):
    for s in table_scenes + closeups:
        n_visible = 0
        wanted = []
        for c in s.meta["cards"]:
            quad = np.array(c["quad"], np.float32)
            for ix in c["indices"]:
                if not ix["visible"]:
                    continue
                n_visible += 1
                wanted.append(CLASS_INDEX[c["card"]])
                x1, y1, x2, y2 = ix["box"]
                cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
                # the index centre is on the card (allow a few px for box clipping at the frame)
                assert cv2.pointPolygonTest(quad, (cx, cy), True) > -3, (c["card"], ix)
        assert n_visible == len(s.labels)
        assert sorted(wanted) == sorted(lab[0] for lab in s.labels)


def test_seat_zero_faces_up_the_photo(table_scenes):
    """Seat 0 sits at the bottom of the photo, reading its cards upright (orientation near 0)."""
    for s in table_scenes:
        o = s.meta["seats"][0]["orientation_deg"]
        assert min(o, 360 - o) < 45, o
