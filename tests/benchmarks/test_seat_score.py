"""benchmarks.holdout.SeatScore: seats matched by shared cards, exact rows, which wrong seats are flagged."""

from __future__ import annotations

import pytest

from benchmarks.holdout import SeatScore
from benchmarks.pipeline import table_exact
from vision.types import Problem, ReadCard, SeatRead, TableRead

HANDS = {
    0: ("As Ks Qs", "2h 3h 4h 5h 6h", "7c 8c 9c Tc Jc"),
    1: ("Ad Kd Qd", "2s 3s 4s 5s 6s", "7h 8h 9h Th Jh"),
}


def _meta() -> dict:
    cards = [{"card": c, "seat": s, "row": r}
             for s, rows in HANDS.items() for r, text in zip(("head", "middle", "tail"), rows, strict=True)
             for c in text.split()]
    return {"image": "t.jpg", "cards": cards}


def _seat(number: int, rows: tuple[str, str, str]) -> SeatRead:
    head, middle, tail = ([ReadCard(c, (0.0, 0.0), 0.9) for c in text.split()] for text in rows)
    return SeatRead(number, 0.0, head, middle, tail)


def _score(table: TableRead) -> SeatScore:
    score = SeatScore()
    score.add(_meta(), table)
    return score


def test_both_seats_right_in_either_order():
    s = _score(TableRead([_seat(0, HANDS[1]), _seat(1, HANDS[0])]))
    assert (s.exact, s.seats, s.tables_exact, s.silent) == (2, 2, 1, [])


def test_a_misread_seat_is_wrong_and_flagged_only_by_a_problem_naming_it():
    wrong = ("As Ks Qs", "2h 3h 4h 5h 6d", "7c 8c 9c Tc Jc")
    named = _score(TableRead([_seat(0, wrong), _seat(1, HANDS[1])], [Problem("duplicate", "x", seat=0)]))
    other = _score(TableRead([_seat(0, wrong), _seat(1, HANDS[1])], [Problem("duplicate", "x", seat=1)]))
    assert (named.exact, named.wrong_flagged, named.tables_exact) == (1, 1, 0)
    assert (other.wrong_flagged, len(other.silent)) == (0, 1)
    assert "missing ['6h'] extra ['6d']" in other.silent[0]


def test_exact_seats_carrying_a_problem_are_counted_as_needless_checks():
    """A seat read right that a problem names costs the player a check for nothing; a problem naming
    another seat, or none, does not count against it."""
    named = _score(TableRead([_seat(0, HANDS[0]), _seat(1, HANDS[1])], [Problem("inferred", "x", seat=1)]))
    assert (named.exact, named.exact_flagged) == (2, 1)
    assert named.alarm_line().startswith("exact seats carrying a problem: 1/2 (50.0%)")
    assert _score(TableRead([_seat(0, HANDS[0]), _seat(1, HANDS[1])])).exact_flagged == 0


@pytest.mark.parametrize("kind", ["blurred", "small"])
def test_wrong_seats_that_say_they_are_blurred_or_small_are_counted(kind):
    """A blur or small-index note on a wrong seat tells the player a close-up reads it better; on an
    exact seat, or on another seat, it does not count."""
    wrong = ("As Ks Qs", "2h 3h 4h 5h 6d", "7c 8c 9c Tc Jc")
    notes = [Problem("duplicate", "x", seat=0), Problem(kind, "x", seat=0), Problem(kind, "x", seat=1)]
    s = _score(TableRead([_seat(0, wrong), _seat(1, HANDS[1])], notes))
    assert (s.exact, s.wrong_flagged, s.wrong_close_up) == (1, 1, 1)
    assert s.alarm_line().endswith("wrong seats that say their indices are small or blurred: 1/1")
    elsewhere = _score(TableRead([_seat(0, wrong), _seat(1, HANDS[1])], notes[:1] + notes[2:]))
    assert elsewhere.wrong_close_up == 0


def test_a_seat_not_read_is_flagged_by_any_problem_on_the_table_or_by_the_seat_count():
    """A true seat no read seat matches: flagged by any problem on the table, or when fewer seats are
    read than the table has (the app, which knows the table's seats, says so); silent only where
    another seat, read from nothing of the table's, stands in its place."""
    short = _score(TableRead([_seat(0, HANDS[0])]))
    flagged = _score(TableRead([_seat(0, HANDS[0])], [Problem("row_length", "x", seat=0)]))
    stranger = ("2c 3c 4c", "5c 6c 7d 8d 9d", "Td Jd Qd Kd Ad")
    silent = _score(TableRead([_seat(0, HANDS[0]), _seat(1, stranger)]))
    assert (short.exact, short.wrong_flagged, short.silent) == (1, 1, [])
    assert flagged.wrong_flagged == 1
    assert (silent.exact, silent.wrong_flagged) == (1, 0)
    assert len(silent.silent) == 1
    assert silent.silent[0].startswith("t.jpg true seat 1: head missing ['Ad', 'Kd', 'Qd'] extra")


def test_table_exact_needs_every_seat_right_and_no_extra_seat():
    assert table_exact(_meta(), TableRead([_seat(0, HANDS[1]), _seat(1, HANDS[0])]))
    assert not table_exact(_meta(), TableRead([_seat(0, HANDS[0])]))
    wrong = ("As Ks Qs", "2h 3h 4h 5h 6d", "7c 8c 9c Tc Jc")
    assert not table_exact(_meta(), TableRead([_seat(0, wrong), _seat(1, HANDS[1])]))


