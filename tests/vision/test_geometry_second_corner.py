"""A card's second (bottom-right) corner read as another card: on a full table that card is read
surely elsewhere too, and the one-deck fix must choose between renaming the stray corner to a card no
seat shows and folding it into the card whose corner it lies on (`pairs.second_corner_reads`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.layouts import BR_INDEX, TL_INDEX, build_table, detections
from tests.vision.table_checks import but_unseen_alike, cards_right
from vision.classes import CLASS_INDEX, CLASS_NAMES
from vision.geometry import GeometryConfig, read_table
from vision.geometry.corners import index_scale
from vision.geometry.pairs import second_corner_reads
from vision.geometry.place import best_placement
from vision.types import Detection


def _two_corner_card(scene: dict, seat: int) -> int:
    return next(i for i, c in enumerate(scene["cards"])
                if c["seat"] == seat and all(ix["visible"] for ix in c["indices"]))


def _scores(p: dict[str, float]) -> np.ndarray:
    """A read's class scores: `p`'s cards as given, every other 0.002, normalised."""
    out = np.full(len(CLASS_NAMES), 0.002, np.float32)
    for name, v in p.items():
        out[CLASS_INDEX[name]] = v
    return out / out.sum()


def _misread_corner(
    scene: dict, dets: list[Detection], i: int, as_card: str, p_true: float, corner: int = 1,
    p_read: float = 0.8,
) -> list[Detection]:
    """The detections with one corner of card i (1: its bottom-right, as a half-covered, upside-down
    index is read; 0: its top-left) read `p_read` as `as_card`, the true card given `p_true`."""
    box = tuple(float(v) for v in scene["cards"][i]["indices"][corner]["box"])
    p = _scores({as_card: p_read, scene["cards"][i]["card"]: p_true})
    return [replace(d, card=as_card, confidence=float(p[CLASS_INDEX[as_card]]), scores=p) if d.box == box
            else d for d in dets]


def _scene_with_misread_corner(p_true: float, corner: int = 1, p_read: float = 0.8
                               ) -> tuple[dict, list[Detection]]:
    """A full four-seat table: seat 0's near-row last card (3s) shows both corners, one of them
    (`corner`) read `p_read` as the 6h that seat 2 holds and `p_true` as itself; seat 0's second
    middle card (Td) shows no index (read too unsurely). Every other index is read right. Seat 0 then
    reads 13."""
    scene = build_table(4, seed=3, jitter=0.01)
    i = _two_corner_card(scene, 0)
    other = next(c["card"] for c in scene["cards"] if c["seat"] == 2)
    hidden = [k for k, c in enumerate(scene["cards"]) if c["seat"] == 0 and c["row"] == "middle"][1]
    assert (scene["cards"][i]["card"], other, scene["cards"][hidden]["card"]) == ("3s", "6h", "Td")
    box = tuple(float(v) for v in scene["cards"][hidden]["indices"][0]["box"])
    dets = _misread_corner(scene, detections(scene, seed=1), i, other, p_true, corner, p_read)
    return scene, [d for d in dets if d.box != box]


def test_misread_second_corner_folds_into_its_card():
    """The misread corner gives its own card 0.1: it is that card seen twice, left out (folded), not
    renamed to the one card no seat shows (Td, which the corner gives 0.002) and put in a row as a
    14th card's worth of trouble; Td then goes by elimination to the row that lacks it, flagged."""
    scene, dets = _scene_with_misread_corner(0.1)
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr), tr.problems
    kinds = sorted(p.kind for p in but_unseen_alike(tr))
    assert kinds == ["contested", "false_read", "inferred"], tr.problems


def test_a_misread_top_left_takes_the_name_its_second_corner_reads():
    """The card's top-left index read 0.6 as the 6h seat 2 holds, 0.2 as itself (3s), and its second
    corner read surely and right: the two are one card, named by both reads (3s), in the top-left's
    row; not the top-left renamed to Td, which it gives 0.002, beside a 3s made of the second corner
    alone, in the row below. Td then goes by elimination to the row that lacks it. The second
    corner's own read of 3s is left out, unflagged: its seat holds 3s and is whole (`read_twice`)."""
    scene, dets = _scene_with_misread_corner(0.2, corner=0, p_read=0.6)
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr), tr.problems
    kinds = {p.kind for p in tr.problems}
    assert {"changed", "inferred"} <= kinds and "false_read" not in kinds, tr.problems
    assert [c.card for c in tr.left_out] == ["3s"] and tr.orphans == []


