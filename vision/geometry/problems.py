"""What the read cannot vouch for, each located (seat, row, card): the `Problem`s of a table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ..classes import CLASS_INDEX, SUIT_SIGNS
from ..types import Detection, Problem, SeatRead
from .config import ROW_SIZES, SEAT_SIZE, GeometryConfig, name_rows
from .corners import _all_reads, _corner_offset_of, _covered, _pair_unit
from .deck import FIVE_PLAYER_DECK, _runner_up, added_suit, deck_capacity
from .facing import facing_problems
from .parts import SeatFrame, _Card, _side


@dataclass(frozen=True)
class Seated:
    """A table once placed: the cards, each seat's (frame, card indices, centre), the seats' reading
    order, the seats as read, each card's (seat, row) by id, the cards still in play, the ids left
    out as false reads, the deck size and a 65-card deck's added suit."""

    cards: list[_Card]
    frames: list[tuple[SeatFrame, list[int], np.ndarray]]
    order: list[int]
    seat_reads: list[SeatRead]
    seat_of: dict[int, tuple[int, str]]
    live: list[_Card]
    gone: set[int]
    deck: int
    extra_suit: str | None = None  # a 65-card deck's added suit, as the reads show it (`added_suit`)


def table_problems(
    t: Seated, seats: int | None, width: int, height: int, scale: float,
    left_out: list[tuple[_Card, tuple[int, str, int]]], changed: list[_Card], cfg: GeometryConfig,
) -> list[Problem]:
    """Every problem but the orphans' and the legibility notes (`legibility_problems`), in the order a
    player reads them: counts, side, facing, rows, the deck's."""
    return (_count_problems(t, seats) + _orientation_problems(t, width, height, scale)
            + facing_problems(t.seat_reads, cfg)
            + _row_line_problems(t, cfg) + _deck_problems(t, left_out, changed, cfg)
            + _same_card_problems(t, cfg) + _unsure_problems(t, cfg))


def added_suit_hint(names: list[str], deck: int) -> Problem | None:
    """A table read as the 52 (`place._deck_for`) whose reads show one suit twice, as the five-player
    deck's added suit would (`added_suit`): the five-player game untold (a seat out of the photo), or
    one suit misread as another on a strange deck. The reads cannot tell which; the players can, so
    the table says so once, beside the repeats each seat is flagged for."""
    suit = added_suit(names, FIVE_PLAYER_DECK) if deck == 52 else None
    if suit is None:
        return None
    n = sum(1 for name, k in Counter(names).items() if k >= 2 and name[-1] == suit)
    return Problem("added_suit", f"{n} {SUIT_SIGNS[suit]} cards are read twice: if this is the "
                   f"five-player game (65 cards), give the reader its added suit, {SUIT_SIGNS[suit]}; "
                   "otherwise they are misreads of other cards, flagged where they lie")


def _count_problems(t: Seated, seats: int | None) -> list[Problem]:
    """Seats not of 13 cards, rows not of 3/5/5, fewer seats than told, and nothing read at all."""
    out: list[Problem] = []
    for sr in t.seat_reads:
        n = len(sr.cards)
        if n != SEAT_SIZE:
            out.append(Problem("seat_count", f"{sr.name} has {n} cards instead of {SEAT_SIZE}", sr.seat))
        for row, want in ROW_SIZES.items():
            got = len(getattr(sr, row))
            if got != want:
                out.append(Problem("row_length", f"{sr.name} {row}: {got} cards instead of {want}",
                                   sr.seat, row))
    if seats and len(t.frames) != seats:
        out.append(Problem("seat_missing", f"found {len(t.frames)} seats, expected {seats}"))
    if not any(sr.cards for sr in t.seat_reads):
        # An empty read is not an empty table: nothing may pass as "read, no problem" that read nothing.
        out.append(Problem("no_cards", "no card was read in this photo: retake it closer and "
                                       "better lit, or type the cards"))
    return out


