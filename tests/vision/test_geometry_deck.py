"""One deck, one copy: short and over-full seats, cards read twice, extra reads left out."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.layouts import DECK52, build_table, detections
from tests.vision.table_checks import got, read_seat, truth_as_read
from vision.classes import CLASS_INDEX
from vision.geometry import read_table
from vision.geometry.problems import read_twice
from vision.types import Detection, ReadCard, SeatRead


def test_twelve_card_seat_is_flagged_with_its_row():
    scene = build_table(2, seed=5, seat_rows={1: {"head": 3, "middle": 4, "tail": 5}})
    tr = read_table(detections(scene))
    kinds = {(p.kind, p.seat, p.row) for p in tr.problems}
    assert ("seat_count", 1, None) in kinds and ("row_length", 1, "middle") in kinds
    assert not any(p.seat == 0 for p in tr.problems)


def test_a_seat_of_fourteen_leaves_out_its_least_sure_read_and_says_so():
    """No hand holds 14 cards: a seat read with 14 (here a tail of six, every read equally sure) gives
    up its least sure read, which the problems name and the table keeps as read (`left_out`)."""
    scene = build_table(3, seed=6, seat_rows={2: {"head": 3, "middle": 5, "tail": 6}})
    tr = read_table(detections(scene))
    seat = tr.seats[read_seat(2, 3)]
    false = [p for p in tr.problems if p.kind == "false_read"]
    assert [(p.seat, p.row) for p in false] == [(read_seat(2, 3), "tail")]
    assert "had 14 cards" in false[0].message and "least sure" in false[0].message
    assert (len(seat.head), len(seat.middle), len(seat.tail)) == (3, 5, 5)
    assert [o.card for o in tr.left_out] == [false[0].card] and tr.orphans == []


def test_duplicate_resolved_from_scores_and_flagged():
    scene = build_table(2, seed=7)
    dets = detections(scene, seed=3)
    # the model reads one card as a card that is elsewhere on the table, with the truth second best
    victim = scene["cards"][4]
    other = scene["cards"][20]["card"]
    box = tuple(victim["indices"][0]["box"])
    out = []
    for d in dets:
        if d.box == pytest.approx(box):
            p = np.full(54, 0.01, np.float32)
            from vision.classes import CLASS_INDEX
            p[CLASS_INDEX[other]], p[CLASS_INDEX[victim["card"]]] = 0.55, 0.4
            d = Detection(other, d.box, 0.55, p)
        out.append(d)
    tr = read_table(out)
    assert got(tr) == truth_as_read(scene)
    changed = [c for s in tr.seats for c in s.cards if c.changed_from]
    assert [(c.changed_from, c.card) for c in changed] == [(other, victim["card"])]
    assert [p.kind for p in tr.problems] == ["changed"]
    assert tr.problems[0].seat == read_seat(victim["seat"], 2) and tr.problems[0].row == victim["row"]


def test_a_close_call_flags_the_card_that_kept_the_name_too():
    """Two reads of one card, both unsure between it and the same other card (two jokers read alike):
    the deck fix renames one, and the one that kept the name is flagged as well, since either may be
    the misread; a sure keeper (the test above) is not."""
    from vision.classes import CLASS_INDEX

    scene = build_table(2, seed=7)
    victim, holder = scene["cards"][4], scene["cards"][20]
    a, b = holder["card"], victim["card"]

    def unsure(top: str, second: str, p_top: float, p_second: float) -> np.ndarray:
        p = np.full(54, 0.001, np.float32)
        p[CLASS_INDEX[top]], p[CLASS_INDEX[second]] = p_top, p_second
        return p

    boxes = {tuple(i["box"]): unsure(a, b, 0.55, 0.42) for i in victim["indices"]}
    boxes |= {tuple(i["box"]): unsure(a, b, 0.66, 0.3) for i in holder["indices"]}  # sure enough alone
    out = []
    for d in detections(scene, seed=3):
        p = next((v for k, v in boxes.items() if d.box == pytest.approx(k)), None)
        out.append(d if p is None else Detection(a, d.box, float(p.max()), p))
    tr = read_table(out)
    assert got(tr) == truth_as_read(scene)  # the fix still chose right: the holder's claim is stronger
    flags = [(p.kind, p.seat, p.row, p.card) for p in tr.problems]
    assert flags == [("changed", read_seat(victim["seat"], 2), victim["row"], b),
                     ("contested", read_seat(holder["seat"], 2), holder["row"], a)]


@pytest.mark.parametrize(("seats", "p_true", "renamed"), [
    (4, 0.05, True), (4, 0.01, False), (2, 0.2, True), (2, 0.05, False)])
def test_a_card_read_twice_in_one_hand_is_renamed_only_to_a_likely_card(seats, p_true, renamed):
    """A middle card of a seat read as another card of the same seat (95%). Where its true card gets
    enough it is the misread the one-deck fix renames; with less it is more likely that card seen a
    second time (two corners the frame could not pair): left out, not renamed to a card the namer all
    but ruled out, and its row is reported short. Enough is 3% where the seats hold the whole deck
    (the true card is one of the few no seat shows), 10% at a table of fewer seats (it may be any of
    the many cards not dealt to them)."""
    scene = build_table(seats, seed=7)
    victim, other = scene["cards"][4], scene["cards"][6]
    assert victim["seat"] == other["seat"] == 0 and victim["row"] == other["row"] == "middle"
    box = tuple(victim["indices"][0]["box"])

    def scores(p_other: float, p_victim: float) -> np.ndarray:
        p = np.full(54, (1 - p_other - p_victim) / 52, np.float32)
        p[CLASS_INDEX[other["card"]]], p[CLASS_INDEX[victim["card"]]] = p_other, p_victim
        return p

    out = []
    for d in detections(scene, seed=3):
        if d.box == pytest.approx(box):
            d = Detection(other["card"], d.box, 0.95, scores(0.95, p_true))
        elif d.card == other["card"]:  # the real one is sure
            d = Detection(d.card, d.box, 0.99, scores(0.99, 0.001))
        out.append(d)
    tr = read_table(out)
    seat = tr.seats[read_seat(0, seats)]
    if renamed:
        assert got(tr) == truth_as_read(scene)
        assert ("changed", victim["card"]) in [(p.kind, p.card) for p in tr.problems]
    else:
        want = truth_as_read(scene)
        want[(seat.seat, "middle")] = sorted(set(want[(seat.seat, "middle")]) - {victim["card"]})
        if seats == 4:  # a full table: the card no seat shows is put there by elimination
            want[(seat.seat, "middle")] = sorted([*want[(seat.seat, "middle")], victim["card"]])
        assert got(tr) == want
        assert not any(c.changed_from for s in tr.seats for c in s.cards)
        kinds = [(p.kind, p.row, p.card) for p in tr.problems]
        assert (("inferred", "middle", victim["card"]) if seats == 4
                else ("false_read", "middle", other["card"])) in kinds


def test_duplicate_without_scores_is_reported():
    scene = build_table(1, seed=8)
    dets = [Detection(d.card, d.box, d.confidence) for d in detections(scene)]
    a = next(d for d in dets if d.card == scene["cards"][0]["card"])
    b = next(d for d in dets if d.card == scene["cards"][2]["card"])  # same row: not two corners
    dets[dets.index(b)] = Detection(a.card, b.box, b.confidence)
    tr = read_table(dets)
    dup = [p for p in tr.problems if p.kind == "duplicate"]
    assert len(dup) == 2 and {p.row for p in dup} == {"head"}


def _with_false_read(scene, dets, reads_as: str, runner_up: str, runner_p: float, false_p: float = 0.6,
                     real_p: float = 0.99) -> list[Detection]:
    """A false detection halfway between two middle-row indices of seat 0, read as `reads_as` at
    `false_p`, while the real `reads_as` elsewhere is read at `real_p` (runner-up at 0.1%)."""
    mids = sorted((c for c in scene["cards"] if c["seat"] == 0 and c["row"] == "middle"),
                  key=lambda c: c["position"])
    a, b = (np.array(mids[k]["indices"][0]["box"], float) for k in (1, 2))

    def scores(top: str, p_top: float, second: str, p_second: float) -> np.ndarray:
        p = np.full(54, (1 - p_top - p_second) / 52, np.float32)
        p[CLASS_INDEX[top]], p[CLASS_INDEX[second]] = p_top, p_second
        return p

    sure = [Detection(d.card, d.box, real_p, scores(d.card, real_p, runner_up, 0.001))
            if d.card == reads_as else d for d in dets]
    box = tuple(float(v) for v in (a + b) / 2)
    return [*sure, Detection(reads_as, box, false_p, scores(reads_as, false_p, runner_up, runner_p))]


def test_a_seat_reading_one_of_its_own_cards_twice_leaves_the_read_out_unflagged():
    """A seat of 14 whose extra read repeats one of its own cards (a second corner, a box on a pip):
    left out as the same card seen twice; the seat stays whole (3/5/5 of 13 different cards), so
    nothing names it, and the read is kept as read (`left_out`) for a player to see."""
    scene = build_table(2, seed=7)
    own = next(c["card"] for c in scene["cards"]
               if (c["seat"], c["row"], c["position"]) == (0, "middle", 4))
    tr = read_table(_with_false_read(scene, detections(scene, seed=3), own, "BJ", 0.02))
    assert got(tr) == truth_as_read(scene)
    assert tr.problems == [] and [o.card for o in tr.left_out] == [own] and tr.orphans == []
    meta = tr.to_table()["meta"]
    assert [o["card"] for o in meta["left_out"]] == [own] and meta["orphans"] == []


@pytest.mark.parametrize(("rows", "card", "expected"), [
    ((3, 5, 5), "As", True),  # a whole hand holding the card
    ((3, 5, 5), "2d", False),  # a whole hand, the card elsewhere: the read may be the misread
    ((3, 5, 4), "As", False),  # a seat short of a card: the read left out may be that card misread
    ((3, 5, 6), "As", False),  # a seat still over-full
], ids=["whole, holds it", "whole, not its card", "short", "over-full"])
def test_read_twice(rows, card, expected):
    spades = [f"{r}s" for r in "AKQJT98765432"] + ["2h"]
    names = iter(spades)
    seat = SeatRead(0, 0.0, *([ReadCard(next(names), (0.0, 0.0), 0.9) for _ in range(n)] for n in rows))
    assert read_twice(seat, card) is expected


def test_read_twice_needs_thirteen_different_cards():
    """A 3/5/5 seat reading one of its cards twice holds 12 different cards: one is missing."""
    def row(names: list[str]) -> list[ReadCard]:
        return [ReadCard(c, (0.0, 0.0), 0.9) for c in names]

    seat = SeatRead(0, 0.0, row(["As", "As", "Ks"]), row(["Qs", "Js", "Ts", "9s", "8s"]),
                    row(["7s", "6s", "5s", "4s", "3s"]))
    assert not read_twice(seat, "As")


def test_an_extra_read_of_a_card_on_the_table_is_left_out_of_its_seat():
    """A seat of 14 whose extra card repeats a card elsewhere, with no likely other name: a false read
    (found on the app's sample photo: a half box read as Ad, which the deck fix renamed to a joker at
    2%). It leaves the seat, is reported where it was, and is kept as read (`left_out`); the
    other seat's read of that card is flagged as contested."""
    scene = build_table(2, seed=7)
    elsewhere = next(c["card"] for c in scene["cards"] if c["seat"] == 1)
    dets = _with_false_read(scene, detections(scene, seed=3), elsewhere, "BJ", 0.02)
    tr = read_table(dets)
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.seat, p.row, p.card) for p in tr.problems][0] == ("false_read", 0, "middle", elsewhere)
    # the real read of that card, in the other seat, is flagged too: either may be the misread
    assert [(p.kind, p.seat, p.card) for p in tr.problems][1:] == [("contested", 1, elsewhere)]
    assert [o.card for o in tr.left_out] == [elsewhere] and tr.orphans == []


