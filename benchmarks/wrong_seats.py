"""Why a rendered seat came out wrong: which stage of the reader lost each card it lacks.

A wrong seat lacks some of its true cards in some row (`lacking`). For each such card the scene's
labels give the indices it shows, and the reader's reads say what lies on them (`read_on`); the card
is then, in the order the reader's stages run:

- ``hidden``: it shows no index (under a chip, paper or another card, or out of the photo); no reader
  names it but by elimination;
- ``unread``: no read lies on any index it shows (no box, or the namer called the box background);
- ``unsure``: only reads under the namer's bar (unsure or faint) lie there;
- ``misread``: a sure read of another card lies there, and none of this card;
- ``placed``: a sure read of this very card lies there: the namer had it, the geometry put it in
  another row or seat;
- ``renamed``: the same, but the seat holds it renamed by the one-deck fix (`ReadCard.changed_from`):
  another card was misread as this one, and the fix renamed the wrong one of the two.

`WrongSeats` counts the seats with each kind, and the seats wrong for placement alone (every card they
lack was read surely and right) or for extra reads alone (they lack nothing): which stage to improve.

>>> card_kind([])
'hidden'
>>> card_kind(["unsure 7c 0.41", "sure 7c 0.93"], "7c"), card_kind(["faint Qs 0.12"], "Qh")
('placed', 'unsure')
>>> card_kind(["sure 7c 0.93"], "7c", renamed=True)
'renamed'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from benchmarks.metrics import ReadOn, read_on
from benchmarks.pipeline import ROWS, rows_of, truth_of
from vision.classes import CLASS_NAMES
from vision.detector import IndexReads
from vision.types import SeatRead

#: The kinds of a lacking card, in the order the reader's stages run (see the module's docstring).
KINDS = ("hidden", "unread", "unsure", "misread", "placed", "renamed")


def card_kind(on: list[ReadOn | None], card: str = "", renamed: bool = False) -> str:
    """The kind of a lacking `card` from what lies on each index it shows (`read_on`: a read, or None
    for nothing) and whether its seat holds it `renamed` by the deck fix; no index shown is
    ``hidden``."""
    if not on:
        return "hidden"
    reads = [r for r in on if r is not None]
    if any(r.group == "sure" and r.card == card for r in reads):
        return "renamed" if renamed else "placed"
    if any(r.group == "sure" for r in reads):
        return "misread"
    return "unsure" if reads else "unread"


def lacking(truth: dict[str, Counter], seat: SeatRead | None) -> list[tuple[str, str]]:
    """The (row, card) pairs a true seat holds and its read seat (None: no seat read) does not."""
    read = rows_of(seat) if seat is not None else {r: Counter() for r in ROWS}
    return [(r, card) for r in ROWS for card in sorted((truth[r] - read[r]).elements())]


def read_groups(reads: IndexReads) -> dict[str, list[tuple[str, tuple, float]]]:
    """One photo's reads as `read_on` takes them: (card, box, confidence) by group, sure first."""
    return {name: [(d.card, d.box, d.confidence) for d in getattr(reads, name) if d.card in CLASS_NAMES]
            for name in ("sure", "unsure", "faint")}


def what_lies_on(meta: dict, seat: int, card: str, groups: dict) -> list[ReadOn | None]:
    """What the reader has on each index that `card` of true seat `seat` shows (`read_on` over the
    photo's `read_groups`: the sure, unsure or faint read lying there, or None); empty when the card
    shows no index."""
    shown = [tuple(i["box"]) for c in meta["cards"] if c["card"] == card and c["seat"] == seat
             for i in c.get("indices", []) if i["visible"]]
    return [read_on(b, groups) for b in shown]


def _lacking_kinds(meta: dict, t: int, seat: SeatRead | None, truth: dict[str, Counter], groups: dict
                   ) -> list[tuple[str, str, list[ReadOn | None], str]]:
    """For each card true seat `t` lacks: its row, the card, what lies on its indices and its kind
    (`card_kind`, asked whether the read `seat` holds the card renamed)."""
    renamed = {c.changed_from for c in seat.cards} if seat is not None else set()
    out = []
    for r, card in lacking(truth, seat):
        on = what_lies_on(meta, t, card, groups)
        out.append((r, card, on, card_kind(on, card, card in renamed)))
    return out


@dataclass
class WrongSeats:
    """Wrong seats counted by the kinds of the cards they lack (a seat counts once under each kind it
    has), and those wrong for placement alone or for extra reads alone."""

    seats: int = 0
    by_kind: Counter = field(default_factory=Counter)
    placement_alone: int = 0
    extra_alone: int = 0

    def add(self, meta: dict, wrong: list[tuple[int, SeatRead | None]], reads: IndexReads) -> None:
        """The wrong seats of one photo: (true seat, the seat read for it or None), as `SeatScore`
        collects them."""
        truth, groups = truth_of(meta), read_groups(reads)
        for t, seat in wrong:
            self.seats += 1
            kinds = {kind for *_, kind in _lacking_kinds(meta, t, seat, truth[t], groups)}
            self.by_kind.update(kinds)
            self.placement_alone += kinds == {"placed"}
            self.extra_alone += not kinds

    def merge(self, other: WrongSeats) -> None:
        """Count `other`'s seats too (a group of sets summed)."""
        self.seats += other.seats
        self.by_kind.update(other.by_kind)
        self.placement_alone += other.placement_alone
        self.extra_alone += other.extra_alone

    def line(self) -> str:
        parts = ", ".join(f"{k} {self.by_kind[k]}" for k in KINDS)
        return (f"wrong seats {self.seats}, by what lies on a card they lack (a seat under each kind it "
                f"has): {parts}; placement alone {self.placement_alone}, "
                f"extra reads alone {self.extra_alone}")


def difference(truth: dict[str, Counter], seat: SeatRead | None) -> str:
    """What a read seat has other than its true rows ("no seat read" for None)."""
    if seat is None:
        return "no seat read"
    out = []
    for r, got in rows_of(seat).items():
        if got != truth[r]:
            missing, extra = sorted((truth[r] - got).elements()), sorted((got - truth[r]).elements())
            out.append(f"{r} missing {missing} extra {extra}")
    return "; ".join(out)


def why(meta: dict, wrong: list[tuple[int, SeatRead | None]], reads: IndexReads) -> list[str]:
    """For each wrong seat of one photo: what differs and, for each card it lacks, what the reader has
    on each of that card's indices (`what_lies_on`) and its kind (`card_kind`)."""
    truth, groups = truth_of(meta), read_groups(reads)
    lines = []
    for t, seat in wrong:
        lines.append(f"{meta['image']} true seat {t}: {difference(truth[t], seat)}")
        for r, card, on, kind in _lacking_kinds(meta, t, seat, truth[t], groups):
            said = " | ".join(str(x) if x is not None else "nothing" for x in on) or "no index shown"
            lines.append(f"    lacks {card} ({r}): {said} [{kind}]")
    return lines
