"""The cards no seat shows: where they go, on a full table and beside hidden or missing seats.

Four seats of one 52-card deck hold every card, and so do five of a 65-card deck (52 and a fifth
copy of the suit the reads show twice, `deck.added_suit`), so the cards no seat shows are exactly
the cards not seen: under a chip or a hand, out of the photo, too small or too strange for the namer to keep.
Where a seat's rows lack that many cards, each unseen card belongs in one of them:

- a faint read (a proposal the namer would not keep, `IndexReads.faint`) or an unsure one left over
  lies where a short row lacks a card: among the unseen cards its scores say which it is, and when
  one of them takes at least `GeometryConfig.unseen_share` of what the read gives them all, it is
  put there (the namer may call an index of a strange deck background and still rank the right
  card first among the few possible), the surest first, each weighed again among the cards still
  unseen once a surer read has taken one;
- when the unseen cards left can only belong to one row, they go there: a row is a set, so
  nothing is guessed.

A table that is not full but whose every card's count is known (one deck at three seats, with a seat
hidden whose cards in view read as orphans, or with jokers dealt; the 65 told its added suit with a
seat out of view) still has each faint read on a hand's short row named, among the cards read fewer
times than the deck holds them, seated or not, when one of them takes that share: it cannot be a
card the deck holds no more of. Nothing follows by elimination there. Other tables (two decks, the
65 untold) are left as read.

Every card placed this way is flagged (`inferred`): it rests on every other read being right. So
on a full table each seated read that gives an unseen card a real share of its scores
(`GeometryConfig.unseen_alike`) is flagged too (`unseen_alike`): a sure misread of a card whose true
card lies hidden breaks no deck rule, and the card it should be is then among the unseen.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..classes import CLASS_INDEX, CLASS_NAMES, JOKERS
from ..types import Detection, Problem, ReadCard, SeatRead
from .config import ROW_SIZES, SEAT_SIZE, GeometryConfig, name_rows
from .corners import _single
from .deck import FIVE_PLAYER_DECK, counts_known, deck_capacity
from .fill import _taken, row_at
from .parts import SeatFrame, _Card

DECK52 = CLASS_NAMES[:52]


def place_unseen(
    seat_reads: list[SeatRead], frames: list[tuple[SeatFrame, list[int], np.ndarray]], order: list[int],
    live: list[_Card], faint: list[Detection], deck: int, cfg: GeometryConfig, problems: list[Problem],
    extra_suit: str | None = None,
) -> None:
    """Put the unseen cards of a full table (52 cards, or 65 with `extra_suit` added) where the faint
    reads and the short rows say, and at a table not full whose cards' counts are known the cards read
    less often than the deck holds them where a faint read on a hand's short row says (see the module
    docstring); `order` maps each seat read to its frame, `live` are the cards read, seated or not (a
    faint read near one of them is that card's, not a missing one)."""
    unseen = _unseen(seat_reads, deck, extra_suit)
    short, overfull = _short_rows(seat_reads)
    full = bool(unseen) and not overfull and sum(short.values()) == len(unseen)
    if full:
        problems += _alike_unseen(seat_reads, unseen, cfg)
    else:
        unseen = _not_read(live, deck, extra_suit)
        short = {(k, row): n for (k, row), n in short.items()
                 if len(seat_reads[k].cards) >= cfg.fill_min_seat}
        if not unseen or not short:
            return
    for d, card, (seat, row) in _faint_placements(faint, unseen, short, frames, order, live, cfg):
        sr = seat_reads[seat]
        getattr(sr, row).append(ReadCard(card, d.center, d.confidence, [d.box], None, d.scores))
        problems.append(Problem("inferred", f"{sr.name} {row}: {card} is the likeliest of the cards no "
                                "seat shows for a faint read here", seat, row, card))
    if full:
        _by_elimination(seat_reads, unseen, short, problems)


def _faint_placements(
    faint: list[Detection], unseen: list[str], short: dict[tuple[int, str], int],
    frames: list[tuple[SeatFrame, list[int], np.ndarray]], order: list[int], live: list[_Card],
    cfg: GeometryConfig,
) -> list[tuple[Detection, str, tuple[int, str]]]:
    """The faint reads placed as unseen cards, and where: the likeliest (`_likeliest`) on a short row
    whose index is not a read card's (`fill._taken`), one at a time, each card and row slot taken out
    of `unseen` and `short` (in place) as it is placed. The shares are weighed again among the cards
    still unseen after each placement: a read whose likeliest card another, surer read took is then
    weighed among the rest, where its next card may now take the share it needs."""
    placed: list[_Card] = []
    out: list[tuple[Detection, str, tuple[int, str]]] = []
    left = _on_rows(faint, frames, order, cfg)
    while unseen:
        pick = next(((d, card, where) for d, card, where in _likeliest(left, unseen, cfg)
                     if short.get(where, 0) > 0 and not _taken([*live, *placed], card, d, cfg)), None)
        if pick is None:
            break
        d, card, where = pick
        out.append(pick)
        left = [(f, w) for f, w in left if f is not d]
        unseen.remove(card)
        short[where] -= 1
        placed.append(_single(d))  # a second faint read on this spot is this card's
    return out


def _alike_unseen(seat_reads: list[SeatRead], unseen: list[str], cfg: GeometryConfig) -> list[Problem]:
    """The seated reads that give a card no seat shows (`unseen`; on the 65-card deck a card of the
    added suit seen once is unseen once more, and a read of it is not its own look-alike) at least
    `cfg.unseen_alike` of their scores, each flagged with the likeliest such card: any of them may be
    that card misread."""
    distinct = list(dict.fromkeys(unseen))
    out = []
    for k, sr in enumerate(seat_reads):
        for row, cards in sr.rows().items():
            for c in cards:
                others = [u for u in distinct if u != c.card]
                if c.scores is None or len(c.scores) != len(CLASS_NAMES) or not others:
                    continue
                card, score = max(((u, float(c.scores[CLASS_INDEX[u]])) for u in others), key=lambda t: t[1])
                if score >= cfg.unseen_alike:
                    out.append(Problem("unseen_alike", f"{sr.name} {row}: read {c.card}, but it may be "
                                       f"{card} ({score:.0%}), a card no seat shows", k, row, c.card, card))
    return out


def _not_read(live: list[_Card], deck: int, extra_suit: str | None = None) -> list[str]:
    """The cards the deck holds more often than the reads name them, seated or not (a table of fewer
    seats than the deck deals, a seat out of view, jokers in play), for a deck whose every card's count
    is known: one copy each, or the 65 with its added suit; none for others. The jokers are among them
    where the deck has them: at a table told it plays none their scores are too small to rank first
    (`vision.jokers`)."""
    if not counts_known(deck, extra_suit):
        return []
    cap = deck_capacity(deck, extra_suit)
    seen = Counter(c.card for c in live)
    return [c for c in CLASS_NAMES if seen[c] < cap[c]]


def _unseen(seat_reads: list[SeatRead], deck: int, extra_suit: str | None = None) -> list[str]:
    """The deck's cards no seat shows (a card of a 65-card deck's added suit possibly twice); none
    when the table is not one full deck, every card read at most as often as the deck holds it."""
    if deck not in (52, FIVE_PLAYER_DECK) or len(seat_reads) * SEAT_SIZE != deck:
        return []
    if deck == FIVE_PLAYER_DECK and extra_suit is None:
        return []
    cap = deck_capacity(deck, extra_suit)
    seen = Counter(c.card for s in seat_reads for c in s.cards)
    if any(n > cap[c] for c, n in seen.items()) or any(c in JOKERS for c in seen):
        return []
    return [c for c in DECK52 for _ in range(cap[c] - seen[c])]


def _short_rows(seat_reads: list[SeatRead]) -> tuple[dict[tuple[int, str], int], bool]:
    """How many cards each short row lacks, by (seat, row), and whether any row is over-full. A seat
    with an over-full row has no short row here: its row lacking a card most likely lacks the one
    read in the over-full row."""
    short = {}
    overfull = False
    for k, s in enumerate(seat_reads):
        lacks = {row: n - len(getattr(s, row)) for row, n in ROW_SIZES.items()}
        if min(lacks.values()) < 0:
            overfull = True
            continue
        short.update({(k, row): n for row, n in lacks.items() if n > 0})
    return short, overfull


def _on_rows(
    faint: list[Detection], frames: list[tuple[SeatFrame, list[int], np.ndarray]], order: list[int],
    cfg: GeometryConfig,
) -> list[tuple[Detection, tuple[int, str]]]:
    """The faint reads with card scores that lie on a seat's row (`row_at`), each with its (seat, row):
    where a read lies does not change as the unseen cards are placed."""
    seat_of_frame = {fi: k for k, fi in enumerate(order)}
    out = []
    for d in faint:
        if d.scores is None or len(d.scores) != len(CLASS_NAMES):
            continue
        spot = row_at(frames, np.array(d.center), cfg)
        if spot is None or spot[0] not in seat_of_frame:
            continue
        fr = frames[spot[0]][0]
        out.append((d, (seat_of_frame[spot[0]], name_rows([len(r) for r in fr.rows])[spot[1]])))
    return out


def _likeliest(
    on_rows: list[tuple[Detection, tuple[int, str]]], unseen: list[str], cfg: GeometryConfig,
) -> list[tuple[Detection, str, tuple[int, str]]]:
    """For each faint read on a seat's row (`_on_rows`): the unseen card it most resembles, when that
    card takes at least `cfg.unseen_share` of the read's scores over the unseen cards; surest first."""
    unseen = sorted(set(unseen), key=unseen.index)  # a card unseen twice is still one candidate
    cols = [CLASS_INDEX[c] for c in unseen]
    out = []
    for d, where in on_rows:
        q = np.asarray(d.scores, dtype=np.float64)[cols]
        if q.sum() <= 0:
            continue
        share = q / q.sum()
        top = int(share.argmax())
        if share[top] >= cfg.unseen_share:
            out.append((float(share[top] * q[top]), d, unseen[top], where))
    out.sort(key=lambda t: -t[0])
    return [(d, card, where) for _, d, card, where in out]


def _by_elimination(seat_reads: list[SeatRead], unseen: list[str], short: dict[tuple[int, str], int],
                    problems: list[Problem]) -> None:
    """The unseen cards left, when they can only belong to one row: put them there."""
    rows = [where for where, n in short.items() if n > 0]
    if not unseen or len(rows) != 1 or short[rows[0]] != len(unseen):
        return
    seat, row = rows[0]
    sr = seat_reads[seat]
    others = getattr(sr, row)
    centre = tuple(np.mean([c.center for c in others], axis=0)) if others else (0.0, 0.0)
    for card in unseen:
        others.append(ReadCard(card, (float(centre[0]), float(centre[1])), 0.0, [], None))
        problems.append(Problem("inferred", f"{sr.name} {row}: a card was not seen; by elimination it is "
                                f"{card}", seat, row, card))
