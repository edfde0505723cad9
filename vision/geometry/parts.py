"""The working types of the placement: a physical card being placed, and a seat's reading frame."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..types import Detection, ReadCard


@dataclass
class _Card:
    """A physical card while it is being placed: its index points and merged scores."""

    card: str
    confidence: float
    boxes: list[tuple[float, float, float, float]]
    points: list[np.ndarray]
    scores: np.ndarray | None
    corners_disagree: bool = False
    changed_from: str | None = None
    gone: bool = False  # merged into another card after seating
    split: bool = False  # one half of a corner pair split after seating that could still be one card
    unsure: bool = False  # read under the namer's operating threshold, taken where a row lacked a card
    dets: list[Detection] = field(default_factory=list)  # the detections it is made of
    # the extra corners of a four-corner deck's card (`four_corners`): evidence and boxes, not points
    folded: list[Detection] = field(default_factory=list)

    @property
    def center(self) -> np.ndarray:
        """The mean of its index points (summed in order, as `np.mean` does: the same float)."""
        total = np.array(self.points[0], copy=True)
        for p in self.points[1:]:
            total = total + p
        return total / len(self.points)

    @property
    def size(self) -> float:
        """This card's own index height: the local unit (perspective shrinks far cards)."""
        if not self.boxes:
            return 1.0
        total = _side(self.boxes[0])  # summed in order, as `np.mean` does for so few: the same float
        for b in self.boxes[1:]:
            total = total + _side(b)
        return float(total / len(self.boxes))

    def read(self) -> ReadCard:
        c = self.center
        boxes = list(self.boxes) + [d.box for d in self.folded]
        return ReadCard(self.card, (float(c[0]), float(c[1])), float(self.confidence), boxes,
                        self.changed_from, self.scores)


def _side(box) -> float:
    return max(box[2] - box[0], box[3] - box[1], 1e-6)


@dataclass
class SeatFrame:
    """A seat's reading frame: `right` along its rows as the player sees them, `down` toward the player.

    The frame holds its own anchors (each card's top-left index centre as this frame reads it, or
    the point a lone bottom-right corner steps back to): a trial frame leaves the cards as they were."""

    right: np.ndarray
    down: np.ndarray
    orientation_deg: float
    rows: list[list[int]] = field(default_factory=list)  # far to near, each left to right
    lines: list[float] = field(default_factory=list)  # each row's mean `down` projection
    scale: float = 0.0  # the seat's median index height
    side_known: bool = True  # False: a seat alone whose corners did not tell which side its player is
    two_ways: bool = False  # another row direction also reads the seat 3/5/5, its rows holding other cards
    members: list[_Card] = field(default_factory=list)  # the cards it was read from; rows index them
    anchors: list[np.ndarray] = field(default_factory=list)  # one per member

    def anchor(self, card: _Card) -> np.ndarray | None:
        """The card's anchor in this frame; None for a card the frame was not read from."""
        for member, point in zip(self.members, self.anchors, strict=True):
            if member is card:
                return point
        return None

    def add(self, card: _Card, anchor: np.ndarray, row: int) -> None:
        """Take in a card (a stray near a row's line) at `anchor`, in row `row`, kept left to right."""
        self.members.append(card)
        self.anchors.append(anchor)
        self.rows[row].append(len(self.members) - 1)
        self.rows[row].sort(key=lambda j: float(self.anchors[j] @ self.right))
