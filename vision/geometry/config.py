"""The geometry's tolerances and the shape of a hand: 13 cards in rows of 3, 5 and 5 (which row is which)."""

from __future__ import annotations

from dataclasses import dataclass

ROW_SIZES = {"head": 3, "middle": 5, "tail": 5}
SEAT_SIZE = 13


@dataclass(frozen=True)
class GeometryConfig:
    """Tolerances, in index heights (the median detection box side) unless said otherwise."""

    pair_min: float = 1.6  # top-left to bottom-right index centres of one card: 1.6..5.5 indices
    pair_max: float = 6.0
    # corners this far apart are tried as one card too (a deck with small indices on a large card puts
    # them ~7 index heights apart); kept when the seats come closer to 3/5/5
    pair_max_far: float = 8.0
    pair_box_one_deck: tuple[float, float, float, float] = (-0.5, 0.7, 7.5, 9.5)  # tilted camera: a far
    # seat's cards are sheared, their corner diagonal can lean left of the row normal
    pair_typical: float = 3.5
    pair_box: tuple[float, float, float, float] = (1.0, 1.2, 3.8, 5.0)  # where any deck puts it
    pair_split: float = 1.2  # beyond this it is two cards (a 65-card deck's copies)
    # a read of another name this near where a card's second corner shows may be that corner misread
    # (`pairs.second_corner_reads`): a seat frame some 10 degrees off moves the corner ~0.7, a
    # half-covered index's box centre ~0.3 more
    second_corner_reach: float = 1.8
    line_sigma: float = 0.25  # spread of index centres around a row line
    row_gap: float = 0.8  # a gap larger than this between projections starts a new row
    attach: float = 1.0  # how far off a row line a stray card (or an unsure read) may be and still join it
    # a stray card or an unsure read (`fill`) joins a row it lies at most this far beyond the ends of
    # (a card's width)
    row_reach: float = 4.0
    # ... and only into a seat of at least this many cards: a hand laid out, short of a card or two (a
    # photo of a few loose cards has rows short everywhere, and its unsure reads are mostly not cards)
    fill_min_seat: int = 10
    # where such a seat's row lacks a card, the namer looks again along the row's line (`look_again`):
    # a box every this many index heights, from this many beyond each end of the row
    scan_step: float = 0.33
    scan_reach: float = 1.5
    # a lone corner stepped back by the corner offset may land this many times the row tolerance off
    # a row (perspective in a close-up) and still be tried there, kept only if the counts improve
    loose_step: float = 3.0
    # a seat alone whose counts read alike both ways round is turned the way its rows are straighter
    # by more than this (the widest row's spread of anchors across it)
    spread_margin: float = 1.0
    # a row whose cards spread more than this across the seat's rows (index heights) and line up
    # across them rather than along them is flagged (`problems._row_line_problems`): a player lays a
    # row along the seat, and perspective or a fan turns it by a few tens of degrees at most
    row_across: float = 1.5
    # turns (degrees) of the direction a seat's rows are split along, tried when the fitted one does
    # not give 3/5/5: the one closest to 3/5/5 is kept (on a tie, the smaller turn)
    split_turns: tuple[float, ...] = (2.0, -2.0, 4.0, -4.0, 6.0, -6.0, 8.0, -8.0)
    # other peaks of the row-direction profile (at least this share of the best) tried when the best
    # does not read 3/5/5 with every two-corner card possible: cards laid in a grid line up along
    # columns and diagonals too
    direction_rivals: int = 4
    direction_ratio: float = 0.6
    # a seat alone: this many more corner votes for one side than the other make its side known; fewer
    # (but some) stand only if the corners as seen do not read closer to 3/5/5 the other way round
    side_votes: int = 2
    seat_min: int = 5  # fewer cards than this are not a seat (stray cards)
    # a one-deck seat of fewer cards than this is not read as a hand laid out in rows (a photo of a few
    # loose cards, each turned its own way): its frame cannot say where a card's second corner must
    # lie, so its corner pairs stand as paired instead of being split into a card and a copy
    frame_min_cards: int = 10
    stray_link: float = 12.0  # a card farther than this from any other is a stray, not part of a seat
    seat_cut_candidates: int = 8  # how many of the longest links beyond k-1 a seat cut may use
    seat_size_weight: float = 1.0  # one card off 13 weighs like one index height of link
    # a seat cut's unit of length at a card: the median index height of it and its nearest cards, this
    # many in all (`seats.local_unit`): one box's odd height does not set it
    unit_neighbours: int = 3
    # when no such cut gives 13-card seats, this many: under camera tilt a far seat's row gaps (in its
    # own small index heights) can outgrow the link to a near neighbour, and a side seat's row can lie
    # nearer the next seat than its own (slower: tried only then; five seats, ~10,000 cuts at once)
    seat_cut_more: int = 20
    low_confidence: float = 0.5
    # a read whose best class leads the next by less than this is flagged too: a detector that is
    # wrong is mostly unsure (right reads lead by 0.35 or more in benchmarks.geometry's score model)
    low_margin: float = 0.3
    fix_with_deck: bool = True
    # a card of a seat of more than 13 that the deck fix could only rename to a card of under this
    # score is taken as a false read (a half box, card art): left out of the seat, reported, not renamed
    false_read_below: float = 0.1
    # a card read twice within one seat of 10 or more, at a table whose seats hold the whole deck: the
    # second read is left out as the same card seen twice (two corners the frame could not pair: a
    # sheared close-up) rather than renamed to a card of under this score; a misread in a laid-out hand
    # mostly keeps a few percent on its true card, a card seen twice keeps almost nothing on any other.
    # At a table of fewer seats the bar is `false_read_below` (`read._false_read_slots`)
    repeat_read_below: float = 0.03
    # a faint read where a full table's short row lacks a card is taken as the unseen card it most
    # resembles when that card has at least this share of its scores over all the unseen cards
    unseen_share: float = 0.5
    # on a full table a read that gives a card no seat shows at least this score is flagged as maybe
    # that card: the unseen card rests on no read naming it, and a sure misread of it (its true card
    # hidden) breaks no deck rule; the deck fix holds a rename to a card of this score unlikely
    # (`false_read_below`), so this much is a real alternative
    unseen_alike: float = 0.1
    # a seat whose index boxes' log(height / width) split into two groups of at least `facing_least`
    # cards with a step of at least `facing_step` between them faces two ways (`facing`): its cards
    # are two seats'. On the decision sets the step within a seat read exactly stays under 0.4 (its
    # tens against its other ranks); where a seat held two seats' cards it was 0.5 to 1.4.
    facing_step: float = 0.5
    facing_least: int = 3
    # a read that kept a name the deck fix took from another read is flagged too when the other way
    # round (it renamed, the other keeping the name) is at least this probable against the fix's choice
    contested_ratio: float = 0.1
    # a seat in doubt whose reads' median blur (`vision.sharpness`, over the index height) reaches this
    # also says it is blurred: such a seat is read exactly far less often than a sharp one, and a
    # close-up of it reads better than correcting it card by card
    blurred: float = 0.065
    # ... or whose indices are under this many photo pixels tall (the median of its reads' longer box
    # sides) says they are too small: a far seat of a photo a chat app shrank, where a sharp seat of
    # 12-16 px indices is read exactly less than half the time (the decision design's tables at 1600 px)
    small_index: float = 16.0


def name_rows(counts: list[int]) -> list[str]:
    """Names for rows ordered far to near: the end with 3 cards is the head, then middle, tail.

    Two rows of more than three cards cannot hold the head: it is out of view (a close-up cut by the
    photo's edge), and players lay it farthest from them, so the far row is the middle.

    >>> name_rows([3, 5, 5]), name_rows([5, 5, 3]), name_rows([5, 4, 4]), name_rows([2, 5])
    (['head', 'middle', 'tail'], ['tail', 'middle', 'head'], ['tail', 'middle', 'head'], ['head', 'middle'])
    >>> name_rows([5, 4]), name_rows([4, 2])
    (['middle', 'tail'], ['middle', 'head'])
    """
    if len(counts) == 3:
        far_head = abs(counts[0] - 3) + abs(counts[2] - 5)
        near_head = abs(counts[2] - 3) + abs(counts[0] - 5)
        return ["head", "middle", "tail"] if far_head <= near_head else ["tail", "middle", "head"]
    if len(counts) == 2:
        if min(counts) > ROW_SIZES["head"]:
            return ["middle", "tail"]
        return ["head", "middle"] if counts[0] <= counts[1] else ["middle", "head"]
    return ["middle"] * len(counts)
