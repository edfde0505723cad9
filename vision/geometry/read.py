"""`read_table`: detections in, seats, rows and problems out.

The stages, each in its own module: `corners` pairs corner indices into cards, `seats` cuts the
cards into seats, `rows` reads each seat's frame and rows, `pairs` checks the corner pairs in each
seat's frame (`place` runs those per seat count and corner reach tried), `fill` takes unsure reads
where a row lacks a card, `deck` applies the one-deck constraints, `recut` cuts a seat of 13 whose
rows miscount by count, and `problems` says what the read cannot vouch for.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..types import Detection, Problem, ReadCard, SeatRead, TableRead
from .config import ROW_SIZES, SEAT_SIZE, GeometryConfig, name_rows
from .corners import _corner_offset, _pair_box_middle, index_scale
from .deck import (
    FIVE_PLAYER_DECK,
    FalseReadSlots,
    _leave_out_false_reads,
    added_suit,
    counts_known,
    deck_capacity,
    fix_with_deck,
    one_copy_each,
)
from .fill import fill_from_unsure, row_hit
from .pairs import second_corner_reads
from .parts import SeatFrame, _Card
from .place import best_placement
from .problems import Seated, added_suit_hint, legibility_problems, table_problems
from .recut import moved_problems, recut_whole_seats
from .rows import _top_left
from .seats import _seat_order
from .unseen import place_unseen
from .unsure_seats import with_unsure_seats


def read_table(
    dets: list[Detection],
    *,
    seats: int | None = None,
    deck: int | None = None,
    width: int = 0,
    height: int = 0,
    cfg: GeometryConfig = GeometryConfig(),
    unsure: list[Detection] | None = None,
    faint: list[Detection] | None = None,
    extra_suit: str | None = None,
    looked: list[Detection] | None = None,
) -> TableRead:
    """Seats, rows and problems from detections. `seats` (1..5) if known; `deck` 52 or 65 (default:
    65 for five seats, else 52: `place._deck_for`). `extra_suit`: the 65-card deck's added suit where
    the table's rules name it (the deck is then the 65, at any count of seats in the photo); else it
    is the one the reads show twice (`deck.added_suit`). `unsure`: reads under the namer's operating
    threshold, taken only where a seat's rows lack a card (`fill`); `faint`: proposals the namer kept
    no read of, weighed with the unsure reads left only among the cards no seat of a full table
    shows (`unseen`); `looked`: the reader's second look along rows that lacked a card
    (`vision.second_look`), taken as the unsure reads are, but never into the placement: the seats
    were cut without them, and stay so."""
    if extra_suit is not None:
        deck = FIVE_PLAYER_DECK
    scale = index_scale(dets)
    placed = best_placement(dets, seats, deck, width, height, scale, cfg, extra_suit=extra_suit)
    best = with_unsure_seats(placed, dets, unsure or [], seats, deck, width, height, scale, cfg, extra_suit)
    cards, frames, deck = best.cards, best.frames, best.deck
    fill_from_unsure(cards, frames, [*(unsure or []), *(looked or [])], cfg)
    live = [c for c in cards if not c.gone]
    hint = None
    if extra_suit is None:  # untold: the suit the reads show twice, and what that may mean
        names = [c.card for c in live]
        extra_suit, hint = added_suit(names, deck), added_suit_hint(names, deck)
    strays = [i for i in best.strays if not cards[i].gone]
    slots = _false_read_slots(cards, frames, strays, deck, cfg, extra_suit)
    folds = _second_corner_folds(cards, frames, deck, cfg, extra_suit)
    changed, false = (fix_with_deck(live, deck, slots, cfg.false_read_below, extra_suit, folds)
                      if cfg.fix_with_deck else ([], []))
    false_ids = {id(c) for c in false}
    false_strays = [i for i in strays if id(cards[i]) in false_ids]
    orphans = _attach_strays(cards, frames, [i for i in strays if id(cards[i]) not in false_ids], scale, cfg)
    centre = best.table_centre if best.table_centre is not None else np.zeros(2)
    order = _seat_order([f[2] for f in frames], centre)
    moved = recut_whole_seats(cards, frames, false_ids)
    seat_reads, seat_of, read_of = _seat_reads(cards, frames, order, false_ids)
    left_out = _leave_out_false_reads(seat_reads, false, seat_of, read_of)
    gone = {id(c) for c, _ in left_out} | {id(cards[i]) for i in false_strays}
    live = [c for c in live if id(c) not in gone]
    problems: list[Problem] = [hint] if hint else []
    place_unseen(seat_reads, frames, order, live, [*(unsure or []), *(faint or [])], deck, cfg, problems,
                 extra_suit)
    seated = Seated(cards, frames, order, seat_reads, seat_of, live, gone, deck, extra_suit)
    problems += table_problems(seated, seats, width, height, scale, left_out, changed, cfg)
    problems += moved_problems(seat_reads, order, moved)
    orphan_reads = [cards[i].read() for i in orphans]
    problems += _outside_problems(orphan_reads, [cards[i].card for i in false_strays])
    # last, why a seat in doubt may be so: its indices are too small or blurred in this photo
    problems += legibility_problems(seated, {p.seat for p in problems}, cfg)
    # as read, still shown (the app can put one back)
    false_reads = [c.read() for c, _ in left_out] + [cards[i].read() for i in false_strays]
    return TableRead(seat_reads, problems, orphan_reads, width, height,
                     extra_suit if deck == FIVE_PLAYER_DECK else None, false_reads)


def _outside_problems(orphans: list[ReadCard], false_strays: list[str]) -> list[Problem]:
    """The cards read outside every seat: each orphan, and each read left out there as a false read
    (`false_strays`, their names)."""
    return ([Problem("orphan", f"{rc.card} lies outside every seat", card=rc.card) for rc in orphans]
            + [Problem("false_read", f"a card outside the seats: read {name}, but that card is already on "
                       "the table: left out as a false read", card=name) for name in false_strays])


def _false_read_slots(
    cards: list[_Card], frames: list[tuple[SeatFrame, list[int], np.ndarray]], strays: list[int], deck: int,
    cfg: GeometryConfig, extra_suit: str | None = None,
) -> list[FalseReadSlots]:
    """The cards that may be taken as false reads (`fix_with_deck`): a seat of more than 13 must
    give up its extra ones, those of its over-full rows (`_overfull_rows`) preferred; with one deck, a
    seat of a few loose cards (fewer than `frame_min_cards`) may give up any of them. Loose cards are
    no hand, so no card is missing from them: a second read of a card there is that card seen twice
    (two corners too far apart to pair, two boxes on one index), not a misread of a card that is not
    seen. A seat of a hand (10 or more) may also give up the reads of a card beyond what the deck
    holds of it (one deck, or a 65-card deck whose added suit the reads show: `extra_suit`), at the
    cost `repeat_read_below` where the seats hold the whole deck, else `false_read_below`: such a repeat
    is renamed only to a card the namer gives some chance. At a full table its true card is one of
    the few no seat shows, and the namer's few percent on one of them names it; at a table of fewer
    seats it may be any of the many cards not dealt to these seats, and a few percent on one of
    those is no more than a card seen twice keeps on other names (a hand photographed alone, its
    9d's second corner renamed 9s at 6%: a card not on the photo). So
    may a read in no seat (`strays`) of a card the table reads more often than the deck holds it: a
    pattern the namers take for one card (a cloth's dots read as a joker) is no card at all, not a
    rename of every dot to a card no seat shows. Two seats' reads of one card stay to be renamed: one
    is mostly a misread of a card no seat shows, and leaving out the wrong one loses a card read
    right."""
    cap = deck_capacity(deck, extra_suit)
    counted = counts_known(deck, extra_suit)
    below = cfg.repeat_read_below if len(frames) * SEAT_SIZE >= deck else cfg.false_read_below
    slots, seated = [], []
    for fr, g, _ in frames:
        live = [cards[i] for i in g if not cards[i].gone]
        seated += live
        ids = {id(c) for c in live}
        if len(ids) > SEAT_SIZE:
            slots.append(FalseReadSlots(ids, len(ids) - SEAT_SIZE, True, _overfull_rows(fr, cfg) & ids))
        if _loose(len(ids), deck, cfg):
            slots.append(FalseReadSlots(ids, len(ids)))
        elif counted:
            slots += _repeat_slots(live, Counter(c.card for c in live), cap, below)
    stray = [cards[i] for i in strays]
    table = Counter(c.card for c in seated + stray)
    return slots + (_repeat_slots(stray, table, cap, below) if counted else [])


def _loose(n_cards: int, deck: int, cfg: GeometryConfig) -> bool:
    """Whether a seat of `n_cards` is a few loose cards, no hand: with one deck, fewer than
    `frame_min_cards`. No card is missing from them, so a second read of a card there is that card
    seen twice, left out (`_false_read_slots`), never renamed or folded."""
    return one_copy_each(deck) and n_cards < cfg.frame_min_cards


def _second_corner_folds(
    cards: list[_Card], frames: list[tuple[SeatFrame, list[int], np.ndarray]], deck: int, cfg: GeometryConfig,
    extra_suit: str | None,
) -> list[tuple[_Card, _Card]]:
    """(corner, card): in each seat but loose cards (`_loose`) of a table whose counts are known, a
    read lying where another card shows its second corner (`pairs.second_corner_reads`; beside the
    next card of its row too where the seat, of a one-copy deck, holds a read too many): the one-deck
    fix may fold it into that card (`fix_with_deck`) instead of renaming either to a card no seat
    shows."""
    if not counts_known(deck, extra_suit):
        return []
    offset = _corner_offset(cards, [(fr, g) for fr, g, _ in frames])
    offset = _pair_box_middle(cfg) if offset is None else offset
    folds = []
    for fr, g, _ in frames:
        n = sum(not cards[i].gone for i in g)
        if _loose(n, deck, cfg):
            continue
        overfull = n > SEAT_SIZE and one_copy_each(deck)
        folds += [(cards[r], cards[c]) for r, c in second_corner_reads(cards, g, fr, offset, cfg, overfull)]
    return folds


def _repeat_slots(cards: list[_Card], times: Counter, cap: dict[str, int], below: float
                  ) -> list[FalseReadSlots]:
    """One slot for `cards`' reads of a card read more often (`times`) than the deck holds, as many of
    them as the deck has too many, each left out at the cost of a rename to a card of score `below`."""
    repeats = [c for c in cards if times[c.card] > cap[c.card]]
    count = min(len(repeats), sum(max(0, times[k] - cap[k]) for k in {c.card for c in repeats}))
    return [FalseReadSlots({id(c) for c in repeats}, count, below=below)] if repeats else []


def _overfull_rows(fr: SeatFrame, cfg: GeometryConfig) -> set[int]:
    """The ids of the cards in a seat's rows that hold more than their row may (the 6 of 3/5/6): a
    seat of 14 gives up a card from there, not from a row of the right length. Of those, the cards
    that lie apart from their row (no other card of it within a card's width, `cfg.row_reach` index
    heights: a neighbouring seat's cards that show past a chip or the photo's edge, taken into the row
    by the seat cut) when there are any: the cards of a row's fan overlap."""
    names = name_rows([len(r) for r in fr.rows])
    over = [r for r, name in zip(fr.rows, names, strict=True) if len(r) > ROW_SIZES[name]]
    unit = max(fr.scale, 1e-9)
    apart = {id(fr.members[j]) for r in over for j in r
             if min(float(np.linalg.norm(fr.anchors[j] - fr.anchors[k])) for k in r if k != j)
             > cfg.row_reach * unit}
    return apart or {id(fr.members[j]) for r in over for j in r}


def _attach_strays(
    cards: list[_Card], frames: list[tuple[SeatFrame, list[int], np.ndarray]], strays: list[int],
    scale: float, cfg: GeometryConfig,
) -> list[int]:
    """Strays near a seat's row line (a card pushed out of line) join that row; returns the rest, the
    orphans. A stray lies where its top-left corner is in each seat's frame, measured in the photo's
    index heights (`scale`); the nearest row line wins."""
    orphans: list[int] = []
    for i in strays:
        c = cards[i]
        hits = []
        for fi, (fr, _, _) in enumerate(frames):
            anchor = _top_left(c, fr.down)
            if (h := row_hit(fr, anchor, cfg, scale)) is not None:
                hits.append((h[0], fi, h[1], anchor))
        if not hits:
            orphans.append(i)
            continue
        _, fi, ri, anchor = min(hits, key=lambda h: h[0])
        fr, g, _ = frames[fi]
        g.append(i)
        fr.add(c, anchor, ri)
    return orphans


def _seat_reads(
    cards: list[_Card], frames: list[tuple[SeatFrame, list[int], np.ndarray]], order: list[int],
    false_ids: set[int],
) -> tuple[list[SeatRead], dict[int, tuple[int, str]], dict[int, ReadCard]]:
    """The seats as read, numbered in `order`; and, by card id, each card's seat and row and read.
    Which row is the head is told by the rows' counts without the false reads (`false_ids`), which
    leave their rows after: a misread second corner that made both end rows 4 long leaves a 3."""
    seat_reads: list[SeatRead] = []
    seat_of: dict[int, tuple[int, str]] = {}
    read_of: dict[int, ReadCard] = {}
    for number, fi in enumerate(order):
        fr, g, _ = frames[fi]
        names = name_rows([sum(id(cards[g[j]]) not in false_ids for j in r) for r in fr.rows])
        sr = SeatRead(number, fr.orientation_deg)
        for name, row in zip(names, fr.rows, strict=True):
            target = getattr(sr, name)
            for j in row:
                target.append(cards[g[j]].read())
                seat_of[id(cards[g[j]])] = (number, name)
                read_of[id(cards[g[j]])] = target[-1]
        seat_reads.append(sr)
    return seat_reads, seat_of, read_of
