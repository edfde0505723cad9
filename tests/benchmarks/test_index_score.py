"""benchmarks.metrics.IndexScore: which labelled index boxes the reader named right, and false boxes."""

from __future__ import annotations

import pytest

from benchmarks.metrics import IndexScore

LABELS = [("As", (0, 0, 10, 20)), ("Kh", (100, 0, 110, 20)), ("2c", (200, 0, 210, 20))]


@pytest.mark.parametrize(
    ("predicted", "found", "right", "false_boxes"),
    [
        ([], 0, 0, 0),
        ([("As", (0, 0, 10, 20)), ("Kh", (100, 0, 110, 20)), ("2c", (200, 0, 210, 20))], 3, 3, 0),
        ([("As", (0, 0, 10, 20)), ("Kd", (100, 0, 110, 20))], 2, 1, 0),  # Kh misnamed, 2c missed
        ([("As", (2, 4, 8, 12))], 1, 1, 0),  # tighter than the label, IoU 0.24: centre inside
        ([("As", (0, 0, 10, 20)), ("7s", (50, 50, 60, 70))], 1, 1, 1),  # a pip read as a card
        ([("As", (0, 30, 10, 50))], 0, 0, 1),  # beside the label, not on it
    ],
)
def test_labelled_boxes_found_named_and_false(predicted, found, right, false_boxes):
    score = IndexScore()
    score.add(predicted, LABELS)
    assert (score.labelled, score.found, score.right, score.false_boxes) == (3, found, right, false_boxes)


def test_the_read_overlapping_most_is_the_one_that_counts():
    score = IndexScore()
    score.add([("Ad", (0, 0, 10, 12)), ("As", (0, 0, 10, 19))], LABELS[:1])
    assert (score.found, score.right) == (1, 1)


@pytest.mark.parametrize(
    ("sure", "unsure", "faint", "kinds"),
    [
        ([], [], [], (0, 0, 0, 0, 3)),  # nothing read: three unread
        (LABELS, [], [], (0, 0, 0, 0, 0)),  # all named right: no miss
        ([("Kd", (100, 0, 110, 20))], [("Kh", (100, 0, 110, 20))], [], (1, 0, 0, 0, 2)),  # a sure read wins
        ([], [("As", (0, 0, 10, 20)), ("Kd", (100, 0, 110, 20))], [("2c", (200, 0, 210, 20))],
         (0, 2, 1, 1, 0)),  # two unsure (one right), one faint
        ([("As", (0, 30, 10, 50))], [], [("2c", (50, 50, 60, 70))], (0, 0, 0, 0, 3)),  # nothing on them
    ],
)
def test_miss_kinds_say_what_lies_on_an_index_not_named_right(sure, unsure, faint, kinds):
    from benchmarks.metrics import MissKinds

    m = MissKinds()
    m.add(sure, unsure, faint, LABELS)
    assert (m.misnamed, m.unsure, m.unsure_right, m.faint, m.unread) == kinds


def test_reads_on_picks_the_read_on_each_label():
    from benchmarks.metrics import reads_on

    reads = [("7s", (50, 50, 60, 70)), ("Kh", (101, 1, 109, 19)),
             ("As", (0, 0, 10, 12)), ("As", (0, 0, 10, 19))]
    assert reads_on(reads, LABELS) == [3, 1, -1]
    assert reads_on([], LABELS) == [-1, -1, -1]


@pytest.mark.parametrize(
    ("groups", "said"),
    [
        ({}, "nothing"),
        ({"sure": [("As", (0, 0, 10, 20), 0.93)]}, "sure As 0.93"),
        ({"sure": [("7s", (50, 50, 60, 70), 0.9)], "unsure": [("Ad", (1, 1, 9, 19), 0.4)]}, "unsure Ad 0.40"),
        ({"sure": [("Ks", (0, 0, 10, 20), 0.7)], "unsure": [("As", (0, 0, 10, 20), 0.5)]}, "sure Ks 0.70"),
    ],
)
def test_read_on_names_the_first_group_with_a_read_on_the_box(groups, said):
    from benchmarks.metrics import read_on

    got = read_on((0, 0, 10, 20), groups)
    assert (str(got) if got is not None else "nothing") == said
