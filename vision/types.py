"""Plain data passed between the detector, the geometry step and the app.

Frozen, numpy-light dataclasses: the rules engine never sees these, only the card strings and
row lists that `TableRead.to_table` produces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Box = tuple[float, float, float, float]
ROWS = ("head", "middle", "tail")


@dataclass(frozen=True)
class Detection:
    """One printed corner index found in a photo.

    `box` is x1, y1, x2, y2 in pixels of the original (EXIF-rotated) image. `scores` holds the
    per-class probabilities when the detector has them, so the geometry step can re-assign a card
    under the deck's constraints instead of trusting the top class alone. `blur` is how smeared the
    index is over its height (`vision.sharpness`), where the detector measured it.

    >>> d = Detection("As", (10.0, 20.0, 30.0, 50.0), 0.97)
    >>> d.center
    (20.0, 35.0)
    """

    card: str
    box: Box
    confidence: float
    scores: np.ndarray | None = field(default=None, compare=False, repr=False)
    blur: float | None = field(default=None, compare=False, repr=False)

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    def to_json(self) -> dict:
        return {
            "card": self.card,
            "box": [round(float(v), 1) for v in self.box],
            "confidence": round(float(self.confidence), 4),
        }


@dataclass
class ReadCard:
    """One physical card: one or two merged corner detections (up to four on a four-corner deck)."""

    card: str
    center: tuple[float, float]
    confidence: float
    boxes: list[Box] = field(default_factory=list)
    changed_from: str | None = None  # set when the deck constraints replaced the model's top class
    scores: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass
class Problem:
    """Something the reader is unsure of, located so the app can point at it; `alternative`, where
    the problem names one, is the card that `card` may be instead (`unseen_alike`)."""

    kind: str
    message: str
    seat: int | None = None
    row: str | None = None
    card: str | None = None
    alternative: str | None = None

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class SeatRead:
    seat: int  # 0-based, clockwise from the bottom of the photo
    orientation_deg: float
    head: list[ReadCard] = field(default_factory=list)
    middle: list[ReadCard] = field(default_factory=list)
    tail: list[ReadCard] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"Seat {self.seat + 1}"

    def rows(self) -> dict[str, list[ReadCard]]:
        return {"head": self.head, "middle": self.middle, "tail": self.tail}

    @property
    def cards(self) -> list[ReadCard]:
        return self.head + self.middle + self.tail


@dataclass
class TableRead:
    """A photo's table as read: the seats, what is in doubt (`problems`), the cards read outside
    every seat (`orphans`: a player adds them where they belong) and the reads taken as false ones
    (`left_out`: a card already on the table read again, a seat's read beyond 13; shown, so that a
    player can put one back where a row lacks it)."""

    seats: list[SeatRead]
    problems: list[Problem] = field(default_factory=list)
    orphans: list[ReadCard] = field(default_factory=list)
    width: int = 0
    height: int = 0
    extra_suit: str | None = None  # the 65-card deck's added suit, as told or as the table shows it
    left_out: list[ReadCard] = field(default_factory=list)

    @property
    def unseated(self) -> list[ReadCard]:
        """Every card shown outside the seats: the orphans, then the reads left out."""
        return [*self.orphans, *self.left_out]

    def to_table(self, rules: str = "taiwan") -> dict:
        """The JSON `python -m scoring settle` accepts, with what the reader is unsure of as extra keys.

        The extras sit under keys the rules engine ignores by contract (`meta`, `seat`, `problems`):
        per player `seat` (0-based) and `meta.confidence` per row; at the top `problems` and
        `meta` (photo size, cards in no seat, reads left out as false). A table of the 65-card deck
        whose added suit is known carries it as the rule options `deck` and `extra_suit`.
        """
        players = []
        for s in self.seats:
            rows = s.rows()
            players.append(
                {
                    "name": s.name,
                    **{row: [c.card for c in cards] for row, cards in s.rows().items()},
                    "seat": s.seat,
                    "meta": {
                        "confidence": {
                            row: [round(float(c.confidence), 3) for c in cards] for row, cards in rows.items()
                        },
                        "changed": {
                            c.card: c.changed_from for cards in rows.values() for c in cards if c.changed_from
                        },
                        "orientation_deg": s.orientation_deg,
                    },
                }
            )
        return {
            "rules": rules,
            **({"options": {"deck": 65, "extra_suit": self.extra_suit}} if self.extra_suit else {}),
            "players": players,
            "problems": [p.to_json() for p in self.problems],
            "meta": {
                "width": self.width,
                "height": self.height,
                **{
                    key: [{"card": c.card, "confidence": round(float(c.confidence), 3)} for c in cards]
                    for key, cards in (("orphans", self.orphans), ("left_out", self.left_out))
                },
            },
        }
