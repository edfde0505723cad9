"""What is wrong at one seat, said once: which cards to check (and why), and one short line.

Three sources say overlapping things: the reader's problems (a duplicate, a doubtful card, a
changed read), the photo's confidences, and what is on screen now (a card twice at the table, a
row of the wrong length, a typo). Each card gets one mark with every reason for it; the seat gets
one line whose entries are de-duplicated, so "Ks is seen 2 times" found twice is said once. The
reader's counts (`seat_count`, `row_length`) and duplicates are left out: the rows on screen are
counted and compared afresh, and they are what the player is fixing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from appui import engine
from appui.cards import ROW_LABEL, ROWS, pretty
from appui.table import SeatInput
from appui.text import shown_name
from vision.geometry.problems import CLOSE_UP_KINDS

LOW_CONFIDENCE = 0.6
#: Reader problems the page re-derives from what is on screen; shown from there, not twice.
RECOUNTED = frozenset({"seat_count", "row_length", "duplicate"})
_SEAT_PREFIX = re.compile(r"^Seat \d+(?: (?:head|middle|tail))?:\s*")

Place = tuple[str, int]  # (row, index of the card in it)


@dataclass
class SeatFindings:
    marks: dict[Place, list[str]] = field(default_factory=dict)  # card -> its reasons, in words
    short: dict[Place, str] = field(default_factory=dict)  # card -> its first reason, in a word or two
    entries: list[str] = field(default_factory=list)  # findings about no one card (rows, the seat)
    close_up: bool = False  # the reader found the seat small or blurred: a close-up reads it better

    def mark(self, place: Place, card: str, reason: str, short: str) -> None:
        reasons = self.marks.setdefault(place, [])
        if reason not in reasons:
            reasons.append(reason)
        self.short.setdefault(place, f"{pretty(card)} {short}")

    def say(self, entry: str) -> None:
        if entry and entry not in self.entries:
            self.entries.append(entry)

    @property
    def line(self) -> str | None:
        """One entry per marked card (its first reason), then the rest; the same words once."""
        said = list(dict.fromkeys([*self.short.values(), *self.entries]))
        return " · ".join(said) if said else None


def where_else(seats: Sequence[SeatInput]) -> dict[str, list[str]]:
    """Per card, the seats holding it (a name once per copy), over the whole table."""
    out: dict[str, list[str]] = {}
    for s in seats:
        for r in ROWS:
            for c in s.cards[r]:
                out.setdefault(c, []).append(s.name)
    return out


def seat_findings(
    seat: SeatInput,
    holders: dict[str, list[str]],
    problems: Sequence[dict[str, Any]],
    confidence: dict[str, list[float]],
    rules: Any,
) -> SeatFindings:
    """Marks and line for one seat; `holders` is `where_else` of the whole table."""
    out = SeatFindings()
    _duplicates(out, seat, holders, rules)
    _doubtful(out, seat, confidence)
    _reader(out, seat, problems)
    for row, note in (seat.row_notes() if not seat.empty else {}).items():
        out.say(f"{ROW_LABEL[row].split()[-1]}: {note}")
    return out


def _duplicates(out: SeatFindings, seat: SeatInput, holders: dict[str, list[str]], rules: Any) -> None:
    for row in ROWS:
        for k, card in enumerate(seat.cards[row]):
            at = holders.get(card, [])
            if len(at) <= engine.copies_allowed(card, rules):
                continue
            others = sorted({n for n in at if n != seat.name})
            where = "also at " + ", ".join(map(shown_name, others)) if others else "twice at this seat"
            out.mark((row, k), card, f"{pretty(card)} is {where}; the deck holds it {_times(card, rules)}",
                     where)


def _times(card: str, rules: Any) -> str:
    n = engine.copies_allowed(card, rules)
    return {0: "not at all", 1: "once", 2: "twice"}.get(n, f"{n} times")


def _doubtful(out: SeatFindings, seat: SeatInput, confidence: dict[str, list[float]]) -> None:
    for row in ROWS:
        conf = confidence.get(row) or []
        if len(conf) != len(seat.cards[row]):
            continue
        for k, (card, c) in enumerate(zip(seat.cards[row], conf, strict=True)):
            if c < LOW_CONFIDENCE:
                out.mark((row, k), card, f"read with low confidence ({c:.0%}): check it against the photo",
                         "unsure")


def _reader(out: SeatFindings, seat: SeatInput, problems: Sequence[dict[str, Any]]) -> None:
    for p in problems:
        if p.get("kind") in RECOUNTED:
            continue
        out.close_up = out.close_up or p.get("kind") in CLOSE_UP_KINDS
        text = _SEAT_PREFIX.sub("", str(p.get("message") or p.get("kind") or "check this seat"))
        row, card = p.get("row"), p.get("card")
        places = [(row, k) for k, c in enumerate(seat.cards.get(row, [])) if c == card] if row else []
        for place in places:
            out.mark(place, str(card), text, "to check")
        if not places:
            out.say(text)

