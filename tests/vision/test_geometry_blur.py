"""A seat whose indices are blurred says so, where the seat is in doubt for another reason."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import vision
from datasets.detections import scene_detections
from vision.detector import IndexReads
from vision.geometry.config import GeometryConfig
from vision.types import Detection

from .layouts import build_table
from .table_checks import assert_exact, read_seat

BLURRED, SHARP = 0.09, 0.02


def _reads(scene: dict, blur: dict[int, float | None], lost: set[int] = frozenset()) -> list[Detection]:
    """Every visible index of the scene read right, each carrying its true seat's `blur`; the cards
    numbered in `lost` unread."""
    cards = scene["cards"]
    return [replace(d, blur=blur[cards[ci]["seat"]])
            for ci, d in scene_detections(scene, np.random.default_rng(0)) if ci not in lost]


def _a_tail_card_of(scene: dict, seat: int) -> int:
    return next(i for i, c in enumerate(scene["cards"]) if c["seat"] == seat and c["row"] == "tail")


def _blurred_seats(table) -> list[int]:
    return sorted(p.seat for p in table.problems if p.kind == "blurred")


@pytest.fixture(scope="module")
def scene() -> dict:
    return build_table(4, seed=5)


def test_a_blurred_seat_read_whole_is_not_flagged(scene):
    """Nothing else in doubt: the note would be a check for nothing (every such decision-set seat was
    read exactly)."""
    reads = _reads(scene, {0: SHARP, 1: SHARP, 2: BLURRED, 3: SHARP})
    assert_exact(scene, vision.table_of(IndexReads(reads, []), 0, 0))


def test_a_blurred_seat_in_doubt_says_it_is_blurred(scene):
    """Seat 2 (blurred) and seat 0 (sharp) each lose a card: both are short, and only the blurred one
    says why and what reads it better."""
    lost = {_a_tail_card_of(scene, 2), _a_tail_card_of(scene, 0)}
    reads = _reads(scene, {0: SHARP, 1: SHARP, 2: BLURRED, 3: SHARP}, lost)
    table = vision.table_of(IndexReads(reads, []), 0, 0)
    short = sorted({p.seat for p in table.problems if p.kind == "seat_count"})
    assert short == sorted([read_seat(0, 4), read_seat(2, 4)])
    assert _blurred_seats(table) == [read_seat(2, 4)]
    (note,) = [p for p in table.problems if p.kind == "blurred"]
    assert note.message.startswith(f"Seat {read_seat(2, 4) + 1}: blurred in this photo")
    assert "9%" in note.message and "close-up" in note.message
    assert note.row is None and note.card is None


@pytest.mark.parametrize(("blur", "noted"), [(0.064, False), (0.066, True), (None, False)])
def test_the_note_needs_the_seat_measured_at_the_bar(scene, blur, noted):
    """At `GeometryConfig.blurred` and above; reads without a measure (typed in, or from a file) never."""
    assert GeometryConfig().blurred == 0.065
    lost = {_a_tail_card_of(scene, 1)}
    reads = _reads(scene, {0: SHARP, 1: blur, 2: SHARP, 3: SHARP}, lost)
    table = vision.table_of(IndexReads(reads, []), 0, 0)
    assert _blurred_seats(table) == ([read_seat(1, 4)] if noted else [])


def test_a_seat_is_as_blurred_as_most_of_its_reads(scene):
    """The median of its reads: a few sharp reads (a nearer card's, a pip) do not hide a blurred seat,
    nor a few smeared ones flag a sharp seat."""
    lost = {_a_tail_card_of(scene, 3)}
    reads = _reads(scene, {0: SHARP, 1: SHARP, 2: SHARP, 3: BLURRED}, lost)
    seat3 = [i for i, d in enumerate(reads) if d.blur == BLURRED]
    for i in seat3[:len(seat3) // 3]:
        reads[i] = replace(reads[i], blur=SHARP)
    table = vision.table_of(IndexReads(reads, []), 0, 0)
    assert _blurred_seats(table) == [read_seat(3, 4)]
    reads = _reads(scene, {0: SHARP, 1: SHARP, 2: SHARP, 3: SHARP}, lost)
    for i in [i for i, d in enumerate(reads) if d.blur == SHARP][:3]:
        reads[i] = replace(reads[i], blur=BLURRED)
    assert _blurred_seats(vision.table_of(IndexReads(reads, []), 0, 0)) == []


def _small_seats(table) -> list[int]:
    return sorted(p.seat for p in table.problems if p.kind == "small")


@pytest.mark.parametrize(("px_per_unit", "small"), [(0.7, True), (0.9, False)])
def test_a_seat_in_doubt_whose_indices_are_small_says_so_first(px_per_unit, small):
    """A table photographed small (its indices ~15 px tall at 0.7 px a unit, under
    `GeometryConfig.small_index`; ~20 px at 0.9): the seat in doubt says its indices are too small,
    once, even where they also measure blurred (resampled small indices do), and names their height;
    the seats read whole say nothing."""
    assert GeometryConfig().small_index == 16.0
    scene = build_table(4, seed=5, px_per_unit=px_per_unit)
    lost = {_a_tail_card_of(scene, 2)}
    table = vision.table_of(IndexReads(_reads(scene, {0: SHARP, 1: SHARP, 2: BLURRED, 3: SHARP}, lost), []),
                            0, 0)
    seat = read_seat(2, 4)
    assert {p.seat for p in table.problems} == {seat}
    assert _small_seats(table) == ([seat] if small else [])
    assert _blurred_seats(table) == ([] if small else [seat])
    if small:
        (note,) = [p for p in table.problems if p.kind == "small"]
        assert note.message.startswith(f"Seat {seat + 1}: its indices are only 15 px tall in this photo")
        assert "close-up" in note.message and "as the camera took it" in note.message