def test_the_read_that_makes_a_seat_14_goes_even_when_it_is_the_surer_one():
    """Two reads of one card, the false one (95%, every other name under 0.1%) in a seat of 14, the
    real one (80%, its other names under 0.4%) in a seat of 13: renaming either costs more than
    leaving the seat's extra read out, which one assignment does rather than rename the real card."""
    scene = build_table(2, seed=7)
    elsewhere = next(c["card"] for c in scene["cards"] if c["seat"] == 1)
    tr = read_table(_with_false_read(scene, detections(scene, seed=3), elsewhere, "BJ", 0.0005,
                                     false_p=0.95, real_p=0.8))
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.seat, p.card) for p in tr.problems] == [("false_read", 0, elsewhere),
                                                               ("contested", 1, elsewhere)]


def test_an_extra_read_with_a_likely_other_name_is_still_left_out():
    """The same seat of 14, but the runner-up is a card not on the table at 15%: renaming it would
    leave a hand of 14, which no seat holds, so it is left out all the same and the seat reads right."""
    scene = build_table(2, seed=7)
    on_table = {c["card"] for c in scene["cards"]}
    elsewhere = next(c["card"] for c in scene["cards"] if c["seat"] == 1)
    spare = next(c for c in DECK52 if c not in on_table)
    tr = read_table(_with_false_read(scene, detections(scene, seed=3), elsewhere, spare, 0.15))
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.seat, p.card) for p in tr.problems] == [("false_read", 0, elsewhere),
                                                               ("contested", 1, elsewhere)]


