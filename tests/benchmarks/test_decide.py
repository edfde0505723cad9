"""benchmarks.decide: the decision sets and their totals."""

from __future__ import annotations

import pytest

from benchmarks.decide import DECISION_SETS, main, summary
from benchmarks.holdout import SeatScore
from datasets.synth.holdout import Split


def test_the_decision_sets_deal_no_held_out_design():
    """Nineteen sets; none deals the held-out split, whose tables the report rows deal; three are
    photos as a chat app sends them on, the rest a phone's."""
    assert len(DECISION_SETS) == 19
    assert {d.split for d in DECISION_SETS} == {Split.DECIDE, Split.TRAIN}
    assert len({(d.group, d.seed) for d in DECISION_SETS}) == 19
    assert sorted(d.size for d in DECISION_SETS if d.size) == [1600] * 3


def test_a_groups_summary_sums_its_sets():
    a = SeatScore(seats=8, exact=6, wrong_flagged=2, exact_flagged=1, edits=[0, 4])
    b = SeatScore(seats=4, exact=4, exact_flagged=2, edits=[0])
    assert summary([a, b]) == ("seats exact 10/12 (83.3%), wrong seats flagged 2/2, exact seats carrying a "
                               "problem 3, edits a table 1.33")


def test_an_unknown_group_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--groups", "gm-paris,nope"])
    assert e.value.code == 2
    assert "no group nope" in capsys.readouterr().err
