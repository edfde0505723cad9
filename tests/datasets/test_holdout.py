"""The held-out split: a training scene never deals a held-out deck or font, a held-out one only those."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.synth import decks, procedural
from datasets.synth.holdout import (
    DECISION_DESIGNS,
    HELD_OUT_DESIGNS,
    HeldOutError,
    Split,
    check_designs,
    designs_for,
    fonts_for,
    split_of_design,
)

STORED = ("cardsjs", "gnome-anglo", "gnome-bellot", "gnome-tigullio", "kde-dondorf", "kde-gm-paris",
          "kde-penguins", "letele", "svg-cards", "younestouati")
FOUR_CORNERS = {"kde-dondorf"}  # prints its index in all four corners
FONTS = ("/f/DejaVuSans.ttf", "/f/DejaVuSansMono-Bold.ttf", "/f/LiberationSans-Regular.ttf",
         "/f/LiberationSerif-Bold.ttf", "/f/LiberationSerif-Regular.ttf")


@pytest.mark.parametrize(
    ("split", "designs", "fonts"),
    [
        (Split.TRAIN, ("cardsjs", "gnome-anglo", "letele", "svg-cards"),
         ("/f/DejaVuSans.ttf", "/f/LiberationSans-Regular.ttf")),
        (Split.HELD_OUT, ("gnome-bellot", "gnome-tigullio", "kde-dondorf", "kde-penguins", "younestouati"),
         ("/f/DejaVuSansMono-Bold.ttf", "/f/LiberationSerif-Bold.ttf", "/f/LiberationSerif-Regular.ttf")),
        (Split.DECIDE, ("kde-gm-paris",), ()),  # decisions only: its design, no fonts
    ],
)
def test_the_three_splits_partition_designs_and_fonts(split, designs, fonts):
    assert designs_for(split, STORED) == designs
    assert fonts_for(split, FONTS) == fonts


def test_at_least_four_designs_are_held_out():
    assert len(set(HELD_OUT_DESIGNS)) >= 4


def test_a_training_set_refuses_a_held_out_design_by_name():
    with pytest.raises(HeldOutError, match="younestouati"):
        check_designs(Split.TRAIN, ("cardsjs", "younestouati"))
    assert check_designs(Split.HELD_OUT, ("younestouati",)) == ("younestouati",)


@pytest.mark.parametrize("split", [Split.TRAIN, Split.HELD_OUT])
def test_the_decision_design_is_neither_trained_on_nor_reported(split):
    assert "kde-gm-paris" in DECISION_DESIGNS and split_of_design("kde-gm-paris") is Split.DECIDE
    with pytest.raises(HeldOutError, match="kde-gm-paris"):
        check_designs(split, ("kde-gm-paris",))


class _Fake:
    def __init__(self, name: str) -> None:
        self.name = name
        self.four_corners = name in FOUR_CORNERS


@pytest.fixture
def fake_store(monkeypatch):
    monkeypatch.setattr(decks, "_stored", lambda: STORED)
    monkeypatch.setattr(decks, "load", _Fake)
    monkeypatch.setattr(procedural, "rank_fonts", lambda: FONTS)
    monkeypatch.setattr(procedural, "suit_fonts", lambda: FONTS[:2])


@pytest.mark.parametrize("split", [Split.TRAIN, Split.HELD_OUT])
def test_decks_dealt_belong_to_their_split(fake_store, split):
    rng = np.random.default_rng(3)
    names, fonts = set(), set()
    for _ in range(300):
        deck = decks.choose_deck(rng, None, p_procedural=0.3, split=split)
        if deck.name == "procedural":
            fonts |= {deck.style.rank_font, deck.style.suit_font}
        else:
            names.add(deck.name)
    # every two-corner design of the split is dealt, no other
    assert names == set(designs_for(split, STORED)) - FOUR_CORNERS
    assert fonts and fonts <= set(fonts_for(split, FONTS))


@pytest.mark.parametrize(
    ("designs", "dealt"),
    [
        (None, {"procedural-4"}),  # unnamed: procedural four-corner faces, as before designs had any
        (("kde-dondorf", "kde-penguins"), {"kde-dondorf"}),  # named: the four-corner one of them
        (("kde-penguins",), {"procedural-4"}),  # none of those named prints four corners
    ],
)
def test_four_corner_tables_deal_four_corner_decks_only(fake_store, designs, dealt):
    rng = np.random.default_rng(5)
    got = {decks.choose_deck(rng, designs, p_procedural=0.0, split=Split.HELD_OUT, four_corners=True).name
           for _ in range(50)}
    assert got == dealt


def test_a_split_without_fonts_is_refused_rather_than_borrowing_the_others(monkeypatch):
    monkeypatch.setattr(procedural, "rank_fonts", lambda: ("/f/DejaVuSans.ttf",))
    with pytest.raises(HeldOutError, match="held_out"):
        procedural.random_style(np.random.default_rng(0), split=Split.HELD_OUT)


def test_the_decision_split_deals_its_design_and_never_a_procedural_face(fake_store):
    rng = np.random.default_rng(7)
    got = {decks.choose_deck(rng, ("kde-gm-paris",), p_procedural=0.0, split=Split.DECIDE).name
           for _ in range(20)}
    assert got == {"kde-gm-paris"}
    with pytest.raises(HeldOutError, match="decide"):
        procedural.random_style(np.random.default_rng(0), split=Split.DECIDE)
