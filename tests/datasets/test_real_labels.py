"""The checked labels of the real photo set: fixes apply to their row only, stale ones are refused."""

import pytest

from datasets.real import REAL_ROOT, items
from datasets.real_labels import FIXES, UNLABELLED, StaleFixError, corrected, is_slip, unlabelled_in
from vision.classes import CLASS_INDEX

FIX = FIXES[0]


@pytest.mark.parametrize(
    ("stem", "row", "card", "expected"),
    [
        (FIX.stem, FIX.row, FIX.labelled, FIX.card),  # the checked row: the card the photo shows
        (FIX.stem, FIX.row + 1, "Qh", "Qh"),  # another row of the same photo keeps its label
        ("IMG_0000_not_in_the_set", FIX.row, FIX.labelled, FIX.labelled),
    ],
)
def test_corrected_renames_only_the_checked_row(stem, row, card, expected):
    assert corrected(stem, row, card) == expected


def test_a_fix_whose_row_names_another_card_is_refused():
    other = "As" if FIX.labelled != "As" else "Ks"
    with pytest.raises(StaleFixError, match=rf"row {FIX.row} names {other}"):
        corrected(FIX.stem, FIX.row, other)


@pytest.mark.parametrize(
    ("box", "slip"),
    [((214.8, 331.8, 216.2, 339.2), True), ((10, 10, 40, 12), True), ((10, 10, 30, 50), False)],
)
def test_a_box_too_thin_for_an_index_is_a_slip(box, slip):
    assert is_slip(box) is slip


def test_fixes_are_unique_and_rename():
    keys = [(f.stem, f.row) for f in FIXES]
    assert len(set(keys)) == len(keys)
    assert all(f.card != f.labelled for f in FIXES)
    assert all(corrected(f.stem, f.row, f.labelled) == f.card for f in FIXES)


@pytest.mark.skipif(not (REAL_ROOT / "data.yaml").is_file(), reason="real photo set not present")
def test_items_carry_the_checked_labels():
    raw = {it.image.stem: it.cards for it in items(checked=False)}
    checked = {it.image.stem: it.cards for it in items()}
    for fix in FIXES:
        assert fix.stem in checked, f"{fix.stem} is not in the real set"
        # rows before the fix hold no slip in these photos, so the row number indexes the cards
        assert raw[fix.stem][fix.row][0] == fix.labelled
        assert checked[fix.stem][fix.row] == (fix.card, raw[fix.stem][fix.row][1])
    dropped = sum(len(raw[s]) - len(checked[s]) for s in raw)
    assert dropped == 1  # the one stray box, on IMG_20220921_200957
    assert all(not is_slip(b) for cards in checked.values() for _, b in cards)


def test_unlabelled_cards_are_cards_inside_their_photo_once_each():
    keys = [(u.stem, u.card) for u in UNLABELLED]
    assert len(set(keys)) == len(keys)
    assert all(u.card in CLASS_INDEX and u.why for u in UNLABELLED)
    assert all(0 <= u.box[0] < u.box[2] and 0 <= u.box[1] < u.box[3] for u in UNLABELLED)
    assert unlabelled_in(UNLABELLED[0].stem)[0] == UNLABELLED[0]
    assert unlabelled_in("IMG_0000_not_in_the_set") == ()


@pytest.mark.skipif(not (REAL_ROOT / "data.yaml").is_file(), reason="real photo set not present")
def test_items_list_the_cards_their_labels_leave_out():
    checked = {it.image.stem: it for it in items()}
    for u in UNLABELLED:
        it = checked[u.stem]
        assert u.card in it.unlabelled and u.card not in {c for c, _ in it.cards}
        assert u.box[2] <= it.width and u.box[3] <= it.height
    assert all(it.unlabelled == () for it in items(checked=False))
