"""Photo of a 十三水 reveal in, seats and rows of cards out (onnxruntime + opencv, no torch).

>>> import vision
>>> table = vision.read("photo.jpg")              # doctest: +SKIP
>>> table.to_table()["players"][0]["head"]         # doctest: +SKIP
['As', 'Ad', '7c']
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .classes import CLASS_NAMES, SUITS
from .detector import (
    DEFAULT_CONF,
    DEFAULT_UNSURE_CONF,
    Detector,
    IndexReads,
    ModelMismatchError,
    ModelMissingError,
    ScaleConfig,
    get_detector,
)
from .geometry import GeometryConfig, read_table
from .geometry.look_again import row_scan
from .imageio import ImageReadError, ImageSource, open_photo, read_image
from .jokers import at_table_without_jokers
from .regions import RegionConfig
from .second_look import SecondLook, look_again
from .types import Detection, Problem, ReadCard, SeatRead, TableRead

__all__ = [
    "CLASS_NAMES",
    "Detection",
    "Detector",
    "GeometryConfig",
    "ImageReadError",
    "ModelMismatchError",
    "ModelMissingError",
    "Problem",
    "ReadCard",
    "RegionConfig",
    "ScaleConfig",
    "SeatRead",
    "TableRead",
    "detect",
    "get_detector",
    "open_photo",
    "read",
    "read_image",
    "read_table",
    "table_of",
]


def _detector(model: str | Path | Detector | None) -> Detector:
    if isinstance(model, Detector):
        return model
    return get_detector(str(model) if model is not None else None)


def detect(image: ImageSource, *, model: str | Path | Detector | None = None) -> list[Detection]:
    """Every corner index in the photo, boxes in pixels of the original (EXIF-rotated) image."""
    return _detector(model).detect(image)


GREY_PHOTO = Problem("grey_photo", "the photo has no colour, so red suits (♥ ♦) cannot be told from "
                     "black ones (♠ ♣): check the suit of every card, or retake the photo in colour")


def read(
    image: ImageSource,
    *,
    seats: int | None = None,
    deck: int | None = None,
    jokers: int | None = None,
    extra_suit: str | None = None,
    model: str | Path | Detector | None = None,
    geometry: GeometryConfig | None = None,
) -> TableRead:
    """Seats with head/middle/tail cards, plus what the reader is unsure of (`TableRead.problems`).

    `jokers`: how many the table plays with; with 0 no read is a joker and no misread card is
    renamed to one (`vision.jokers`); None leaves the reader free to. `extra_suit`: the five-player
    game's added suit (s, h, d or c), which makes the deck its 65 cards: a seat's photo alone then
    keeps two copies of that suit's cards (without it the added suit is the one the table shows
    twice). A photo without colour is a `grey_photo` problem: the suits' colours are what tells ♥
    from ♠."""
    if extra_suit is not None and (len(extra_suit) != 1 or extra_suit not in SUITS):
        raise ValueError(f"extra_suit must be one of {', '.join(SUITS)}, not {extra_suit!r}")
    det = _detector(model)
    photo = open_photo(image, long_side=det.scale.long_side, detail=True)
    reads = det.read_indices(photo)
    table = table_of(reads, photo.width, photo.height, conf=det.conf,
                     unsure_conf=det.unsure_conf, seats=seats, deck=deck, jokers=jokers,
                     extra_suit=extra_suit, geometry=geometry,
                     second_look=lambda boxes: look_again(det, photo, reads, boxes))
    if photo.grey:
        table.problems.insert(0, dataclasses.replace(GREY_PHOTO))
    return table


def table_of(
    reads: IndexReads,
    width: int,
    height: int,
    *,
    conf: float = DEFAULT_CONF,
    unsure_conf: float = DEFAULT_UNSURE_CONF,
    seats: int | None = None,
    deck: int | None = None,
    jokers: int | None = None,
    extra_suit: str | None = None,
    geometry: GeometryConfig | None = None,
    second_look: SecondLook | None = None,
) -> TableRead:
    """`read`'s table from one photo's index reads (`Detector.read_indices`, made with the sure bar
    `conf` and the unsure floor `unsure_conf`) of a photo `width` x `height`: the benchmarks read kept
    reads through it, as the app reads a photo. At a table without jokers (`jokers` 0) no read is a
    joker (`at_table_without_jokers`, by the same bars). `second_look`: the namer's unsure reads of
    boxes of the photo (`vision.second_look.look_again`); given, it is asked about the boxes along
    every hand's short row (`row_scan`), where there are any, and what it finds there is taken where
    a row still lacks a card (`read_table`'s `looked`)."""
    cfg = geometry or GeometryConfig()

    def at_table(reads: IndexReads) -> IndexReads:
        return at_table_without_jokers(reads, conf, unsure_conf) if jokers == 0 else reads

    told = at_table(reads)

    def placed(looked: list[Detection]) -> TableRead:
        return read_table(told.sure, seats=seats, deck=deck, width=width, height=height, cfg=cfg,
                          unsure=told.unsure, faint=told.faint, extra_suit=extra_suit, looked=looked)

    table = placed([])
    boxes = row_scan(table, cfg) if second_look is not None else []
    found = at_table(IndexReads([], second_look(boxes))) if boxes else IndexReads([], [])
    return placed([*found.sure, *found.unsure]) if found.sure or found.unsure else table
