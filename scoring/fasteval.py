"""Table-based row evaluator: every 3- and 5-card row to one small integer, many rows per numpy call.

Why this shape (treys is the model): a row's value depends only on the multiset of its ranks and on
whether it is a flush, so every possible row is one of C(17,5) = 6,188 rank multisets x {flush, not}
(plus C(15,3) = 455 for the head). Each rank symbol has an integer key (`RANK_KEYS`, found by a greedy
search) such that the sums of any two different 5-multisets differ, so the sum of the five keys is
a perfect, order-free hash: no sort. The flush test is an AND of per-card suit bits. We build one
lookup table indexed by (key sum, flush) once at first use (well under a second); evaluating a batch
is then ten small gathers, a few adds and one final gather per row, all in numpy.

Wild cards (jokers, `wild_rank`) are a fourteenth rank symbol (`WILD`): the table also holds every
multiset containing wild symbols, valued as the best row the wild cards can make (they may copy a
card already in play, so five of a kind and a flush holding a pair exist). A wild card never breaks
a flush. So the same gather evaluates rows with and without wild cards.

The value scale (`Tables.value`) is one dense ``uint16`` order shared by heads and 5-card rows: a head
is compared with a middle by category, then the ranks it has in order, and a head equal on all its
cards to the middle's first cards is below it (the missing cards count lowest). What this module
does not model: the 65-card deck's "the added suit loses a tie" and the jokers' "fewer wild cards
wins a tie" -- both only split rows that are equal here, which settlement (hands.py) decides.

Card codes: ``rank * 4 + suit`` with rank 0..12 for 2..A, suit 0..3 for s h d c; wild cards are code
``WILD * 4 + k`` (rank symbol 13). `encode` turns canonical card strings (``str(card)``) into codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "shdc"
WILD = 13  # the wild rank symbol
N_SYMBOLS = 14

# Category numbers (comparable; FIVE_KIND is placed by the `five_kind_above_sf` option).
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_KIND = range(10)
CATEGORY_NAMES = (
    "high_card", "pair", "two_pair", "trips", "straight", "flush",
    "full_house", "quads", "straight_flush", "five_kind",
)
WHEELS = ("low", "second", "none")

# Greedy B5 keys: key sums of distinct multisets of at most 5 symbols (0..12 ranks, 13 wild) differ.
# (Distinct 5-sums imply distinct 3-sums.) Checked when the tables are built.
RANK_KEYS = (0, 1, 6, 31, 108, 366, 926, 2286, 5733, 12905, 27316, 44676, 94545, 147031)
SPAN5 = 5 * RANK_KEYS[-1] + 1  # key sums of 5 cards lie in [0, SPAN5)
SPAN3 = 3 * RANK_KEYS[-1] + 1
N_MULTI5 = comb(N_SYMBOLS + 4, 5)  # 8,568
N_MULTI3 = comb(N_SYMBOLS + 2, 3)  # 560
# Per card code (0..55): its rank key and its suit bit (wild codes match every suit).
CODE_KEY = np.array([RANK_KEYS[c >> 2] for c in range(56)], dtype=np.int32)
CODE_SUIT = np.array([15 if c >> 2 == WILD else 1 << (c & 3) for c in range(56)], dtype=np.uint8)


def encode(cards, wild_rank: str | None = None) -> np.ndarray:
    """Canonical card strings (or objects whose ``str`` is canonical) to uint8 codes.

    Jokers (``BJ``/``SJ``) and every card of `wild_rank` become wild codes (rank symbol 13).
    """
    out = np.empty(len(cards), dtype=np.uint8)
    for i, c in enumerate(cards):
        s = str(c)
        if s in ("BJ", "SJ", "RJ"):
            out[i] = WILD * 4 + (0 if s == "SJ" else 1)
            continue
        r, su = RANKS.index(s[0]), SUITS.index(s[1])
        out[i] = WILD * 4 + su if wild_rank is not None and s[0] == wild_rank else r * 4 + su
    return out


def decode(code: int) -> str:
    """The canonical string of a natural code (wild codes come back as ``BJ``/``SJ``)."""
    r, s = divmod(int(code), 4)
    if r == WILD:
        return "SJ" if s == 0 else "BJ"
    return RANKS[r] + SUITS[s]


def _straight_orders(wheel: str) -> dict[tuple[int, ...], int]:
    """Sorted-descending distinct ranks of each straight -> its order (higher is better)."""
    tops = list(range(4, 13))  # 6-high (top rank index 4) .. A-high (12)
    runs = [tuple(range(t, t - 5, -1)) for t in tops]
    wheel_run = (12, 3, 2, 1, 0)  # A 5 4 3 2
    if wheel == "low":
        order = [wheel_run] + runs
    elif wheel == "second":
        order = runs[:-1] + [wheel_run] + runs[-1:]
    elif wheel == "none":
        order = runs
    else:
        raise ValueError(f"unknown wheel option {wheel!r}")
    return {run: i for i, run in enumerate(order)}


def _key5(ranks: tuple[int, ...], flush: bool, straights: dict, five_above_sf: bool, flush_pairs: bool):
    """Comparable key of one natural 5-card row: (category rank, tiebreak ranks...)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    by_group = tuple(r for r, _ in groups)
    shape = tuple(n for _, n in groups)
    desc = tuple(sorted(ranks, reverse=True))
    straight = straights.get(desc) if len(counts) == 5 else None
    five_cat = 10 if five_above_sf else 8.5  # between quads (8) and straight flush (9), or on top
    if shape[0] == 5:
        return (five_cat, desc[0])
    if straight is not None and flush:
        return (9, straight)
    if shape[0] == 4:
        return (8, *by_group)
    if shape == (3, 2):
        return (7, *by_group)
    if flush:
        if flush_pairs:
            npairs = min(2, sum(1 for n in shape if n >= 2))
            return (6, npairs, *by_group)
        return (6, *desc)
    if straight is not None:
        return (5, straight)
    if shape[0] == 3:
        return (4, *by_group)
    if shape[:2] == (2, 2):
        return (3, *by_group)
    if shape[0] == 2:
        return (2, *by_group)
    return (1, *desc)


