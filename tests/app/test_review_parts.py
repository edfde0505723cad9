"""The review's pure parts: what a chip offers, what is wrong at a seat, the seat turn, the photo tap,
and the card edits on session state."""

from __future__ import annotations

import numpy as np

from appui import choices, engine, findings, photo_pick, seats, state
from appui.table import read_seat
from tests.app.conftest import SAMPLE
from tests.app.readers import scores
from vision.classes import CLASS_INDEX, CLASS_NAMES
from vision.geometry.problems import row_line_problem

ROWS = ("head", "middle", "tail")
LUOSONG = engine.ruleset("luosong", {})


def sample_seats(players: list[dict] | None = None) -> list:
    return [read_seat(p["name"], {r: p[r] for r in ROWS}) for p in players or SAMPLE["players"]]


def test_guesses_are_the_readers_next_classes_best_first() -> None:
    sc = scores("8c", 0.6, runner_up="8s", q=0.3)
    sc[CLASS_INDEX["9c"]] = 0.05
    out = choices.guesses("8c", sc)
    assert [c for c, _ in out][:2] == ["8s", "9c"] and len(out) <= choices.TOP_GUESSES
    assert out[0][1] == 0.3
    assert choices.guesses("8c", None) == [] and choices.guesses("8c", np.ones(3)) == []
    certain = np.zeros(len(CLASS_NAMES))
    certain[CLASS_INDEX["As"]] = 1.0
    assert choices.guesses("As", certain) == []  # nothing else worth offering


def test_unseen_follows_the_tables_deck() -> None:
    every = [c for p in SAMPLE["players"] for r in ROWS for c in p[r].split()]
    assert choices.unseen(every, LUOSONG) == []
    assert choices.unseen(every[1:], LUOSONG) == [every[0]]
    jokers = engine.ruleset("luosong", {"jokers": 1})
    assert choices.unseen(every, jokers) == ["BJ", "SJ"]
    assert choices.unseen([*every, "SJ"], jokers) == []  # the one joker is on the table
    added = engine.ruleset("luosong", {"extra_suit": "h"})
    left = choices.unseen(every, added)
    assert len(left) == 13 and all(c.endswith("h") for c in left)


def test_offers_have_no_repeats_and_never_the_card_itself() -> None:
    assert choices.offers("8c", [("8s", 0.3), ("8c", 0.1)], ["8s", "Qd"]) == ["8s", "Qd"]


def test_a_duplicate_is_marked_at_both_seats_and_said_once() -> None:
    players = [dict(p) for p in SAMPLE["players"]]
    players[3]["middle"] = "Ks 3c Kh Jh 9h"
    table = sample_seats(players)
    holders = findings.where_else(table)
    problems = [
        {"kind": "glare", "message": "Seat 4: glare on the photo", "seat": 3},
        {"kind": "glare", "message": "Seat 4: glare on the photo", "seat": 3},
        {"kind": "seat_count", "message": "Seat 4 has 14 cards", "seat": 3},
        {"kind": "duplicate", "message": "Ks is seen 2 times", "seat": 3, "row": "middle", "card": "Ks"},
        {"kind": "changed", "message": "Seat 4 middle: read Ks, most likely 3s", "seat": 3, "row": "middle",
         "card": "Ks"},
    ]
    north = findings.seat_findings(table[3], holders, problems, {"middle": [0.4, 1, 1, 1, 1]}, LUOSONG)
    assert set(north.marks) == {("middle", 0)}
    assert any("also at Seat 2" in r for r in north.marks[("middle", 0)])
    assert "read Ks, most likely 3s" in north.marks[("middle", 0)]  # the seat prefix dropped
    assert north.line == "K♠ also at Seat 2 · glare on the photo"
    south = findings.seat_findings(table[1], holders, [], {}, LUOSONG)
    assert south.line == "K♠ also at Seat 4" and set(south.marks) == {("middle", 3)}
    clean = findings.seat_findings(table[0], holders, [], {}, LUOSONG)
    assert clean.line is None and not clean.marks


def test_a_blurred_seat_is_said_once_and_offers_its_close_up() -> None:
    """The reader's blur note, its seat prefix dropped, and the seat's close-up offered, as for its note
    that the seat's indices are too small; a seat without the note, or with it on another seat, offers
    none."""
    table = sample_seats()
    holders = findings.where_else(table)
    note = {"kind": "blurred", "seat": 2, "message": "Seat 3: blurred in this photo (its indices smeared "
            "over 9% of their height): a close-up of this seat reads better than correcting it"}
    west = findings.seat_findings(table[2], holders, [note, dict(note)], {}, LUOSONG)
    assert west.close_up
    assert west.line == ("blurred in this photo (its indices smeared over 9% of their height): a close-up "
                         "of this seat reads better than correcting it")
    small = {"kind": "small", "seat": 2, "message": "Seat 3: its indices are only 14 px tall in this photo, "
             "too small to read surely: a close-up of this seat, or the photo as the camera took it (a chat "
             "app shrinks photos), reads better than correcting it"}
    assert findings.seat_findings(table[2], holders, [small], {}, LUOSONG).close_up
    glare = {"kind": "glare", "seat": 2, "message": "Seat 3: glare on the photo"}
    assert not findings.seat_findings(table[2], holders, [glare], {}, LUOSONG).close_up
    assert not findings.seat_findings(table[0], holders, [], {}, LUOSONG).close_up


