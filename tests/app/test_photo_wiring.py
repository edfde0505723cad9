"""The photo path end to end with a stand-in reader: what `vision.read` returns reaches the seats,
the low-confidence marks and the per-seat problems, and the annotated photo is drawn.

The stand-in returns the sample's known cards, so this runs before `models/cards.onnx` exists;
`test_app_flows.test_sample_photo_is_read_by_the_model` covers the real model."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import vision
from appui import photo
from tests.app.conftest import ROOT, SAMPLE
from vision.types import Problem, ReadCard, SeatRead, TableRead


def fake_read(image, *, seats=None, **_: object) -> TableRead:
    out = []
    for i, p in enumerate(SAMPLE["players"]):
        rows = {}
        for r in ("head", "middle", "tail"):
            cards = p[r].split()
            rows[r] = [
                ReadCard(c, (100.0 + 40 * k, 100.0 + 60 * i), 0.4 if (i, r, k) == (2, "tail", 0) else 0.95,
                         [(80.0 + 40 * k, 80.0 + 60 * i, 110.0 + 40 * k, 120.0 + 60 * i)])
                for k, c in enumerate(cards)
            ]
        out.append(SeatRead(i, 0.0, **rows))
    problems = [
        Problem("low_confidence", "As at seat 3, tail: not sure of this card", seat=2, row="tail", card="As")
    ]
    return TableRead(out, problems, [], 1600, 1200)


@pytest.fixture
def stand_in_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision, "read", fake_read)


def test_read_result_is_annotated(stand_in_reader: None) -> None:
    result = photo.read((ROOT / "assets" / "sample.jpg").read_bytes())
    assert result.error is None and result.read is not None
    assert result.annotated is not None and result.annotated.shape[2] == 3


def test_sample_photo_through_the_reader(stand_in_reader: None, ledger_path: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.button(key="sample").click().run()
    assert not at.exception
    assert "unavailable" not in "\n".join(i.value for i in at.info)
    assert at.session_state["txt_2_tail"] == SAMPLE["players"][2]["tail"]
    captions = "\n".join(c.value for c in at.caption)
    assert "not sure of this card" in captions  # in the chip of seat 3's A♠
    assert ":orange[⚠️ A♠ unsure]" in captions  # the seat's one line
    assert "low confidence" in captions
    assert not at.warning
    assert {m.label: m.value for m in at.main.metric}["北 North"] == "-18"


def test_cards_outside_the_seats_are_told_apart_from_reads_left_out(
    monkeypatch: pytest.MonkeyPatch, ledger_path: Path
) -> None:
    """A card read outside every seat is to be added where it belongs; a read left out as a false one
    (a card already on the table read again) is shown apart, to put back only where a row lacks it."""
    def read(image, **kw: object) -> TableRead:
        table = fake_read(image, **kw)
        table.orphans = [ReadCard("Jd", (900.0, 900.0), 0.9)]
        table.left_out = [ReadCard("As", (300.0, 220.0), 0.7)]
        return table

    monkeypatch.setattr(vision, "read", read)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.button(key="sample").click().run()
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "Cards seen but not placed at any seat: Jd. Add them to the right row below."]
    captions = "\n".join(c.value for c in at.caption)
    assert "left out as false reads (mostly a card already on the table read again): As." in captions


def test_the_added_suit_reaches_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """A five-player table's added suit (the sidebar's rules) is handed to the reader, so a seat's
    photo may hold two copies of that suit's cards."""
    seen: dict = {}

    def spy(image, **kw):
        seen.update(kw)
        return fake_read(image, **kw)

    monkeypatch.setattr(vision, "read", spy)
    data = (ROOT / "assets" / "sample.jpg").read_bytes()
    photo.read(data, seats=1, extra_suit="h")
    assert (seen["seats"], seen["extra_suit"]) == (1, "h")
    photo.read(data)
    assert seen["extra_suit"] is None


@pytest.mark.parametrize("suit", ["x", "S", "sh", ""])
def test_a_suit_the_deck_has_not_is_refused(suit: str) -> None:
    with pytest.raises(ValueError, match="extra_suit must be one of s, h, d, c"):
        vision.read(b"", extra_suit=suit)