def test_seats_with_a_hidden_card_are_counted_apart():
    meta = _meta()
    for c in meta["cards"]:
        c["indices"] = [{"visible": c["card"] != "Jc"}, {"visible": False}]
    wrong = ("Ad Kd Qd", "2s 3s 4s 5s 6s", "7h 8h 9h Th Jd")
    score = SeatScore()
    score.add(meta, TableRead([_seat(0, HANDS[0]), _seat(1, wrong)]))  # seat 0 right, its Jc hidden
    assert (score.exact, score.shown, score.shown_exact) == (1, 1, 0)
    assert "0/1 exact" in score.shown_line()


def test_why_says_what_lies_on_each_card_a_wrong_seat_lacks():
    from benchmarks.wrong_seats import why
    from vision.detector import IndexReads
    from vision.types import Detection

    meta = _meta()
    for k, c in enumerate(meta["cards"]):  # one visible index per card, side by side
        c["indices"] = [{"box": [20.0 * k, 0.0, 20.0 * k + 10, 20.0], "visible": True}]
    box = {c["card"]: tuple(c["indices"][0]["box"]) for c in meta["cards"]}
    wrong = ("As Ks Qs", "2h 3h 4h 5h 6d", "7c 8c 9c Tc Jc")
    score = SeatScore()
    score.add(meta, TableRead([_seat(0, wrong)]))
    reads = IndexReads(sure=[Detection("6d", box["6h"], 0.9)], unsure=[Detection("Ad", box["Ad"], 0.41)],
                       faint=[Detection("Kh", box["Kd"], 0.1)])
    lines = why(meta, score.wrong, reads)
    assert lines[:2] == ["t.jpg true seat 0: middle missing ['6h'] extra ['6d']",
                         "    lacks 6h (middle): sure 6d 0.90 [misread]"]
    assert lines[2] == "t.jpg true seat 1: no seat read"
    assert lines[3:6] == ["    lacks Ad (head): unsure Ad 0.41 [unsure]",
                          "    lacks Kd (head): faint Kh 0.10 [unsure]",
                          "    lacks Qd (head): nothing [unread]"]
    assert len(lines) == 3 + 13


def test_seats_are_counted_by_their_blur_over_index_height():
    """A defocus of sigma 3 px on seat 0's 60 px indices (0.05) and seat 1's 25 px ones (0.12); a
    shake's line of 12 px spreads like a sigma of 12 / sqrt(12)."""
    from benchmarks.holdout import blur_over_index

    meta = _meta()
    for c in meta["cards"]:
        side = 60.0 if c["seat"] == 0 else 25.0
        c["indices"] = [{"box": [0.0, 0.0, side / 2, side], "visible": True}]
    meta["blur"] = {"kind": "defocus", "px": 3.0}
    assert blur_over_index(meta) == {0: 0.05, 1: 0.12}
    wrong = ("Ad Kd Qd", "2s 3s 4s 5s 6s", "7h 8h 9h Th Jd")
    score = SeatScore()
    score.add(meta, TableRead([_seat(0, HANDS[0]), _seat(1, wrong)]))
    assert score.by_blur == {1: [1, 1], 3: [0, 1]}
    assert score.blur_line() == "seats exact by blur over their index height: 0.03-0.06 1/1, >= 0.09 0/1"
    meta["blur"] = {"kind": "shake", "px": 12.0}
    assert blur_over_index(meta)[0] == 12.0 / 12 ** 0.5 / 60.0
    assert SeatScore().blur_line() == "seats exact by blur over their index height: no blur recorded"


def test_each_table_counts_the_edits_a_player_makes():
    """A misread card is one edit; a seat read right, none; a card read outside every seat that
    belongs in a row, one move."""
    wrong = ("As Ks Qs", "2h 3h 4h 5h 6d", "7c 8c 9c Tc Jc")
    short = ("As Ks", "2h 3h 4h 5h 6h", "7c 8c 9c Tc Jc")
    s = SeatScore()
    s.add(_meta(), TableRead([_seat(0, HANDS[0]), _seat(1, HANDS[1])]))
    s.add(_meta(), TableRead([_seat(0, wrong), _seat(1, HANDS[1])]))
    outside = [ReadCard("Qs", (0.0, 0.0), 0.9)]
    s.add(_meta(), TableRead([_seat(0, short), _seat(1, HANDS[1])], orphans=outside))
    assert s.edits == [0, 1, 1]
    assert s.edits_line() == ("edits a table needs (a card moved, renamed, added or removed): mean 0.67, "
                              "none on 1/3 tables, at most 1")


def test_merged_scores_count_as_one_score_of_both_tables():
    """`merge` adds another set's figures: scoring two tables into one score or into two merged gives
    the same counts, lists and blur buckets."""
    wrong = ("As Ks Qs", "2h 3h 4h 5h 6d", "7c 8c 9c Tc Jc")
    tables = [TableRead([_seat(0, HANDS[0]), _seat(1, HANDS[1])], [Problem("inferred", "x", seat=1)]),
              TableRead([_seat(0, wrong), _seat(1, HANDS[1])])]
    one = SeatScore()
    for t in tables:
        one.add(_meta(), t)
    one.by_blur = {0: [3, 4]}
    merged, other = _score(tables[0]), _score(tables[1])
    merged.by_blur, other.by_blur = {0: [2, 2]}, {0: [1, 2]}
    merged.merge(other)
    assert merged == one
    assert (merged.seats, merged.exact, merged.tables_exact, merged.exact_flagged, len(merged.silent)) == (
        4, 3, 1, 1, 1)