def test_a_corner_that_never_reads_as_its_card_is_not_folded():
    """The same corner giving its own card 1e-4: no evidence it is that card, so it is not folded; the
    table does not read exactly, and says so."""
    scene, dets = _scene_with_misread_corner(1e-4)
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert not cards_right(scene, tr)
    assert tr.problems


def _layout_offset() -> np.ndarray:
    """The layouts' own corner offset: index centre to index centre, in index heights."""
    top, bottom = np.add(TL_INDEX[:2], TL_INDEX[2:]) / 2, np.add(BR_INDEX[:2], BR_INDEX[2:]) / 2
    return (bottom - top) / (TL_INDEX[3] - TL_INDEX[1])


def _frame_of(dets: list[Detection], seat_card: str):
    placed = best_placement(dets, None, None, 0, 0, index_scale(dets), GeometryConfig())
    fr, g, _ = next(f for f in placed.frames if any(placed.cards[j].card == seat_card for j in f[1]))
    return placed.cards, g, fr


def test_second_corner_reads_finds_the_corner_and_nothing_else():
    """(stray read, card whose second corner it lies on): the misread corner; not the same corner read
    as its own card (merged as usual, no single corner), nor any card's corner that the next card of
    its row covers."""
    scene = build_table(4, seed=3, jitter=0.01)
    i = _two_corner_card(scene, 0)
    own = scene["cards"][i]["card"]
    other = next(c["card"] for c in scene["cards"] if c["seat"] == 2)
    offset = _layout_offset()
    # the middle row's index lying where the head's last card (Qs) would show its second corner,
    # under the middle row, is a candidate too: its scores decide (`fix_with_deck`)
    cases = [
        (_misread_corner(scene, detections(scene, seed=1), i, other, 0.1), [(other, own), ("9c", "Qs")]),
        (detections(scene, seed=1), [("9c", "Qs")]),
    ]
    for dets, want in cases:
        cards, g, fr = _frame_of(dets, own)
        got = [(cards[r].card, cards[c].card) for r, c in second_corner_reads(cards, g, fr, offset,
                                                                             GeometryConfig())]
        assert got == want


def _mid_row_second_corner(row: str, pos: int) -> tuple[dict, list[Detection]]:
    """Seat 0's card `pos` of `row`, whose second corner the next card of its row would cover in a
    tight fan, shows it (a fan spread wider or tilted, as rendered tables show), read 0.9 right; its
    top-left index is read 0.6 as the 6h that seat 2 holds and 0.2 as itself. Seat 0 reads 14."""
    scene = build_table(4, seed=3, jitter=0.01)
    k = [j for j, c in enumerate(scene["cards"]) if c["seat"] == 0 and c["row"] == row][pos]
    card = scene["cards"][k]["card"]
    dets = _misread_corner(scene, detections(scene, seed=1), k, "6h", 0.2, corner=0, p_read=0.6)
    p = _scores({card: 0.9, "6h": 0.01})
    box = tuple(float(v) for v in scene["cards"][k]["indices"][1]["box"])
    return scene, [*dets, Detection(card, box, float(p[CLASS_INDEX[card]]), scores=p)]


@pytest.mark.parametrize(("row", "pos"), [("head", 0), ("head", 1), ("middle", 1), ("middle", 3)])
def test_a_second_corner_beside_the_next_card_names_its_card_in_its_row(row, pos):
    """Such a card is one card, named by both reads, in its top-left's row: not its second corner
    alone, a row too low (that row over-full, its own short), beside the top-left left out as a
    repeat of the 6h. Rendered tables show it (gm-paris at 1600 px, 7171 000019: a Js read Jc at
    its top-left and Js at its second corner, put in the head row)."""
    scene, dets = _mid_row_second_corner(row, pos)
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    assert cards_right(scene, tr), tr.problems
    assert "row_length" not in {p.kind for p in tr.problems}, tr.problems


def test_a_corner_the_next_card_lies_over_is_a_candidate_only_in_an_overfull_seat():
    """The second corner of seat 0's second head card (5h), where the next head card lies over it: no
    candidate in a seat of 13 or fewer (a read there is mostly another card's index), a candidate in
    an over-full one (one of its reads is no card of its own)."""
    scene, dets = _mid_row_second_corner("head", 1)
    offset = _layout_offset()
    cards, g, fr = _frame_of(dets, "5h")
    for overfull, want in [(False, False), (True, True)]:
        got = [(cards[r].card, cards[c].card) for r, c in second_corner_reads(
            cards, g, fr, offset, GeometryConfig(), overfull)]
        assert (("5h", "6h") in got) is want, got
