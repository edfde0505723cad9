"""A seat whose index boxes face two ways a quarter turn apart is flagged (`facing`).

Pinned on the reads of one rendered photo (`tests/data/vision/reads_decide1600_7171_000022.json`:
the gm-paris decision photo 000022 of seed 7171 at 1600 px as a namer not shipped read it, and the
photo's true rows): the seat cut gives Seat 3 the far seat's five cards (tall boxes) and the right
seat's eight (wide boxes) in rows of 3/5/5, each card read right and once, so no count or deck rule
shows that the seat is two seats' cards.
"""

from __future__ import annotations

import math

import pytest

from tests.vision.table_checks import flagged_wrong_seats, pinned
from vision.geometry.config import GeometryConfig
from vision.geometry.facing import facing_problems, facing_split
from vision.types import ReadCard, SeatRead


def test_a_seat_of_two_seats_cards_is_flagged_and_names_the_few():
    truth, table = pinned("reads_decide1600_7171_000022.json")
    flagged_wrong_seats(truth, table, {0, 2})
    facing = [p for p in table.problems if p.kind == "facing"]
    assert [(p.seat, p.row, p.card) for p in facing] == [(2, None, None)]
    assert facing[0].message.startswith("Seat 3: 3h, 3d, 3s, 5h, Jh face another way than its other 8 cards")


@pytest.mark.parametrize(("tallness", "want"), [
    ([0.3, -0.8, 0.2, -0.9, 0.4, -0.7], 3),  # three wide, three tall
    ([-0.9, -0.8, -0.75, -0.7, -0.7, -0.6, -0.6, -0.6, 0.2, 0.3, 0.4, 0.4, 0.7], 8),  # the pinned seat
    ([0.4, 0.45, 0.5, 0.75, 0.8, 0.9], None),  # a seat's tens against its other ranks: a step of 0.25
    ([-0.9, -0.8, 0.2, 0.3, 0.4, 0.5], None),  # two wide boxes: too few to be a seat's row
    ([-0.5 + 0.1 * k for k in range(13)], None),  # a fanned row: each card turned a little further
    ([0.1, 0.2, -0.9], None),  # too few cards to split
])
def test_facing_split(tallness, want):
    assert facing_split(tallness, least=3, step=0.5) == want


def _card(name: str, tall: float) -> ReadCard:
    """A card whose one index box is 10 px wide and exp(tall) times as high."""
    return ReadCard(name, (0.0, 0.0), 0.9, [(0.0, 0.0, 10.0, 10.0 * math.exp(tall))])


def test_facing_problems_name_the_smaller_group_and_skip_cards_without_boxes():
    wide = [_card(n, -0.7) for n in ("2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c")]
    tall = [_card(n, 0.6) for n in ("2h", "3h", "4h", "5h")]
    placed = ReadCard("Ah", (0.0, 0.0), 0.3, [])  # placed by elimination: no box
    seat = SeatRead(1, 0.0, head=tall[:3], middle=[tall[3], *wide[:3], placed], tail=wide[3:])
    upright = SeatRead(0, 0.0, head=wide[:3], middle=wide[3:8], tail=[*tall[:2], *wide[:3]])  # two: no group
    loose = SeatRead(2, 0.0, head=tall[:3], middle=wide[:4])  # seven loose cards lie any way round
    got = facing_problems([upright, seat, loose], GeometryConfig())
    assert [(p.kind, p.seat, p.message) for p in got] == [(
        "facing", 1, "Seat 2: 2h, 3h, 4h, 5h face another way than its other 8 cards: the seat may "
        "hold a neighbouring seat's cards; check whose they are")]