def test_a_short_row_and_a_typo_are_in_the_line() -> None:
    seat = read_seat("A", {"head": "As Kd", "middle": "Th Jc Qc Kx Ad", "tail": "2h 2s 2c 8d 8h"})
    line = findings.seat_findings(seat, findings.where_else([seat]), [], {}, LUOSONG).line or ""
    assert "head: 2 cards, needs 3" in line and "Kx" in line


def test_a_row_the_reader_doubts_is_named_in_the_line() -> None:
    """A problem about a row and no one card (the reader's `row_line`) keeps the row's name once the
    seat prefix is dropped."""
    seat = sample_seats()[2]
    problem = row_line_problem("Seat 3", 2, "middle")
    line = findings.seat_findings(seat, findings.where_else([seat]), [problem.to_json()], {}, LUOSONG).line
    assert line is not None and line.startswith("the middle's cards lie across the seat's rows")


def test_the_matching_turn_needs_a_layout_that_tells_the_sides_apart() -> None:
    # Three seats at a square table (bottom, left, top); the next photo from the left side.
    assert seats.matching_turn([0, 90, 180], 0, [0, 90, 270], 3) == 1
    assert seats.matching_turn([0, 90, 180], 0, [0, 90, 180], 3) == 0  # same side: no change
    assert seats.matching_turn([0, 90, 180, 270], 0, [0, 90, 180, 270], 4) is None  # evenly spaced
    assert seats.matching_turn([0, 90, 180], 0, [0, 90], 3) is None
    # The previous round was read with a turn: the angles are placed with it.
    assert seats.matching_turn([0, 90, 270], 1, [0, 90, 270], 3) == 1


def test_a_tap_picks_the_card_whose_box_holds_it() -> None:
    boxes = {"0:head": [[100, 100, 120, 140], [130, 100, 150, 140]], "1:tail": [[400, 400, 420, 440]]}
    assert photo_pick.card_at(110, 120, boxes, [0, 1]) == (0, "head", 0)
    assert photo_pick.card_at(152, 120, boxes, [0, 1]) == (0, "head", 1)  # a fingertip beside it
    assert photo_pick.card_at(300, 300, boxes, [0, 1]) is None
    assert photo_pick.card_at(410, 420, boxes, [0]) is None  # seat 1 is not in this photo


def fresh_state() -> dict:
    ss: dict = {}
    state.ensure_defaults(ss, None)
    for i, p in enumerate(SAMPLE["players"]):
        state.set_rows(ss, i, p)
        for r in ROWS:
            n = len(p[r].split())
            ss["confidence"][f"{i}:{r}"] = [0.9] * n
            ss["guesses"][f"{i}:{r}"] = [[["Qd", 0.1]]] * n
            ss["boxes"][f"{i}:{r}"] = [[10.0 * i, 0.0, 10.0 * i + 5, 5.0]] * n
    return ss


def test_set_and_remove_a_card_keep_the_rows_notes_in_step() -> None:
    ss = fresh_state()
    ss["problems"] = [{"kind": "changed", "seat": 3, "row": "head", "card": "8s", "message": "x"},
                      {"kind": "glare", "seat": 3, "message": "glare"}]
    state.set_card(ss, 3, "head", 0, "8c")
    assert ss["txt_3_head"] == "8c 5s 4h" and ss["pick_3_head"] == ["8c", "5s", "4h"]
    assert ss["confidence"]["3:head"][0] == 1.0 and ss["guesses"]["3:head"][0] == [["Qd", 0.1]]
    assert ss["problems"] == [] and ss["selected"] == [3, "head", 0]
    state.remove_card(ss, 3, "head", 1)
    assert ss["txt_3_head"] == "8c 4h" and len(ss["boxes"]["3:head"]) == 2
    state.set_card(ss, 3, "head", 2, "5s")  # the empty slot: the row gains the card
    assert ss["txt_3_head"] == "8c 4h 5s" and len(ss["confidence"]["3:head"]) == 3


def test_rotating_moves_hands_and_notes_but_not_names() -> None:
    ss = fresh_state()
    ss["problems"] = [{"kind": "glare", "seat": 3, "message": "glare"}]
    ss["selected"] = [3, "head", 1]
    state.rotate_seats(ss, 4, 1)
    assert ss["txt_0_head"] == SAMPLE["players"][3]["head"]
    assert ss["txt_1_head"] == SAMPLE["players"][0]["head"]
    assert ss["boxes"]["0:head"][0][0] == 30.0  # North's boxes came along
    assert ss["problems"][0]["seat"] == 0 and ss["selected"] == [0, "head", 1]
    assert ss["name_0"] == "东 East"  # the seat's name stays
    state.rotate_seats(ss, 4, 3)
    assert all(ss[f"txt_{i}_tail"] == p["tail"] for i, p in enumerate(SAMPLE["players"]))