def test_a_seat_of_fourteen_leaves_out_the_read_most_likely_background():
    """A glyph of the card art read as a joker: the namer gives it 81% (19% background) and no other
    card, while every real read is 92% with 5% of its card share on a neighbour. Among the cards the
    joker looks surer; with background counted it is the least likely card, and it is what leaves."""
    scene = build_table(2, seed=7)
    dets = detections(scene, seed=3)

    def scores(top: str, share: float) -> np.ndarray:
        p = np.full(54, (1 - share) / 53, np.float32)
        p[CLASS_INDEX[top]] = share
        return p

    real = [Detection(d.card, d.box, 0.92, scores(d.card, 0.95)) for d in dets]
    mids = sorted((c for c in scene["cards"] if c["seat"] == 0 and c["row"] == "middle"),
                  key=lambda c: c["position"])
    a, b = (np.array(mids[k]["indices"][0]["box"], float) for k in (1, 2))
    glyph = Detection("SJ", tuple(float(v) for v in (a + b) / 2), 0.81, scores("SJ", 0.99))
    tr = read_table([*real, glyph])
    assert got(tr) == truth_as_read(scene)
    assert [(p.kind, p.seat, p.card) for p in tr.problems] == [("false_read", 0, "SJ")]
    assert [o.card for o in tr.left_out] == ["SJ"] and tr.orphans == []


