"""Corrections to the real photo set's labels: the rows a person checked against the photo and found
naming another card than the one printed there, the cards a photo shows that its labels leave out,
and the rule that drops annotation slips.

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


@dataclass(frozen=True)
class UnlabelledCard:
    """Photo `stem` shows `card`'s index at `box` (photo pixels, xyxy), and no label row names `card`.

    The labeller left out cards cut by the photo's edge and some whose only index in view is the
    upside-down one. A read of such a card there is no false card, nor is it one the labels ask for:
    the card-level figures count it neither way (`benchmarks.metrics.CardScore`), so a reader is
    neither blamed for reading a card that lies on the table nor credited for a card it was not asked
    to find. A read of another card on it still counts as false."""

    stem: str
    card: str
    box: tuple[float, float, float, float]
    why: str


#: Found by viewing every card the shipped reader shows (the cards of `vision.table_of`, as the app
#: reads a photo) that the photo's checked labels leave out, on both halves: these are printed in the
#: photo (an index in view, its pips or figure agreeing); the others are chips of a keyboard, a game
#: box, and misread indices of labelled cards.
UNLABELLED: tuple[UnlabelledCard, ...] = (
    UnlabelledCard("IMG_20220921_193954_jpg.rf.3b8349963a4bc467379c44165b108bdd", "Ac",
                   (433.1, 60.3, 509.0, 137.4), "an upside-down A over a club; the card's top out of view"),
    UnlabelledCard("IMG_20220921_194856_jpg.rf.a1fed5be91793c5f8131e8312dbe6ebf", "7c",
                   (250.7, 12.3, 268.7, 40.6), "a 7 over a club at the photo's top edge, club pips below it"),
    UnlabelledCard("IMG_20220921_194856_jpg.rf.a1fed5be91793c5f8131e8312dbe6ebf", "Ac",
                   (511.4, 33.8, 530.9, 69.5), "an upside-down A over a club at a card's bottom corner"),
    UnlabelledCard("IMG_20220921_195259_jpg.rf.53710a6ef056a694661594074dbe100b", "Tc",
                   (3.6, 45.8, 24.9, 79.5), "a 10 over a club on a card cut by the photo's left edge"),
    UnlabelledCard("IMG_20220921_200231_jpg.rf.c70533d07806a1113cb80b1f5a644e00", "2s",
                   (559.9, 14.8, 613.0, 56.9), "a 2 beside a spade on a card cut by the photo's top edge"),
    UnlabelledCard("WIN_20240627_17_15_49_Pro_jpg.rf.f20e39a802708a80368864592a2f2197", "Js",
                   (0.0, 367.4, 25.6, 423.5), "a J over a spade on a jack cut by the photo's left edge (the "
                   "labels name the kings and queens, none of the jacks beside them)"),
    UnlabelledCard("WIN_20240627_17_15_55_Pro_jpg.rf.7fe229ccda051a33f3b693a2781e6545", "Js",
                   (0.0, 387.5, 14.6, 436.5), "the same jack, a moment later"),
    UnlabelledCard("WIN_20240627_17_16_09_Pro_jpg.rf.28b3871551990dbfcce8df85bfd96581", "Qc",
                   (103.0, 0.0, 126.9, 22.9), "a Q over a club on a queen cut by the photo's top edge"),
    UnlabelledCard("WIN_20240627_17_16_14_Pro_jpg.rf.8e40d3e86e82c39e53e514ce7e5dd91c", "Qc",
                   (103.0, 0.0, 126.9, 22.5), "the same queen, a moment later"),
)


def unlabelled_in(stem: str) -> tuple[UnlabelledCard, ...]:
    """The cards photo `stem` shows that its labels leave out (`UNLABELLED`)."""
    return tuple(u for u in UNLABELLED if u.stem == stem)


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
