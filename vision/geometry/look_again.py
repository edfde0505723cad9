"""Where a hand's row lacks a card, the boxes for the namer to look at again.

The proposer misses an index now and then (a tight fan hides most of it, a strange deck's glyphs),
and the namer calls some true boxes background: the seat then reads 10-12 cards with a row short.
The row's other indices say where the missing one lies: on the line through them, between two of
them or just beyond either end. This module turns a read table into boxes along each short row's
line, a third of an index apart (`GeometryConfig.scan_step`), for the reader to name
(`vision.second_look`); what it names there is an unsure read, and `fill` takes it only where the
row still lacks a card, flagged. It works on the table as read (seats, rows, boxes), never on
pixels.
"""

from __future__ import annotations

import math

import numpy as np

from ..types import Box, ReadCard, SeatRead, TableRead
from .config import ROW_SIZES, SEAT_SIZE, GeometryConfig


def row_scan(table: TableRead, cfg: GeometryConfig = GeometryConfig()) -> list[Box]:
    """Boxes along the line of every short row of every seat of `cfg.fill_min_seat` to 12 cards (a
    hand laid out, short of a card or more), from `cfg.scan_reach` index heights before its first
    card's index to as far beyond its last, `cfg.scan_step` index heights apart; each the size of the
    row's indices. Loose cards (a smaller seat) have rows short everywhere: none there."""
    boxes: list[Box] = []
    for seat in table.seats:
        if not cfg.fill_min_seat <= len(seat.cards) < SEAT_SIZE:
            continue
        right, down = _axes(seat)
        for name, cards in seat.rows().items():
            if 0 < len(cards) < ROW_SIZES[name]:
                boxes += _scan(np.array([_top_left(c, right, down) for c in cards]), right, down, cfg)
    return boxes


def _axes(seat: SeatRead) -> tuple[np.ndarray, np.ndarray]:
    """The seat's along-the-row and across-the-rows unit vectors in photo pixels (`orientation_deg`:
    0 for an upright seat, 90 when its up is the photo's left, as `rows` measures it)."""
    t = math.radians(seat.orientation_deg)
    return np.array([math.cos(t), -math.sin(t)]), np.array([math.sin(t), math.cos(t)])


def _top_left(card: ReadCard, right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The card's top-left index box (the one up and to the left in the seat's frame): the one that
    lines up with its row's others."""
    boxes = [np.array(b, np.float64) for b in card.boxes]
    return min(boxes, key=lambda b: float((b[:2] + b[2:]) @ (right + down)))


def _scan(tops: np.ndarray, right: np.ndarray, down: np.ndarray, cfg: GeometryConfig) -> list[Box]:
    """Boxes along the line through the index boxes `tops` (fitted across the seat as a line along
    it), each of their mean size, `cfg.scan_step` index heights apart past both ends."""
    centres = (tops[:, :2] + tops[:, 2:]) / 2
    along, across = centres @ right, centres @ down
    size = (tops[:, 2:] - tops[:, :2]).mean(axis=0)
    unit = float(np.mean(np.max(tops[:, 2:] - tops[:, :2], axis=1)))
    slope, level = np.polyfit(along, across, 1) if np.ptp(along) > 0 else (0.0, float(across.mean()))
    steps = np.arange(along.min() - cfg.scan_reach * unit, along.max() + cfg.scan_reach * unit + 1e-9,
                      cfg.scan_step * unit)
    points = steps[:, None] * right + (level + slope * steps)[:, None] * down
    return [tuple(float(v) for v in np.concatenate([p - size / 2, p + size / 2])) for p in points]