@pytest.mark.parametrize(("head_x", "given_up"), [
    # a head of five, two of them a neighbouring seat's cards 8 and 16 index heights off its fan
    ((0.0, 2.0, 4.0, 12.0, 20.0), {3, 4}),
    # a head of five overlapping as a fan: any of them may be the false read
    ((0.0, 2.0, 4.0, 6.0, 8.0), {0, 1, 2, 3, 4}),
])
def test_an_overfull_seat_gives_up_first_the_cards_lying_apart_from_their_row(head_x, given_up):
    from vision.geometry.config import GeometryConfig
    from vision.geometry.parts import SeatFrame, _Card
    from vision.geometry.read import _overfull_rows

    points = [(x, 0.0) for x in head_x] + [(2.0 * k, y) for y in (4.0, 8.0) for k in range(5)]
    members = [_Card(f"c{k}", 0.9, [(x - 0.3, y - 0.5, x + 0.3, y + 0.5)], [np.array([x, y])], None)
               for k, (x, y) in enumerate(points)]
    fr = SeatFrame(np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.0,
                   rows=[[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]], lines=[0.0, 4.0, 8.0],
                   scale=1.0, members=members, anchors=[np.array(p) for p in points])
    assert _overfull_rows(fr, GeometryConfig()) == {id(members[k]) for k in given_up}
