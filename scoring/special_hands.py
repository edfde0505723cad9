"""Special hands (报到) as data: each one's names, the test its 13 cards must pass, and its value.

A table's `RuleSet.specials` is a tuple of `Special` in its order, highest first. The same word can
mean different hands at different tables (seed 004 judges 三同花 on the rows as laid out, the apps
on "some split of the 13 cards"; seed 004's 六对半 counts trips as a pair and a single, the apps'
does not), so a special names its test (`SpecialTest`) instead of being one: the tests themselves
live in `scoring.specials`, which evaluates cards. `SpecialRank` says whether a table ranks its
specials by value (the seeds) or by their listed order (the apps).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum


class SpecialTest(StrEnum):
    """What the 13 cards must be; implemented in `scoring.specials`."""

    DRAGON = "dragon"                                  # 13 different ranks, any suits
    SUPREME_DRAGON = "supreme_dragon"                  # 13 different ranks, all one suit
    MIXED_DRAGON = "mixed_dragon"                      # 13 different ranks, not all one suit
    COURT_CARDS = "court_cards"                        # every card J, Q, K or A
    THREE_QUADS = "three_quads"                        # three quads and one card
    ALL_EIGHT_UP = "all_eight_up"                      # every card 8 to A
    ALL_EIGHT_DOWN = "all_eight_down"                  # every card 2 to 8
    ONE_COLOR = "one_color"                            # all red or all black
    FOUR_TRIPS = "four_trips"                          # four trips and one card (a quad: trips + single)
    FIVE_PAIRS_TRIPS = "five_pairs_trips"              # exactly five pairs and one trips
    SIX_PAIRS = "six_pairs"                            # six pairs + 1 (trips: pair + single; quad: 2 pairs)
    SIX_PAIRS_NO_TRIPS = "six_pairs_no_trips"          # six pairs + 1 (quad: 2 pairs; trips never count)
    ROWS_FLUSHES = "rows_flushes"                      # the rows as laid out: 3-card flush, two flushes
    ROWS_STRAIGHTS = "rows_straights"                  # the rows as laid out: 3 consecutive, two straights
    SPLIT_FLUSHES = "split_flushes"                    # some 3 + 5 + 5 split: 3-card flush, two flushes
    SPLIT_STRAIGHTS = "split_straights"                # some split: 3-card straight, two straights
    SPLIT_STRAIGHT_FLUSHES = "split_straight_flushes"  # some split: every row a straight flush
    SIX_OF_A_KIND = "six_of_a_kind"                    # six cards of one rank (wild cards count)
    ADDED_SUIT = "added_suit"                          # all 13 of the 65-card deck's added suit


class SpecialRank(StrEnum):
    """How a table ranks its specials, both for a hand that makes several and between two hands."""

    VALUE = "value"   # the higher value; equal values tie (RULES.md's settlement, the seeds)
    ORDER = "order"   # the earlier in `RuleSet.specials`; only the same special ties (preset `app`)


@dataclass(frozen=True)
class Special:
    """One special a table plays: `key` (the name options and JSON use), its names in the table's
    words, the `test` on the cards, and `points` won from each opponent without a higher one."""

    key: str
    zh: str
    en: str
    test: SpecialTest
    points: int

    def __str__(self) -> str:
        return f"{self.zh} {self.en} ({self.points})"

    def worth(self, points: int) -> Special:
        return dataclasses.replace(self, points=points)


_T = SpecialTest
SEED_SPECIALS: tuple[Special, ...] = (
    Special("dragon", "一条龙", "dragon", _T.DRAGON, 36),
    Special("supreme_dragon", "至尊青龙", "supreme dragon", _T.SUPREME_DRAGON, 72),
    Special("three_flushes", "三同花", "three flushes", _T.ROWS_FLUSHES, 5),
    Special("three_straights", "三顺子", "three straights", _T.ROWS_STRAIGHTS, 5),
    Special("six_pairs", "六对半", "six pairs", _T.SIX_PAIRS, 5),
    Special("four_trips", "四套三条", "four trips", _T.FOUR_TRIPS, 5),
    Special("same_color", "清一色", "same color", _T.ONE_COLOR, 5),
    Special("six_of_a_kind", "六同", "six of a kind", _T.SIX_OF_A_KIND, 20),
    Special("one_suit", "清一花", "one suit", _T.ADDED_SUIT, 30),
)
"""The specials of the four seed presets (RULES.md's preset table), in their canonical order (which
of two equal-valued specials a hand shows); the values are seed 004's, each preset sets its own."""

APP_SPECIALS: tuple[Special, ...] = (
    Special("supreme_dragon", "至尊青龙", "supreme dragon", _T.SUPREME_DRAGON, 32),
    Special("dragon", "一条龙", "dragon", _T.MIXED_DRAGON, 30),
    Special("twelve_royals", "十二皇族", "twelve royals", _T.COURT_CARDS, 24),
    Special("three_straight_flushes", "三同花顺", "three straight flushes", _T.SPLIT_STRAIGHT_FLUSHES, 20),
    Special("three_quads", "三分天下", "three quads", _T.THREE_QUADS, 20),
    Special("all_big", "全大", "all big", _T.ALL_EIGHT_UP, 10),
    Special("all_small", "全小", "all small", _T.ALL_EIGHT_DOWN, 10),
    Special("one_color", "凑一色", "one color", _T.ONE_COLOR, 10),
    Special("four_trips", "四套三条", "four trips", _T.FOUR_TRIPS, 6),
    Special("five_pairs_trips", "五对三条", "five pairs and trips", _T.FIVE_PAIRS_TRIPS, 5),
    Special("six_pairs", "六对半", "six pairs", _T.SIX_PAIRS_NO_TRIPS, 4),
    Special("three_straights", "三顺子", "three straights", _T.SPLIT_STRAIGHTS, 4),
    Special("three_flushes", "三同花", "three flushes", _T.SPLIT_FLUSHES, 3),
)
"""Preset `app` (RULES.md "Preset `app`"): its thirteen specials, highest first."""

CATALOGUE: dict[str, Special] = {
    **{sp.key: sp for sp in APP_SPECIALS},
    **{sp.key: sp for sp in SEED_SPECIALS},
}
"""Every special an option may add to a table that lacks it, by key; where the seeds and the apps
use one key for different hands (dragon, six_pairs, three_flushes, three_straights) it is the seeds'."""

SEED_ORDER: dict[str, int] = {sp.key: i for i, sp in enumerate(SEED_SPECIALS)}
"""Place of each seed special in the canonical order of a table that ranks by value."""


def seed_specials(**points: int) -> tuple[Special, ...]:
    """Seed specials by key with a table's values: `seed_specials(dragon=25)`."""
    unknown = sorted(set(points) - set(SEED_ORDER))
    if unknown:
        raise KeyError(f"not a seed special: {', '.join(unknown)}")
    return tuple(sp.worth(points[sp.key]) for sp in SEED_SPECIALS if sp.key in points)


__all__ = ["APP_SPECIALS", "CATALOGUE", "SEED_ORDER", "SEED_SPECIALS", "Special", "SpecialRank",
           "SpecialTest", "seed_specials"]
