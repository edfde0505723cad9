"""Stand-in reads and test photos for the review flows.

`stand_in` builds the `TableRead` a reader would return for the sample's cards (each card with
per-class scores, as the real detector gives them), so a test can plant one misread or one missing
card exactly where it wants it without depending on what the model gets wrong today.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
from PIL import Image

from tests.app.conftest import ROOT, SAMPLE
from tests.app.make_sample import seat_image
from vision.classes import CLASS_INDEX, CLASS_NAMES
from vision.types import Problem, ReadCard, SeatRead, TableRead

ROWS = ("head", "middle", "tail")


def scores(card: str, p: float = 0.97, runner_up: str | None = None, q: float = 0.02) -> np.ndarray:
    """Per-class probabilities: `card` at p, `runner_up` at q, the rest shared out."""
    out = np.full(len(CLASS_NAMES), (1.0 - p - (q if runner_up else 0.0)) / (len(CLASS_NAMES) - 2))
    out[CLASS_INDEX[card]] = p
    if runner_up:
        out[CLASS_INDEX[runner_up]] = q
    return out.astype(np.float32)


def read_card(
    card: str, seat: int, k: int, confidence: float = 0.97, sc: np.ndarray | None = None
) -> ReadCard:
    x, y = 200.0 + 60 * k, 150.0 + 250 * seat
    return ReadCard(card, (x, y), confidence, [(x - 15, y - 25, x + 15, y + 25)], None,
                    scores(card, confidence) if sc is None else sc)


def stand_in(
    players: list[dict] | None = None, problems: list[Problem] | None = None
) -> Callable[..., TableRead]:
    """A `vision.read` that returns these players' cards (the sample's by default)."""
    players = players or SAMPLE["players"]

    def read(image: object, *, seats: int | None = None, **_: object) -> TableRead:
        out = []
        for i, p in enumerate(players):
            rows = {r: [read_card(c, i, k) for k, c in enumerate(p[r].split())] for r in ROWS}
            out.append(SeatRead(i, 90.0 * i, **rows))
        return TableRead(out, list(problems or []), [], 1600, 1200)

    return read


def jpeg(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.convert("RGB").save(buf, format="JPEG", quality=90)
    return buf.getvalue()


def rotated_sample(degrees: int) -> bytes:
    """The sample photo as if taken from another side of the table."""
    return jpeg(Image.open(ROOT / "assets" / "sample.jpg").rotate(degrees, expand=True))


def seat_photo(player: dict) -> bytes:
    """A close-up of one seat's three rows, upright, on the felt."""
    seat = seat_image(player)
    felt = Image.new("RGBA", (seat.width + 160, seat.height + 160), (22, 100, 55, 255))
    felt.alpha_composite(seat, (80, 80))
    return jpeg(felt)