def _orientation_problems(t: Seated, width: int, height: int, scale: float) -> list[Problem]:
    """A seat alone, cut by the photo's edge, whose side its corners did not decide; a seat whose cards
    read 3/5/5 along two row directions (`SeatFrame.two_ways`): nothing in the counts tells which."""
    out: list[Problem] = []
    for number, fi in enumerate(t.order):
        fr, g, _ = t.frames[fi]
        if not fr.side_known and width and height and any(
                min(b[0], b[1], width - b[2], height - b[3]) < scale for i in g for b in t.cards[i].boxes):
            out.append(Problem("orientation", f"{t.seat_reads[number].name}: the photo cuts the seat off "
                               "and its corners do not show which side the player sits: rows may "
                               "be swapped", number))
        if fr.two_ways:
            out.append(Problem("two_ways", f"{t.seat_reads[number].name}: its cards line up in rows of "
                               "3/5/5 along two directions, holding other cards: check which row each "
                               "card is in", number))
    return out


def _row_line_problems(t: Seated, cfg: GeometryConfig) -> list[Problem]:
    """Rows whose cards line up across the seat's rows rather than along them.

    A row's cards lie along the seat's row direction (`SeatFrame.right`), tilted a little by
    perspective or a fanned hand. When a seat's cut takes in a column of a neighbouring seat's cards,
    or the rows are split across the cards, a "row" can still come to 3 or 5 cards and the seat to
    3/5/5, with nothing else to show it: its cards then run more across the seat than along it (the
    line through them closer to `down` than to `right`), over more than `cfg.row_across` index heights.
    """
    out: list[Problem] = []
    for number, fi in enumerate(t.order):
        fr, _, _ = t.frames[fi]
        unit = max(fr.scale, 1e-9)
        for name, row in zip(name_rows([len(r) for r in fr.rows]), fr.rows, strict=True):
            pts = np.array([fr.anchors[j] for j in row
                            if not fr.members[j].gone and id(fr.members[j]) not in t.gone]).reshape(-1, 2)
            if len(pts) < 2 or float(np.ptp(pts @ fr.down)) <= cfg.row_across * unit:
                continue
            axis = np.linalg.svd(pts - pts.mean(0), full_matrices=False)[2][0]
            if abs(float(axis @ fr.down)) > abs(float(axis @ fr.right)):
                out.append(row_line_problem(t.seat_reads[number].name, number, name))
    return out


def _seat_median(t: Seated, measure: Callable[[Detection], float | None]) -> dict[int, float]:
    """By seat number, the median of `measure(read)` over the reads of the seat's cards (None: not
    measured)."""
    values: dict[int, list[float]] = {}
    for c in t.live:
        if id(c) in t.seat_of:
            values.setdefault(t.seat_of[id(c)][0], []).extend(
                v for d in _all_reads(c) if (v := measure(d)) is not None)
    return {s: float(np.median(v)) for s, v in values.items() if v}


def seat_blur(t: Seated) -> dict[int, float]:
    """Each seat's median blur over its cards' measured reads (`Detection.blur`), by seat number."""
    return _seat_median(t, lambda d: d.blur)


def seat_index_size(t: Seated) -> dict[int, float]:
    """Each seat's median index height in photo pixels (its cards' read boxes' longer sides)."""
    return _seat_median(t, lambda d: _side(d.box))


#: The kinds of `legibility_problems`: the photo shows the seat too small or smeared, and a close-up of
#: it reads better than correcting it.
CLOSE_UP_KINDS = frozenset({"small", "blurred"})


