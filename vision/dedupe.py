"""Two reads of one index made one: the second stage's dedupes, and the box the one kept carries.

Every dedupe keeps the surer read (the namer's P(card)), so a sure read never yields to an unsure one.
The box is another matter: the finder scores boxes, the namer names crops, and a loose box whose crop
still holds the whole index can be named a hair surer than the tight box on it (a squeezed webcam
photo's narrow indices: a box reaching onto the next card's index read 6h at 1.00 against 0.99 for
the tight box the finder scored 0.48). `finders_box` hands the kept read the box the finder scored far
better among the reads of the same card folded into it.
"""

from __future__ import annotations

import numpy as np

from .one_index import overlaps_between

# Two reads of the same card whose boxes come this close (a share of the smaller box's longer side)
# are one index read twice: a box on its rank and one on its pip, or one shifted half off it. Two
# printed indices of one card never lie that close (a card's corners are a card apart), and two
# copies of a card in a multi-deck game would have to overlap to be folded. Two whole indices side by
# side (`side_by_side`) are not folded: a tight fan shows its cards' indices so, and there one of
# the two is a misread that the one-deck fix (`vision.geometry.deck`) weighs against the other,
# renamed in a hand or left out among loose cards, where a fold would lose the card read right
# whenever the misread was the surer.
SAME_CARD_MARGIN = 0.25
ELONGATED = 1.5  # an index box's long side over its short side: rank above suit


def drop_contained(boxes: np.ndarray, scores: np.ndarray, ratio: float) -> np.ndarray:
    """Indices, best first, of the boxes not `ratio` inside (of the smaller one) a better box kept.

    Plain IoU misses a partial box on one index: half of it, or turned the other way on a sideways
    seat, can overlap the whole box by IoU < 0.3 and still lie mostly inside it.

    >>> b = np.array([[0, 0, 10, 10], [0, 0, 10, 4], [20, 0, 30, 10]], np.float32)
    >>> drop_contained(b, np.array([0.9, 0.95, 0.8]), 0.5).tolist()  # the whole box holds a surer one
    [1, 2]
    """
    b = boxes.astype(np.float64)
    area = np.prod(np.clip(boxes[:, 2:] - boxes[:, :2], 0, None), axis=1).astype(np.float64)
    keep: list[int] = []
    for i in np.argsort(-scores, kind="stable"):
        if keep:
            k = b[keep]
            iw = np.minimum(b[i, 2], k[:, 2]) - np.maximum(b[i, 0], k[:, 0])
            ih = np.minimum(b[i, 3], k[:, 3]) - np.maximum(b[i, 1], k[:, 1])
            if ((iw > 0) & (ih > 0) & (iw * ih >= ratio * np.minimum(area[i], area[keep]))).any():
                continue
        keep.append(int(i))
    return np.asarray(keep, int)


def drop_same_card_neighbours(boxes: np.ndarray, scores: np.ndarray, cards: np.ndarray,
                              margin: float = SAME_CARD_MARGIN) -> np.ndarray:
    """Indices, best first, of the reads kept when a read of the same card as a surer kept one lies
    within `margin` (of the smaller box's longer side) of it.

    >>> b = np.array([[0, 0, 10, 20], [0, 22, 10, 32], [30, 0, 40, 20], [12, 30, 22, 50]], np.float32)
    >>> drop_same_card_neighbours(b, np.array([0.9, 0.8, 0.7, 0.6]), np.array([5, 5, 5, 7])).tolist()
    [0, 2, 3]
    >>> b[1] = [12, 2, 22, 22]  # a whole index beside it, as in a fan: kept (`side_by_side`)
    >>> drop_same_card_neighbours(b, np.array([0.9, 0.8, 0.7, 0.6]), np.array([5, 5, 5, 7])).tolist()
    [0, 1, 2, 3]
    """
    b = boxes.astype(np.float64)
    side = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    keep: list[int] = []
    kept_of: dict[int, list[int]] = {}  # card -> the reads of it kept so far
    for i in np.argsort(-scores, kind="stable"):
        k = np.asarray(kept_of.get(int(cards[i]), []), int)
        if len(k) and _one_index(b, side, i, k, margin).any():
            continue
        keep.append(int(i))
        kept_of.setdefault(int(cards[i]), []).append(int(i))
    return np.asarray(keep, int)


