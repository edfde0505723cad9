"""Corrections to the real photo set's labels: the rows a person checked against the photo and found
naming another card than the one printed there, and the rule that drops annotation slips.

The set's labels are a volunteer's (Roboflow "card-detection-zk7wu" v12). A label row that names the
wrong card teaches the namer that card's look under another name (the 3 of clubs labelled Qh in the
finetune half is read as Qh wherever it appears) and scores a right read as wrong. The rows below were
found by viewing every labelled index that either shipped namer reads as another card, or whose card
is labelled more than twice in one photo (a card prints two indices): 60 such rows, of which these
show, in the photo, a card other than their label (the pips and the card's other index agree). Each is
applied by its label file's row number and refused if the row no longer names `labelled`, so a new
export of the set cannot silently take a fix meant for another row.

    >>> FIXES[0].card
    '3c'
"""

from __future__ import annotations

from dataclasses import dataclass

#: a label box narrower or shorter than this (photo pixels) is an annotation slip, not an index box
MIN_LABEL_SIDE = 3.0


@dataclass(frozen=True)
class LabelFix:
    """Label row `row` (0-based line of `stem`.txt) names `labelled`; the photo shows `card`."""

    stem: str
    row: int
    labelled: str
    card: str
    why: str


FIXES: tuple[LabelFix, ...] = (
    LabelFix("IMG_20220921_194856_jpg.rf.a1fed5be91793c5f8131e8312dbe6ebf", 2, "Qh", "3c",
             "a 3 over a club; the card's other index is labelled 3c"),
    LabelFix("WIN_20240627_11_38_29_Pro_jpg.rf.895ba1de9564da89a2ae87a61203e809", 4, "4s", "3s",
             "a 3 over a spade on a card of three spade pips; a 4s is labelled elsewhere in the photo"),
    LabelFix("WIN_20240627_11_38_29_Pro_jpg.rf.895ba1de9564da89a2ae87a61203e809", 5, "4s", "3s",
             "the same 3 of spades' other index"),
    LabelFix("WIN_20240627_17_01_16_Pro_jpg.rf.60dd8908e9650a95ec6f991375fe3b80", 15, "4s", "3s",
             "a 3 in the spade fan (J 2 A 3 Q); the 4s is labelled at the fan's other end"),
    LabelFix("WIN_20240627_17_02_34_Pro_jpg.rf.75d6490ff875fb243fb12c0ad7cda0e0", 18, "Th", "5h",
             "a 5 in the heart fan, beside the labelled 10; no 5h is labelled in the photo"),
    LabelFix("WIN_20240627_17_19_45_Pro_jpg.rf.cdbcdd4bb1b34dcd5bc149f7f2193f3b", 3, "2d", "2h",
             "a 2 under a heart: the 2h's second index (the 2d is labelled twice elsewhere)"),
)

_BY_ROW: dict[tuple[str, int], LabelFix] = {(fix.stem, fix.row): fix for fix in FIXES}


class StaleFixError(ValueError):
    """A fix's row names another card than the fix expects: the set changed under it."""


def corrected(stem: str, row: int, card: str) -> str:
    """The card label row `row` of `stem` names once checked: its fix's card, else its own."""
    fix = _BY_ROW.get((stem, row))
    if fix is None:
        return card
    if card != fix.labelled:
        raise StaleFixError(f"{stem}.txt row {row} names {card}, but the fix expects {fix.labelled}: "
                            "the real set changed; check the fix against the photo again")
    return fix.card


def is_slip(box: tuple[float, float, float, float]) -> bool:
    """A box (photo pixels) too thin to hold an index: a stray click, not a label (one in the set:
    1.4 x 7.4 px on the 9d of IMG_20220921_200957, whose two real indices are labelled)."""
    return min(box[2] - box[0], box[3] - box[1]) < MIN_LABEL_SIDE