def legibility_problems(t: Seated, flagged: set[int | None], cfg: GeometryConfig) -> list[Problem]:
    """Of the `flagged` seats, those whose indices this photo shows too small or smeared for a sure
    read (a far seat of a photo a chat app shrank, or of a defocused or shaken one): why the seat is
    in doubt, and what reads it better than correcting it card by card. Too small comes first, one
    note a seat: resampled small indices measure as smeared too, and a sharper photo of the same
    size would not mend them. A seat nothing else flags is left unflagged: its reads came out whole
    and sure, and it is read exactly, so the note would be a check for nothing."""
    size, blur = seat_index_size(t), seat_blur(t)
    out: list[Problem] = []
    for s in sorted(x for x in flagged if x is not None and x in size):
        name = t.seat_reads[s].name
        if size[s] < cfg.small_index:
            out.append(Problem("small", f"{name}: its indices are only {size[s]:.0f} px tall in this "
                               "photo, too small to read surely: a close-up of this seat, or the photo as "
                               "the camera took it (a chat app shrinks photos), reads better than "
                               "correcting it", s))
        elif blur.get(s, 0.0) >= cfg.blurred:
            out.append(Problem("blurred", f"{name}: blurred in this photo (its indices smeared over "
                               f"{blur[s]:.0%} of their height): a close-up of this seat reads better than "
                               "correcting it", s))
    return out


def row_line_problem(seat_name: str, seat: int, row: str) -> Problem:
    """The `row_line` problem of a seat's row, worded so that the row is named once the app drops the
    "Seat N:" prefix it shows the seat by."""
    return Problem("row_line", f"{seat_name}: the {row}'s cards lie across the seat's rows, not along one: "
                   "the row may hold another seat's cards or another row's", seat, row)


def _deck_problems(
    t: Seated, left_out: list[tuple[_Card, tuple[int, str, int]]], changed: list[_Card], cfg: GeometryConfig,
) -> list[Problem]:
    """False reads left out, cards the deck fix renamed, corners that disagree, and duplicates."""
    out: list[Problem] = []
    for c, (s, row, n) in left_out:
        copies = [o for o in t.live if o.card == c.card]
        if copies:
            why = f"read {c.card}, but that card is already on the table and the seat had {n} cards"
        else:
            why = f"the seat had {n} cards and {c.card} was its least sure read"
        if not read_twice(t.seat_reads[s], c.card):
            out.append(Problem("false_read", f"Seat {s + 1} {row}: {why}: left out as a false read",
                               s, row, c.card))
        # a seat of 14 must give a card up, and a read repeating one of another seat's is the one it
        # gives up, sure or not: that other read may be the misread (and its seat then wrong), unless
        # it is read at more of the card's corners, all naming it (`_outnumbers`)
        for o in copies:
            s2, row2, where = _where(t, o)
            if s2 is not None and s2 != s and not _outnumbers(o, c):
                out.append(Problem("contested", f"{where}: {c.card} was read in Seat {s + 1} {row} too, "
                                   "left out there as a false read: either may be the misread", s2, row2,
                                   c.card))
    for c in changed:
        if id(c) in t.gone:
            continue
        s, row, where = _where(t, c)
        out.append(Problem("changed", f"{where}: read {c.changed_from}, but that card is already on "
                           f"the table; most likely {c.card}", s, row, c.card))
    out += _contested(t, left_out, changed, cfg.contested_ratio)
    for c in t.live:
        if c.corners_disagree:
            s, row = t.seat_of.get(id(c), (None, None))
            out.append(Problem("corners_disagree", f"the two corners of one card read differently; "
                               f"took {c.card}", s, row, c.card))
    cap = deck_capacity(t.deck, t.extra_suit)
    where_seen: dict[str, list[tuple[int | None, str | None]]] = {}
    for c in t.live:
        where_seen.setdefault(c.card, []).append(t.seat_of.get(id(c), (None, None)))
    for card, places in where_seen.items():
        if len(places) > cap[card]:
            said = (f"{card} is seen {len(places)} times" if cap[card] else
                    f"{card} is read, but the {t.deck}-card deck holds none")
            for s, row in places:
                out.append(Problem("duplicate", said, s, row, card))
    return out


def read_twice(seat: SeatRead, card: str) -> bool:
    """Whether a read of `card` left out of `seat` was that card's index read twice (a second corner,
    a box on its pip), nothing for the player to check: the seat holds `card` itself and is a whole
    hand, 3/5/5 of 13 different cards. A read left out of a seat short of a card, or of one holding
    it nowhere, may be the misread of a card the seat lacks, and is flagged (`false_read`)."""
    names = [c.card for c in seat.cards]
    whole = all(len(cards) == ROW_SIZES[row] for row, cards in seat.rows().items())
    return whole and card in names and len(set(names)) == SEAT_SIZE