def _one_index(b: np.ndarray, side: np.ndarray, i: int, others: np.ndarray, margin: float) -> np.ndarray:
    """Which of the boxes `others` (indices into `b`, whose longer sides are `side`) a read of the same
    card on box `i` is one index with (`drop_same_card_neighbours`)."""
    pad = margin * np.minimum(side[i], side[others])
    gap_x = np.maximum(b[i, 0], b[others, 0]) - np.minimum(b[i, 2], b[others, 2])
    gap_y = np.maximum(b[i, 1], b[others, 1]) - np.minimum(b[i, 3], b[others, 3])
    return (gap_x < pad) & (gap_y < pad) & ~side_by_side(b[i], b[others])


def side_by_side(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Which of `others` (K x 4) lie beside `box` as a fanned row's next index does: both whole
    indices elongated the same way (long side `ELONGATED` times the short), apart across their
    short sides, and alongside each other over half the shorter one's long side. A box on an index's
    rank beside one on its pip lies along the long side; a box shifted half off an index overlaps it.

    >>> others = np.array([[11, 2, 21, 32], [0, 31, 10, 61], [5, 0, 15, 30], [11, 0, 31, 10]], float)
    >>> side_by_side(np.array([0, 0, 10, 30.0]), others).tolist()
    [True, False, False, False]
    """
    others = np.atleast_2d(others)
    w, h = box[2] - box[0], box[3] - box[1]
    ow, oh = others[:, 2] - others[:, 0], others[:, 3] - others[:, 1]
    tall = (h >= ELONGATED * w) & (oh >= ELONGATED * ow)
    wide = (w >= ELONGATED * h) & (ow >= ELONGATED * oh)
    over_x = np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0])
    over_y = np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1])
    return ((tall & (over_x <= 0) & (over_y >= 0.5 * np.minimum(h, oh)))
            | (wide & (over_y <= 0) & (over_x >= 0.5 * np.minimum(w, ow))))


#: A kept read takes a folded read's box only where the finder scored that box at least this, and at
#: least `FINDER_BOX_RATIO` times the kept box: on the real finetune half's close-ups the finder scores
#: whole indices' boxes 0.001-0.01 and a rank's alone several times more, so a mere better score is no
#: better box (both bars chosen on that half).
FINDER_BOX_FLOOR = 0.1
FINDER_BOX_RATIO = 10.0


def finders_box(boxes: np.ndarray, scores: np.ndarray, cards: np.ndarray, kept: np.ndarray,
                readable: np.ndarray, margin: float = SAME_CARD_MARGIN) -> np.ndarray:
    """The boxes of the `kept` reads: each its own, or the box of a `readable` proposal not kept
    that reads the same card (`cards`: the top card of each proposal), lies where
    `drop_same_card_neighbours` folds it into the kept one, was scored by the finder at least
    `FINDER_BOX_FLOOR` and `FINDER_BOX_RATIO` times the kept box, and is no other kept read's index
    (`overlaps_between`); of several, the best scored.

    >>> b = np.array([[10, 0, 20, 30], [6, 2, 16, 32], [40, 0, 50, 30]], np.float32)
    >>> finders_box(b, np.array([0.002, 0.5, 0.4]), np.array([7, 7, 9]), np.array([0, 2]), np.arange(3))
    array([[ 6.,  2., 16., 32.],
           [40.,  0., 50., 30.]], dtype=float32)
    >>> finders_box(b, np.array([0.06, 0.5, 0.4]), np.array([7, 7, 9]), np.array([0, 2]), np.arange(3))[0]
    array([10.,  0., 20., 30.], dtype=float32)
    """
    b = boxes.astype(np.float64)
    side = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    out = boxes[kept].copy()
    folded = np.setdiff1d(readable, kept)
    # which folded reads could hand a kept one their box, all at once: most kept reads have none
    bar = np.maximum(FINDER_BOX_FLOOR, FINDER_BOX_RATIO * scores[kept])
    could = (cards[kept][:, None] == cards[folded][None, :]) & (scores[folded][None, :] >= bar[:, None])
    for n in np.flatnonzero(could.any(axis=1)):
        k, cand = kept[n], folded[could[n]]
        cand = cand[_one_index(b, side, k, cand, margin)]
        others = b[np.delete(kept, n)]
        for i in cand[np.argsort(-scores[cand], kind="stable")]:
            if not overlaps_between(b[i : i + 1], others).any():
                out[n] = boxes[i]
                break
    return out
