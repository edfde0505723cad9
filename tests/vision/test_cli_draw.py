"""The JSON contracts of `python -m vision`, bad files, and drawing."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.vision.layouts import build_table, detections
from vision.__main__ import main
from vision.draw import draw_detections, draw_table, seat_colour
from vision.geometry import read_table

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"
TINY = str(DATA / "tiny_det.onnx")  # a stand-in finder: a few 32 x 32 boxes on each red 8 x 8 cell


@pytest.fixture(autouse=True)
def _tiny_classifier(monkeypatch):
    """The stand-in classifier beside the stand-in finder: a red index is "Ah" (make_tiny_cls.py)."""
    monkeypatch.setenv("CARDS_CLASSIFIER", str(DATA / "tiny_cls.onnx"))


def _img(path: Path) -> str:
    img = np.full((96, 128, 3), 255, np.uint8)
    img[32:64, 48:80] = (255, 0, 0)  # RGB: one red 32 x 32 index
    Image.fromarray(img).save(path)
    return str(path)


def test_detect_json_contract(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a = _img(tmp_path / "a.png")
    _img(tmp_path / "b.png")
    assert main(["detect", a, "b.png", "--json", "--model", TINY]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == [a, "b.png"]  # paths exactly as given
    assert out[a] == out["b.png"] and out[a]
    for d in out[a]:
        assert set(d) == {"card", "box", "confidence"} and d["card"] == "Ah"
        assert len(d["box"]) == 4 and all(isinstance(v, float) for v in d["box"])
        x1, y1, x2, y2 = d["box"]
        assert abs((x1 + x2) / 2 - 64) <= 12 and abs((y1 + y2) / 2 - 48) <= 12  # on the red square
        assert 0.6 <= d["confidence"] <= 1


def test_read_json_is_a_scoring_table(tmp_path, capsys):
    assert main(["read", _img(tmp_path / "a.png"), "--json", "--model", TINY, "--rules", "hk"]) == 0
    t = json.loads(capsys.readouterr().out)
    assert t["rules"] == "hk" and isinstance(t["players"], list) and isinstance(t["problems"], list)
    for p in t["players"]:
        assert p["name"].startswith("Seat ") and {"head", "middle", "tail"} <= set(p)


def test_read_table_settles(tmp_path):
    scoring = __import__("pytest").importorskip("scoring")
    table = read_table(detections(build_table(3, seed=1))).to_table("taiwan")
    result = scoring.settle(table)
    assert set(result.to_json()["totals"]) == {"Seat 1", "Seat 2", "Seat 3"}


def test_a_five_seat_read_settles_with_its_added_suit():
    """Five seats of the 65-card deck (the spades again): the table carries the added suit the reads
    show as its rule options, so the scoring engine takes the 65 cards without being told."""
    scoring = __import__("pytest").importorskip("scoring")
    read = read_table(detections(build_table(5, seed=12)))
    assert read.extra_suit == "s"
    table = read.to_table("taiwan")
    assert table["options"] == {"deck": 65, "extra_suit": "s"}
    assert len(scoring.settle(table).to_json()["totals"]) == 5
    assert "options" not in read_table(detections(build_table(3, seed=1))).to_table("taiwan")


def test_bad_file_exit_2_names_it(tmp_path, capsys):
    bad = tmp_path / "x.jpg"
    bad.write_text("hello")
    assert main(["detect", str(bad), "--json", "--model", TINY]) == 2
    err = capsys.readouterr().err
    assert "x.jpg" in err and "not an image" in err
    assert main(["read", str(bad), "--model", str(tmp_path / "none.onnx")]) == 2
    assert "not found" in capsys.readouterr().err


def test_draw_colours_and_scaling():
    scene = build_table(2, seed=3)
    dets = detections(scene)
    dets = [type(d)(d.card, d.box, 0.2, d.scores) if d.card == dets[0].card else d for d in dets]
    tr = read_table(dets, width=scene["width"], height=scene["height"])
    img = np.full((scene["height"], scene["width"], 3), 255, np.uint8)
    out = draw_table(img, tr)
    assert out.shape == img.shape and (out != 255).any() and (img == 255).all()
    red = (out[:, :, 2] > 200) & (out[:, :, 0] < 30) & (out[:, :, 1] < 30)
    assert red.any()  # the low-confidence card stands out
    small = draw_table(img[::2, ::2].copy(), tr)
    assert small.shape == (img[::2, ::2]).shape
    assert seat_colour(0, "head") != seat_colour(0, "tail") != seat_colour(1, "tail")
    assert draw_detections(img, dets).shape == img.shape