def _contested(
    t: Seated, left_out: list[tuple[_Card, tuple[int, str, int]]], changed: list[_Card], ratio: float,
) -> list[Problem]:
    """The cards whose name the deck fix could as well have swapped with a read it renamed.

    Of two reads of one card the fix renames the one whose loss costs least, but when the other way
    round (the keeper renamed to what the renamed one became) is at least `ratio` as probable, either
    may be the misread (two jokers read as the same one at 84% and 74%): the keeper is flagged too.
    So is a keeper of another name when the renamed read names the keeper's card about as well as
    the keeper names the renamed one's (a Qs read Qc surely in one seat, the Qc read unsurely as a 3c
    in another and renamed Qs: the two may be each other's card), and when a read taken unsurely
    where its row lacked a card (`fill`) may be the keeper's card as well (a Qs read surely as Qc, the
    Qc read unsurely as Qs: at a five-seat table the spades' second copies break no deck rule). A read
    renamed to the keeper's own name (a second copy) contests nothing. A read left out as false is not
    renamed: `_deck_problems` flags its copy in another seat instead.
    """
    out: list[Problem] = []
    gone = {id(c) for c, _ in left_out} | t.gone
    renamed = [c for c in changed if id(c) not in gone and c.changed_from and c.scores is not None]
    unsure = [c for c in t.live
              if c.unsure and id(c) not in gone and not c.changed_from and c.scores is not None]
    for c in t.live:
        if id(c) in gone or c.changed_from or c.unsure or c.scores is None:
            continue
        for r in [*renamed, *unsure]:
            x, y = CLASS_INDEX[c.card], CLASS_INDEX[r.card]
            chosen = float(c.scores[x]) * float(r.scores[y])
            swapped = float(c.scores[y]) * float(r.scores[x])
            if x != y and swapped >= ratio * chosen:
                s, row, where = _where(t, c)
                out.append(Problem("contested", f"{where}: {c.card}, or {r.card}: {_contest(c, r)}, and "
                                   "either may be the misread", s, row, c.card))
                break  # one flag a card, however many reads contest it
    return out


def _outnumbers(keeper: _Card, left: _Card) -> bool:
    """Whether `keeper` is read at more of a card's corners than the read `left` out, every corner
    naming it: a card read at two corners or more (a four-corner deck's mostly) against a lone read
    elsewhere, a pip or a neighbour's extra corner the seat cut took in."""
    reads = _all_reads(keeper)
    return (not keeper.corners_disagree and all(d.card == keeper.card for d in reads)
            and len(reads) > len(_all_reads(left)))


def _contest(keeper: _Card, r: _Card) -> str:
    """What read `r` did that makes `keeper`'s name doubtful (`_contested`)."""
    if not r.changed_from:
        return f"a card read unsurely as {r.card} may be the {keeper.card}"
    if r.changed_from == keeper.card:
        return f"another card read as {keeper.card} was renamed {r.card}"
    return f"a read of {r.changed_from} was renamed {r.card} and may be the {keeper.card}"


def _where(t: Seated, c: _Card) -> tuple[int | None, str | None, str]:
    """A card's seat and row, and how a message names the place ("Seat 2 middle")."""
    s, row = t.seat_of.get(id(c), (None, None))
    return s, row, (f"Seat {s + 1} {row}" if s is not None else "a card outside the seats")


