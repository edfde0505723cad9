"""KDE's card decks: each card cut from one SVG by its element's box, and indices measured past a
hairline frame that touches the pip."""

from __future__ import annotations

import gzip

import cv2
import numpy as np
import pytest

from datasets.faces import sources
from datasets.faces.measure import corner_boxes, index_box
from datasets.faces.sources import CARDS52

RANK_WORDS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUIT_WORDS = {"s": "spade", "h": "heart", "d": "diamond", "c": "club"}


def face_with_hairline() -> np.ndarray:
    """A 512 x 368 white face: a rank block, a pip under it, and a 3 px frame line running from the
    pip's foot past the measuring region's bottom edge (as KDE's jolly-royal deck draws it)."""
    face = np.full((512, 368, 4), 255, np.uint8)
    cv2.rectangle(face, (20, 15), (59, 69), (0, 0, 0, 255), -1)  # the rank
    cv2.circle(face, (40, 110), 18, (0, 0, 0, 255), -1)  # the pip: x 22-58, y 92-128
    cv2.rectangle(face, (39, 128), (41, 400), (0, 0, 0, 255), -1)  # the frame line
    return face


@pytest.mark.parametrize(
    ("hairline", "box"),
    [
        (0, (20, 15, 60, 70)),  # the pip joins the line, which crosses the region: only the rank
        (4, (20, 15, 60, 128)),  # the line opened away: rank and pip (its last row with it)
    ],
)
def test_a_hairline_under_the_pip_is_left_out_of_the_index(hairline, box):
    assert index_box(face_with_hairline(), (0.0, 0.0, 0.26, 0.36), hairline=hairline) == box


def test_a_four_corner_face_has_each_corner_measured():
    """Indices of different sizes in the four corners of a 512 x 368 face: each corner's own box, in
    the order top-left, bottom-right, top-right, bottom-left; a two-corner design gets the first two."""
    face = np.full((512, 368, 4), 255, np.uint8)
    for (x1, y1, x2, y2) in ((10, 12, 40, 80), (330, 430, 358, 500), (320, 14, 357, 90), (12, 440, 38, 498)):
        cv2.rectangle(face, (x1, y1), (x2 - 1, y2 - 1), (0, 0, 0, 255), -1)
    region = (0.0, 0.0, 0.2, 0.3)
    four = [(10, 12, 40, 80), (330, 430, 358, 500), (320, 14, 357, 90), (12, 440, 38, 498)]
    assert corner_boxes(face, region, four=True) == four
    assert corner_boxes(face, region) == four[:2]


def kde_svg(off_canvas: str) -> str:
    """A 13 x 4 sheet of 20 x 30 cards, each filled with a colour that names it (red: rank, green:
    suit), drawn at twice the viewBox's size; card `off_canvas` is a <use> of its drawing moved off
    the canvas, its drawing kept under the id "clone"."""
    cells = []
    for i, card in enumerate(CARDS52):
        r, s = divmod(i, 4)
        rank, suit = card[0], card[1]
        name = f"{RANK_WORDS.get(rank, rank)}_{SUIT_WORDS[suit]}"
        colour = f"rgb({10 + 18 * 'A23456789TJQK'.index(rank)},{40 + 60 * 'shdc'.index(suit)},0)"
        rect = f'<rect x="{20 * r}" y="{30 * s}" width="20" height="30" fill="{colour}"/>'
        if card == off_canvas:
            cells.append(f'<g id="clone">{rect}</g><use id="{name}" href="#clone" '
                         f'transform="translate(-500,-500)"/>')
        else:
            cells.append(f'<g id="{name}">{rect}</g>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="520" height="240" viewBox="0 0 260 120">'
            + "".join(cells) + "</svg>")


def test_each_kde_card_is_cut_from_the_sheet_by_its_element(tmp_path, monkeypatch):
    try:
        sources.resvg()
    except FileNotFoundError:
        pytest.skip("resvg (the train extra's resvg-cli) is not installed")
    (tmp_path / "deck.svgz").write_bytes(gzip.compress(kde_svg("Ad").encode()))
    monkeypatch.setattr(sources, "KDE_DIR", tmp_path)
    faces = dict(sources._kde("deck.svgz", {"Ad": "clone"})(90))
    assert sorted(faces) == sorted(CARDS52)
    for card, face in faces.items():
        assert face.shape == (90, 60, 4), card
        b, g, r, a = (int(v) for v in face[45, 30])
        assert (r, g, a) == (10 + 18 * "A23456789TJQK".index(card[0]), 40 + 60 * "shdc".index(card[1]), 255)