def _key3(ranks: tuple[int, ...]):
    """Comparable key of a natural head, on the 5-card scale (missing cards lowest)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    top = groups[0][1]
    cat = {1: 1, 2: 2, 3: 4}[top]
    return (cat, *(r for r, _ in groups))


_KEY_CATEGORY = {1: HIGH, 2: PAIR, 3: TWO_PAIR, 4: TRIPS, 5: STRAIGHT, 6: FLUSH, 7: FULL_HOUSE, 8: QUADS,
                 8.5: FIVE_KIND, 9: STRAIGHT_FLUSH, 10: FIVE_KIND}


def _hash(ranks: tuple[int, ...]) -> int:
    return sum(RANK_KEYS[r] for r in ranks)


@dataclass(frozen=True)
class Tables:
    """Lookup tables for one ordering (wheel, five-kind placement, flush-pairs option).

    ``five[keysum + flush * SPAN5]`` and ``three[keysum]`` are values on one dense scale;
    ``category[value]`` is the category number of each value; ``size`` the number of values.
    """

    wheel: str
    five: np.ndarray
    three: np.ndarray
    category: np.ndarray
    size: int

    def eval5(self, codes: np.ndarray) -> np.ndarray:
        """Values of rows given as an (N, 5) array of card codes, in any order."""
        c = np.asarray(codes, dtype=np.intp)
        k, b = CODE_KEY[c], CODE_SUIT[c]
        idx = k[:, 0] + k[:, 1] + k[:, 2] + k[:, 3] + k[:, 4]
        flush = (b[:, 0] & b[:, 1] & b[:, 2] & b[:, 3] & b[:, 4]) != 0
        return self.five[idx + flush * SPAN5]

    def eval3(self, codes: np.ndarray) -> np.ndarray:
        """Values of heads given as an (N, 3) array of card codes, in any order."""
        k = CODE_KEY[np.asarray(codes, dtype=np.intp)]
        return self.three[k[:, 0] + k[:, 1] + k[:, 2]]

    def value(self, cards, wild_rank: str | None = None) -> int:
        """Value of one row (3 or 5 cards, strings or Card objects)."""
        codes = encode(cards, wild_rank)[None, :]
        if codes.shape[1] == 5:
            return int(self.eval5(codes)[0])
        if codes.shape[1] == 3:
            return int(self.eval3(codes)[0])
        raise ValueError("a row has 3 or 5 cards")


@lru_cache(maxsize=16)
def tables(wheel: str = "low", five_kind_above_sf: bool = True, flush_pairs_first: bool = False) -> Tables:
    """Build (once per option set) the value tables; about 0.1 s."""
    straights = _straight_orders(wheel)
    multi5 = list(combinations_with_replacement(range(N_SYMBOLS), 5))
    multi3 = list(combinations_with_replacement(range(N_SYMBOLS), 3))
    assert len(multi5) == N_MULTI5 and len(multi3) == N_MULTI3
    # natural keys
    key5: dict[tuple[int, int], tuple] = {}
    for m in multi5:
        if m[-1] == WILD:
            continue
        for f in (0, 1):
            key5[(_hash(m), f)] = _key5(m, bool(f), straights, five_kind_above_sf, flush_pairs_first)
    key3 = {_hash(m): _key3(m) for m in multi3 if m[-1] != WILD}
    # wild keys: best over substitutions, by number of wild symbols (each step replaces one wild)
    for nw in range(1, 6):
        for m in multi5:
            if sum(1 for r in m if r == WILD) != nw:
                continue
            rest = m[: 5 - nw]
            for f in (0, 1):
                best = None
                for r in range(13):
                    sub = tuple(sorted(rest + (r,))) + (WILD,) * (nw - 1)
                    k = key5[(_hash(sub), f)]
                    if best is None or k > best:
                        best = k
                key5[(_hash(m), f)] = best
    for nw in range(1, 4):
        for m in multi3:
            if sum(1 for r in m if r == WILD) != nw:
                continue
            rest = m[: 3 - nw]
            key3[_hash(m)] = max(key3[_hash(tuple(sorted(rest + (r,))) + (WILD,) * (nw - 1))]
                                  for r in range(13))
    if len(key5) != 2 * N_MULTI5 or len(key3) != N_MULTI3:
        raise AssertionError("RANK_KEYS are not a perfect hash")
    all_keys = sorted(set(key5.values()) | set(key3.values()))
    rank_of = {k: i for i, k in enumerate(all_keys)}
    five = np.zeros(2 * SPAN5, dtype=np.uint16)
    for (ix, f), k in key5.items():
        five[ix + f * SPAN5] = rank_of[k]
    three = np.zeros(SPAN3, dtype=np.uint16)
    for ix, k in key3.items():
        three[ix] = rank_of[k]
    category = np.array([_KEY_CATEGORY[k[0]] for k in all_keys], dtype=np.uint8)
    for a in (five, three, category):
        a.setflags(write=False)
    return Tables(wheel, five, three, category, len(all_keys))


def tables_for(rules) -> Tables:
    """The tables for a RuleSet-like object (reads `wheel`, `five_kind_above_sf` and `pairs_first`,
    the resolved `flush_pairs_first`)."""
    pairs = getattr(rules, "pairs_first", getattr(rules, "flush_pairs_first", False))
    return tables(str(getattr(rules, "wheel", "low")), bool(getattr(rules, "five_kind_above_sf", True)),
                  bool(pairs))
