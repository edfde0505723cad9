"""benchmarks.never_seen: the never-seen report sets."""

from __future__ import annotations

from benchmarks.decide import DECISION_SETS
from benchmarks.never_seen import NEVER_SEEN
from datasets.synth.holdout import Split


def test_the_never_seen_sets_are_the_cards_220_tables_none_a_decision_set():
    """The model card's never-seen row: six seeds, 220 four-seat tables, of the held-out split, which no
    decision set deals."""
    assert sum(n for _, n in NEVER_SEEN) == 220
    assert len({seed for seed, _ in NEVER_SEEN}) == 6
    assert Split.HELD_OUT not in {d.split for d in DECISION_SETS}