def _same_card_problems(t: Seated, cfg: GeometryConfig) -> list[Problem]:
    """Two copies in one hand: legal with two decks (and common), flagged only when they could be one
    card's two corners read apart (`_corners_of_one`)."""
    out: list[Problem] = []
    cap = deck_capacity(t.deck, t.extra_suit)
    cards = t.cards
    photo_offset = _corner_offset_of(cards, [(fr, g) for fr, g, _ in t.frames])
    for number, fi in enumerate(t.order):
        fr, g, _ = t.frames[fi]
        offset = _corner_offset_of(cards, [(fr, g)])
        offset = offset if offset is not None else photo_offset
        by_name: dict[str, list[_Card]] = {}
        for row in fr.rows:
            for j in row:
                if id(cards[g[j]]) not in t.gone:
                    by_name.setdefault(cards[g[j]].card, []).append(cards[g[j]])
        anchors = [a for row in fr.rows for j in row if (a := fr.anchor(cards[g[j]])) is not None]
        for card, copies in by_name.items():
            if 1 < len(copies) <= cap[card] and _corners_of_one(copies, fr, offset, cfg, anchors):
                rows = [t.seat_of[id(c)][1] for c in copies]
                out.append(Problem("same_card", f"{t.seat_reads[number].name}: {card} twice "
                                   f"({' and '.join(rows)}); two copies, or one card's two corners?",
                                   number, rows[-1], card))
    return out


def _unsure_problems(t: Seated, cfg: GeometryConfig) -> list[Problem]:
    """Unsure reads: one taken where a row lacked a card (`fill`), a low top score, or a runner-up
    close behind (on the card or either corner)."""
    out: list[Problem] = []
    for c in t.live:
        if id(c) not in t.seat_of or not c.boxes or c.changed_from:
            continue  # outside the seats (an orphan) or changed: reported as such
        s, row = t.seat_of[id(c)]
        name = t.seat_reads[s].name
        runners = [r for r in [_runner_up(c.card, c.scores)] + [_runner_up(c.card, d.scores) for d in c.dets]
                   if r is not None]
        close = min(runners, key=lambda r: r[2]) if runners else None
        if c.unsure:
            out.append(Problem("low_confidence", f"{name} {row}: not sure this is {c.card} "
                               f"({c.confidence:.0%}); it was taken where the row lacked a card",
                               s, row, c.card))
        elif c.confidence < cfg.low_confidence:
            out.append(Problem("low_confidence", f"{name} {row}: not sure this is {c.card} "
                               f"({c.confidence:.0%})", s, row, c.card))
        elif close is not None and close[2] < cfg.low_margin:
            out.append(Problem("low_confidence", f"{name} {row}: not sure this is {c.card} "
                               f"({c.confidence:.0%}) or {close[0]} ({close[1]:.0%})", s, row, c.card))
    return out


def _corners_of_one(
    copies: list[_Card], fr: SeatFrame, offset: np.ndarray | None, cfg: GeometryConfig,
    anchors: list[np.ndarray],
) -> bool:
    """Whether two same-named cards of a seat could be one card's two corners read apart: both lone
    corners, the upper one's second corner not covered by the next card in its row (`anchors`: the
    seat's top-left index centres; `offset`: where the second corner sits, from the seat or the
    photo), and either a pair split after seating that could be one card or the lower one where any
    card's second corner could sit (`pair_box_one_deck`). Other copies cannot be one card: with two
    decks such hands are common, and flagging them all would bury the real problems."""
    x1, y1, x2, y2 = cfg.pair_box_one_deck
    for a, b in combinations(copies, 2):  # the points as seen: a lone corner's anchor may be virtual
        upper, lower = sorted((a, b), key=lambda c: min(float(p @ fr.down) for p in c.points))
        if len(lower.points) != 1 or len(upper.points) != 1:
            continue  # the upper one shows both its corners: the lower one is another card
        top = min(upper.points, key=lambda p: float(p @ fr.down))
        others = [p for p in anchors if p is not fr.anchor(upper) and p is not fr.anchor(lower)]
        # covered when the next card's left edge (~0.3 left of its index) lies over the second
        # index (~0.2 wide) by more than the ~40% that hides an index: a spread row shows it
        reach = float(offset[0]) + 0.3 if offset is not None else 4.0
        if _covered(top, others, fr, fr.scale or upper.size, cfg, reach):
            continue  # the next card in its row lies over where its second corner would be
        if upper.split and lower.split:  # a possible pair split (counts, offset): the doubt is real
            return True
        v = (lower.points[0] - top) / _pair_unit(upper, lower, fr)
        if x1 <= v @ fr.right <= x2 and y1 <= v @ fr.down <= y2:
            return True
    return False
