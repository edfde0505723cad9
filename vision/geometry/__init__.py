"""From corner-index detections to seats and rows: plain data in, plain data out, no model.

`read_table(detections, ...) -> TableRead` runs these stages, one module each. Where a stage
chooses between readings, `score` (one weighted sum of named departures from a clean 3/5/5 table,
its weights in `score.Weights`) decides:

1. `corners`: the unit of every distance is one index height (`index_scale`, the median box side),
   so the same code reads a close-up and a whole table. A card shows its index twice (top-left, and
   bottom-right on the last card of a row); `merge_corners` pairs same-named detections a card
   diagonal apart (and, tried as a second variant, farther: small indices on a large card).
2. `seats`: cards cluster by seat: the single-linkage tree of card centres (in the cards' own index
   heights) is cut where the groups come closest to 13 cards, long links breaking ties.
3. `rows`: a seat's rows are lines of nearly collinear index centres. The row direction is the angle
   whose perpendicular projection piles the points up most (a projection profile; its other peaks
   are tried when the best does not read 3/5/5), the player's side is away from the table centre
   (a seat alone: its corners vote), each card is anchored on its top-left index (`anchors` may step
   a lone bottom-right corner back by the deck's corner offset), and a 1-D split gives the rows: the
   3-card end row is the head, then the middle, the far one the tail.
4. `pairs`, `copies`: once a seat's frame is known, its corner pairs are checked in it (a card's
   second corner sits below and right of its first, at the offset the seat's other cards show). One
   deck (`pairs`): two corners read apart merge, a pair no card could make splits. Two decks
   (`copies`): every way of pairing each name's corners is a reading; one search over them (a name
   or two changed at a time) keeps the one of lowest score, so copies paired as one card and
   another card's corners apart are mended together. `place` runs stages 2-4 for each seat count
   and corner reach worth trying; the placement of lowest score wins.
5. `fill`, `deck`, `unseen`: an unsure read (under the namer's bar) joins a nearly full seat's row
   that lacks a card where it lies on the row's line. Each card exists once (twice with two decks):
   one assignment over the class scores picks the most probable consistent reading, in which a seat
   of more than 13 gives up its least probable extra reads as false, and a read where a card shows
   its second corner may fold into that card, which both reads then name. On a full 52-card table the
   cards no seat shows go where a faint read resembles one of them, or to the one row they can
   only belong to.
6. `problems`: wrong counts, duplicates, changes, low confidence (a low top score, or a runner-up
   close behind on either corner), an undecided side, a row whose cards run across its seat's rows,
   cards in no seat. Nothing is guessed silently.
"""

from .config import ROW_SIZES, SEAT_SIZE, GeometryConfig, name_rows
from .read import read_table
from .rows import row_direction, row_directions
from .seats import group_seats

__all__ = ["ROW_SIZES", "SEAT_SIZE", "GeometryConfig", "group_seats", "name_rows", "read_table",
           "row_direction", "row_directions"]
