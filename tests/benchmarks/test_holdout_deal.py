"""benchmarks.holdout's deal: which held-out designs `--designs` names, and the render folder it names."""

from __future__ import annotations

import pytest

import benchmarks.holdout as holdout
from benchmarks.holdout import Deal, designs_named
from benchmarks.pipeline import added_suit_of, jokers_of
from datasets.synth.holdout import Split

STORED = ("cardsjs", "gnome-bellot", "kde-dondorf", "kde-jolly-royal", "kde-standard", "younestouati")


class _Stored:
    """What `designs_named` reads of a stored design: whether it prints all four corners."""

    def __init__(self, name: str) -> None:
        self.four_corners = name == "kde-dondorf"


@pytest.fixture
def store(monkeypatch):
    monkeypatch.setattr(holdout, "stored_names", lambda: list(STORED))
    monkeypatch.setattr(holdout, "load", _Stored)


@pytest.mark.parametrize(
    ("prefixes", "named"),
    [
        ("kde", ("kde-jolly-royal", "kde-standard")),
        ("kde-standard,gnome", ("gnome-bellot", "kde-standard")),
        ("younes", ("younestouati",)),
    ],
)
def test_designs_are_named_by_prefix_within_the_held_out_split(store, prefixes, named):
    assert designs_named(Split.HELD_OUT, prefixes) == named


def test_four_corner_tables_name_the_four_corner_designs_only(store):
    assert designs_named(Split.HELD_OUT, "kde", four_corners=True) == ("kde-dondorf",)


def test_a_prefix_naming_no_design_of_the_split_says_which_it_has(store):
    with pytest.raises(ValueError, match="no held_out design starts with cardsjs: the split has gnome-"):
        designs_named(Split.HELD_OUT, "cardsjs")  # a trained design is never dealt by the benchmark


@pytest.mark.parametrize(
    ("deal", "suffix"),
    [
        (Deal(), ""),
        (Deal(5, True), "-4corners-5seats"),
        (Deal(designs=("kde-penguins", "kde-standard")), "-kde-penguins+kde-standard"),
    ],
)
def test_each_deal_renders_into_its_own_folder(deal, suffix):
    assert deal.suffix == suffix


@pytest.mark.parametrize(
    ("cards", "suit"),
    [
        (["As", "As", "2s", "2s", "Kh"], "s"),  # the 65-card deck's added suit, dealt twice
        (["As", "Kh", "2c"], None),  # one 52-card deck
        (["As", "As", "Kh", "Kh"], None),  # two whole decks: no one suit
    ],
)
def test_the_reader_is_told_the_added_suit_a_table_deals_twice(cards, suit):
    meta = {"cards": [{"card": c, "seat": k % 5} for k, c in enumerate(cards)]}
    assert added_suit_of(meta) == suit


@pytest.mark.parametrize(
    ("cards", "jokers"),
    [
        (["As", "Kh", "2c"], 0),  # no joker dealt: told none, as every preset plays
        (["As", "BJ", "2c"], None),  # a joker in a hand: the reader free to read them
        (["As", "SJ"], None),
    ],
)
def test_the_reader_is_told_a_table_without_jokers_has_none(cards, jokers):
    meta = {"cards": [{"card": c, "seat": k % 4} for k, c in enumerate(cards)]}
    meta["cards"].append({"card": "BJ", "seat": None})  # a joker off every seat (the deck's spare) counts not
    assert jokers_of(meta) == jokers
