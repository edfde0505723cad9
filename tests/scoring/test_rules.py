"""`RuleSet` and the five presets: RULES.md's preset table as data, and how options override it."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import PRESETS, Category, Foul, RoyaltyMode, RuleSet, Wheel, preset
from scoring.cards import parse_card


def test_five_presets() -> None:
    assert set(PRESETS) == {"luosong", "weighted", "taiwan", "shisanshui", "app"}
    assert all(r.name == name for name, r in PRESETS.items())


@pytest.mark.parametrize(("name", "row_points", "wheel", "foul", "dragon"), [
    ("luosong", (1, 1, 1), Wheel.LOW, Foul.REJECT, 36),
    ("weighted", (1, 2, 3), Wheel.LOW, Foul.LOSE_ALL, 36),
    ("taiwan", (1, 1, 1), Wheel.NONE, Foul.PENALTY, 25),
    ("shisanshui", (1, 1, 1), Wheel.SECOND, Foul.REJECT, 36),
])
def test_preset_table(name: str, row_points: tuple, wheel: Wheel, foul: Foul, dragon: int) -> None:
    r = PRESETS[name]
    got = (r.row_points, r.wheel, r.foul, r.special_value("dragon"))
    assert got == (row_points, wheel, foul, dragon)
    assert (r.scoop_factor, r.home_run_factor) == (2, 2)


@pytest.mark.parametrize(("name", "points", "mode"), [
    ("luosong", (3, 4, 5), RoyaltyMode.ON_WIN),
    ("weighted", (6, 8, 10), RoyaltyMode.ON_WIN),
    ("taiwan", (3, 4, 5), RoyaltyMode.ALWAYS),
])
def test_royalties(name: str, points: tuple, mode: RoyaltyMode) -> None:
    got = {(x.row, x.category): (x.points, x.mode) for x in PRESETS[name].royalties}
    assert got == {
        ("head", Category.TRIPS): (points[0], mode),
        ("any", Category.QUADS): (points[1], mode),
        ("any", Category.STRAIGHT_FLUSH): (points[2], mode),
    }


def test_shisanshui_row_values_and_specials() -> None:
    r = PRESETS["shisanshui"]
    assert r.royalties == ()
    assert r.row_win_points("head", Category.TRIPS) == 3
    assert r.row_win_points("head", Category.PAIR) == 1
    assert [r.row_win_points("middle", c) for c in (Category.FIVE_KIND, Category.STRAIGHT_FLUSH,
                                                     Category.QUADS, Category.FULL_HOUSE, Category.FLUSH)] \
        == [20, 10, 8, 2, 1]
    assert [r.row_win_points("tail", c) for c in (Category.FIVE_KIND, Category.STRAIGHT_FLUSH,
                                                   Category.QUADS, Category.FULL_HOUSE)] == [10, 5, 4, 1]
    assert {sp.key: sp.points for sp in r.specials} == {
        "supreme_dragon": 72, "dragon": 36, "one_suit": 30, "six_of_a_kind": 20,
        "three_flushes": 5, "three_straights": 5, "six_pairs": 5, "four_trips": 5,
        "same_color": 5}
    assert r.banker_cap == 7 and r.five_kind_above_sf
    assert not PRESETS["taiwan"].five_kind_above_sf


def test_weighted_row_points() -> None:
    r = PRESETS["weighted"]
    assert [r.row_win_points(row, Category.PAIR) for row in ("head", "middle", "tail")] == [1, 2, 3]


def test_overrides_and_options() -> None:
    r = preset("taiwan", wheel="low", foul_penalty=9)
    assert r.wheel == Wheel.LOW and r.foul_penalty == 9 and r.name == "taiwan"
    assert PRESETS["taiwan"].wheel == Wheel.NONE  # presets are never changed
    r = preset("shisanshui", {"specials": {"dragon": 30, "same_color": None}})
    assert r.special_value("dragon") == 30 and r.special_value("same_color") is None
    assert r.special_value("supreme_dragon") == 72
    r = preset("luosong", royalties=[{"row": "tail", "category": "quads", "points": 2, "mode": "always"}])
    assert len(r.royalties) == 1 and r.royalties[0].mode == RoyaltyMode.ALWAYS
    r = preset("luosong", row_values=[{"row": "middle", "category": "full_house", "points": 2}])
    assert r.row_win_points("middle", Category.FULL_HOUSE) == 2
    assert preset("luosong", royalties=None).royalties == ()


def test_deck_shorthand() -> None:
    assert preset("taiwan", deck=54).jokers == 2 and preset("taiwan", deck=54).deck_size == 54
    five = preset("shisanshui", deck=65)
    assert five.extra_suit == "s" and five.deck_size == 65 and five.pairs_first
    assert preset("shisanshui", deck=65, extra_suit="h").extra_suit == "h"
    assert five.copies_allowed(parse_card("As")) == 2 and five.copies_allowed(parse_card("Ah")) == 1
    assert five.copies_allowed(parse_card("BJ")) == 0


def test_wild_rank() -> None:
    r = preset("shisanshui", wild_rank="10")
    assert r.wild_rank == "T" and r.is_wild(parse_card("Th")) and not r.is_wild(parse_card("9h"))
    assert preset("shisanshui", jokers=1).is_wild(parse_card("SJ"))


def test_ruleset_is_frozen_hashable_and_round_trips() -> None:
    r = PRESETS["shisanshui"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.wheel = Wheel.LOW  # type: ignore[misc]
    assert hash(r) == hash(preset("shisanshui"))
    as_dict = r.to_dict()
    assert as_dict["wheel"] == "second"
    dragon = {"key": "dragon", "zh": "一条龙", "en": "dragon", "test": "dragon", "points": 36}
    assert dragon in as_dict["specials"]
    assert preset(RuleSet(), as_dict) == r
    app = PRESETS["app"]
    assert preset(RuleSet(), app.to_dict()) == app and hash(preset("app")) == hash(app)


def test_category_names() -> None:
    assert Category.parse("quads") == Category.QUADS == Category.parse("四梅")
    assert Category.parse("four of a kind") == Category.QUADS
    assert Category.parse("straight flush") == Category.STRAIGHT_FLUSH
    assert Category.FULL_HOUSE.label == "full house" and Category.FULL_HOUSE.zh == "葫芦"
    with pytest.raises(ValueError):
        Category.parse("sextuple")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_field_is_an_option_that_takes_its_own_value(name: str) -> None:
    """Each `RuleSet` field has its coercer (`scoring.options.COERCE`), and a preset's own values, given
    back as options, make the same rule set: a new field without a coercer fails here."""
    from scoring.options import COERCE, with_options

    base = PRESETS[name]
    fields = [f.name for f in dataclasses.fields(RuleSet)]
    assert sorted(COERCE) == sorted(fields)
    assert with_options(base, {f: getattr(base, f) for f in fields}) == base
