"""The review step through AppTest: seats that follow the people, one-tap fixes from a card's chip,
a missing card filled from the unseen cards, a photo per seat, and each problem said once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import vision
from appui import sample
from ledger import Ledger
from tests.app.conftest import ROOT, SAMPLE
from tests.app.readers import read_card, rotated_sample, scores, seat_photo, stand_in
from vision.types import Problem

APP = str(ROOT / "app.py")
ROWS = ("head", "middle", "tail")
NAMES = ("东 East", "南 South", "西 West", "北 North")
EXPECTED = dict(zip(NAMES, ("+8", "+4", "+6", "-18"), strict=True))
NO_MODEL = not (ROOT / "models" / "cards.onnx").exists()
needs_model = pytest.mark.skipif(NO_MODEL, reason="models/cards.onnx not installed yet")


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90).run()
    assert not at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.main.metric}


def row(at: AppTest, i: int, r: str) -> list[str]:
    """A row's cards as its editor holds them (the text field is drawn only while typing)."""
    return str(at.session_state[f"txt_{i}_{r}"]).split()


def keys(at: AppTest, prefix: str) -> list[str]:
    return [str(b.key) for b in at.button if str(b.key).startswith(prefix)]


def seat_lines(at: AppTest) -> list[str]:
    return [c.value for c in at.caption if c.value.startswith(":orange[⚠️")]


@needs_model
def test_turn_the_seats(ledger_path: Path, cached_reads: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample taken from the opposite side: saying who is nearest the camera puts every hand
    under its player's name (the upright sample's totals), and the turn is kept for the next round."""
    monkeypatch.setattr(sample, "photo_bytes", lambda: rotated_sample(180))
    at = start()
    at.button(key="sample").click().run()
    assert not at.exception
    assert row(at, 0, "head") == SAMPLE["players"][2]["head"].split()  # West's hand at East's name
    assert metrics(at) != EXPECTED
    at.selectbox(key="nearest").set_value(2).run()  # 西 West sits nearest the camera
    assert not at.exception
    assert metrics(at) == EXPECTED
    for i, p in enumerate(SAMPLE["players"]):
        assert sorted(row(at, i, "tail")) == sorted(p["tail"].split())
    assert Ledger(ledger_path).get_setting("seat_turn") == 2

    at.button(key="new_round").click().run()
    at.button(key="sample").click().run()  # the next round, the same photographer: already turned
    assert metrics(at) == EXPECTED
    # One tap turns the hands one seat on; four taps are the whole way round.
    at.button(key="turn").click().run()
    assert row(at, 1, "head") == SAMPLE["players"][0]["head"].split()
    for _ in range(3):
        at.button(key="turn").click().run()
    assert metrics(at) == EXPECTED


@needs_model
@pytest.mark.parametrize(("degrees", "nearest"), [(90, 1), (270, 3)])
def test_a_photo_from_the_side(
    ledger_path: Path, cached_reads: None, monkeypatch: pytest.MonkeyPatch, degrees: int, nearest: int
) -> None:
    """Turned a quarter (the photographer at South's or North's side): naming that seat nearest
    the camera puts every hand under its player's name, and with the rows checked against the photo
    (a card the reader missed is one tap) the upright sample's totals settle."""
    monkeypatch.setattr(sample, "photo_bytes", lambda: rotated_sample(degrees))
    at = start()
    at.button(key="sample").click().run()
    assert metrics(at) != EXPECTED
    at.selectbox(key="nearest").set_value(nearest).run()
    assert not at.exception
    fix_rows_by_taps(at, "each hand under its player's name, read (nearly) right")
    assert metrics(at) == EXPECTED


def test_the_turn_matching_last_round_is_offered(
    ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three players at a square table: the empty side tells the photos apart, so the turn that
    seats the hands as last round is offered, and one tap takes it."""
    three = SAMPLE["players"][:3]
    monkeypatch.setattr(vision, "read", stand_in(three))  # East, South, West at 0, 90, 180 degrees
    at = start()
    at.sidebar.radio(key="seat_count").set_value(3).run()
    at.button(key="sample").click().run()
    assert not keys(at, "turn_match")  # a first photo has nothing to match

    def from_souths_side(image: object, **_: object) -> object:
        """Taken from South's side: South at the bottom, then West, the empty side, East."""
        read = stand_in([three[1], three[2], three[0]])(image)
        for s, deg in zip(read.seats, (0.0, 90.0, 270.0), strict=True):
            s.orientation_deg = deg
        return read

    monkeypatch.setattr(vision, "read", from_souths_side)
    at.button(key="new_round").click().run()
    at.button(key="sample").click().run()
    assert row(at, 0, "head") == three[1]["head"].split()  # not yet turned
    assert "南 South nearest the camera" in at.button(key="turn_match").label
    at.button(key="turn_match").click().run()
    assert not at.exception
    for i, p in enumerate(three):
        assert row(at, i, "head") == p["head"].split()
    assert not keys(at, "turn_match")


def misread_players() -> list[dict]:
    players = [dict(p) for p in SAMPLE["players"]]
    players[3]["head"] = "8c 5s 4h"  # North's 8s read as 8c (8c is South's: a duplicate too)
    return players


def test_fix_a_misread_card_with_one_tap(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reader = stand_in(misread_players())

    def read(image: object, **kw: object) -> object:
        out = reader(image, **kw)
        card = out.seats[3].head[0]
        out.seats[3].head[0] = read_card("8c", 3, 0, 0.55, scores("8c", 0.55, runner_up="8s", q=0.4))
        assert card.card == "8c"
        return out

    monkeypatch.setattr(vision, "read", read)
    at = start()
    at.button(key="sample").click().run()
    assert not at.exception
    assert "cannot be settled" in "\n".join(e.value for e in at.error)  # 8c twice at the table
    # The chip is flagged, and offers the reader's runner-up first.
    offered = keys(at, "alt_3_head_0_")
    assert offered[0] == "alt_3_head_0_8s", offered
    at.button(key="alt_3_head_0_8s").click().run()
    assert not at.exception
    assert row(at, 3, "head") == ["8s", "5s", "4h"]
    assert metrics(at) == EXPECTED
    # The fixed card is the one picked: framed on the photo, named under it with a link to its seat.
    assert "Picked 8♠ (北 North, 头道 head)" in "\n".join(c.value for c in at.caption)
    assert at.session_state["pick_3_head"] == ["8s", "5s", "4h"]  # the typing editors agree
    at.button(key="edit_3_head").click().run()  # typing is one tap away, and shows the fix
    assert at.text_input(key="txt_3_head").value == "8s 5s 4h"


def test_fill_a_missing_card_from_the_unseen_cards(
    ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [dict(p) for p in SAMPLE["players"]]
    players[1]["tail"] = "2h 2s 2c 8d"  # South's 8h not found
    monkeypatch.setattr(vision, "read", stand_in(players))
    at = start()
    at.button(key="sample").click().run()
    assert "南 South still needs" in "\n".join(i.value for i in at.info)
    # The empty slot offers what the deck holds and no seat shows: exactly the missing card.
    assert keys(at, "add_1_tail_") == ["add_1_tail_8h"]
    at.button(key="add_1_tail_8h").click().run()
    assert not at.exception
    assert row(at, 1, "tail") == ["2h", "2s", "2c", "8d", "8h"]
    assert metrics(at) == EXPECTED


def remove_extras_and_fill(at: AppTest, i: int, truth: dict) -> AppTest:
    """Make seat i's rows hold the photo's true cards by tapping chips only (no typing): every row's
    wrong cards out first, so that two cards swapped between rows are both unseen, and offered, when
    the missing ones are added."""
    for r in ROWS:
        want = Counter(truth[r].split())
        while extra := Counter(row(at, i, r)) - want:
            k = next(k for k, c in enumerate(row(at, i, r)) if c in extra)
            at.button(key=f"del_{i}_{r}_{k}").click().run()
    for r in ROWS:
        want = Counter(truth[r].split())
        while missing := sorted((want - Counter(row(at, i, r))).elements()):
            at.button(key=f"add_{i}_{r}_{missing[0]}").click().run()
    return at


def fix_rows_by_taps(at: AppTest, why: str) -> None:
    """Three or more seats already hold the sample's cards row for row (`why` says what that shows);
    then every seat is made right by chip taps alone, as a player checking the photo would."""
    exact = sum(all(sorted(row(at, i, r)) == sorted(p[r].split()) for r in ROWS)
                for i, p in enumerate(SAMPLE["players"]))
    assert exact >= 3, why
    for i, p in enumerate(SAMPLE["players"]):
        remove_extras_and_fill(at, i, p)
    assert not at.exception


@needs_model
def test_a_photo_per_seat_fills_a_four_seat_table(ledger_path: Path, cached_reads: None) -> None:
    at = start()
    at.radio(key="photo_scope").set_value("seat").run()
    for i, p in enumerate(SAMPLE["players"]):
        assert at.selectbox(key="photo_seat").value == i  # moves on to the next empty seat by itself
        at.file_uploader(key="upload_seat").set_value((f"seat{i}.jpg", seat_photo(p), "image/jpeg")).run()
        assert not at.exception
        assert any(row(at, i, r) for r in ROWS), f"seat {i} filled from its photo"
        assert "cards of" in "\n".join(c.value for c in at.caption)  # "Read in 0.9 s, 13 cards of ..."
    fix_rows_by_taps(at, "the close-ups are read (nearly) right")
    assert metrics(at) == EXPECTED


def test_problem_lines_are_said_once(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card read at two seats: one line per seat, each finding once, the cards outlined."""
    players = [dict(p) for p in SAMPLE["players"]]
    players[3]["middle"] = "Ks 3c Kh Jh 9h"  # North's 3s read as Ks, which South holds
    seen_twice = "Ks is seen 2 times"
    problems = [
        Problem("duplicate", f"Seat 2 middle: {seen_twice}", seat=1, row="middle", card="Ks"),
        Problem("duplicate", f"Seat 2 middle: {seen_twice}", seat=1, row="middle", card="Ks"),
        Problem("duplicate", f"Seat 4 middle: {seen_twice}", seat=3, row="middle", card="Ks"),
        Problem("seat_count", "Seat 4 has 13 cards", seat=3),
        Problem("glare", "Seat 4: glare on the photo", seat=3),
        Problem("glare", "Seat 4: glare on the photo", seat=3),
    ]
    monkeypatch.setattr(vision, "read", stand_in(players, problems))
    at = start()
    at.button(key="sample").click().run()
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]  # no banner per finding
    lines = seat_lines(at)
    assert len(lines) == 2, lines  # South and North, one line each
    south, north = lines
    assert south.count("K♠") == 1 and "北 North" in south
    assert north.count("K♠") == 1 and "南 South" in north and north.count("glare") == 1
    flagged = [str(b.key) for b in at.main if str(getattr(b, "key", "")).endswith("_flag")]
    assert sorted(flagged) == ["chip_1_middle_3_Ks_flag", "chip_3_middle_0_Ks_flag"]
    # Fixing the card clears both seats' lines.
    at.button(key="alt_3_middle_0_3s").click().run()
    assert seat_lines(at) == [] and metrics(at) == EXPECTED


def test_a_blurred_seat_offers_its_close_up(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat the reader found blurred has a button that sets the photo inputs to a close-up of it;
    the close-up then fills that seat alone."""
    players = [dict(p) for p in SAMPLE["players"]]
    players[2]["tail"] = "As Js Ts 6s"  # West's far seat: a card lost to the blur
    problems = [Problem("row_length", "Seat 3 tail: 4 cards instead of 5", seat=2, row="tail"),
                Problem("blurred", "Seat 3: blurred in this photo (its indices smeared over 9% of their "
                        "height): a close-up of this seat reads better than correcting it", seat=2)]
    monkeypatch.setattr(vision, "read", stand_in(players, problems))
    at = start()
    at.button(key="sample").click().run()
    assert not at.exception
    assert keys(at, "close_up_") == ["close_up_2"]
    assert any("a close-up of this seat reads better" in line for line in seat_lines(at))
    at.button(key="close_up_2").click().run()
    assert not at.exception
    assert at.radio(key="photo_scope").value == "seat" and at.selectbox(key="photo_seat").value == 2
    monkeypatch.setattr(vision, "read", stand_in([SAMPLE["players"][2]]))
    at.file_uploader(key="upload_seat").set_value(("west.jpg", seat_photo(players[2]), "image/jpeg")).run()
    assert not at.exception
    assert row(at, 2, "tail") == SAMPLE["players"][2]["tail"].split()
    assert keys(at, "close_up_") == [] and metrics(at) == EXPECTED
