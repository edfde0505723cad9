"""Hostile and broken input to the photo reader: a `--draw` nobody can write, a model that is not
ONNX, a few hundred kilobytes of PNG that would decode to gigabytes, a photo without colour, and
a joker offered for a misread card at a table that plays without."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageFile

import vision
from tests.vision.layouts import build_table, detections
from vision.__main__ import main
from vision.classes import CLASS_INDEX, JOKERS
from vision.geometry import read_table
from vision.imageio import MAX_DECODE_BYTES, ImageReadError, decode_bytes, looks_grey, open_photo
from vision.jokers import JOKER_SCORE, without_jokers
from vision.types import Detection

TINY = str(Path(__file__).resolve().parents[1] / "data" / "vision" / "tiny_det.onnx")


@pytest.fixture(autouse=True)
def _tiny_classifier(monkeypatch):
    """The stand-in classifier beside the stand-in finder (the finder alone is refused)."""
    monkeypatch.setenv("CARDS_CLASSIFIER", str(Path(TINY).with_name("tiny_cls.onnx")))
SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "sample.jpg"


def _img(path: Path, grey: bool = False) -> str:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 255, (64, 96, 3), dtype=np.uint8)
    Image.fromarray(a[:, :, 0] if grey else a).save(path)
    return str(path)


def _png_header(path: Path, w: int, h: int, depth: int = 16, colour: int = 0) -> Path:
    """A PNG whose header promises w x h pixels, with a first row of data only: what a hostile
    upload looks like until it is decoded."""
    def chunk(t: bytes, d: bytes) -> bytes:
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    row = b"\0" * (1 + w * depth // 8 * (3 if colour == 2 else 1))
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + header + chunk(b"IDAT", zlib.compress(row)) + chunk(b"IEND", b""))
    return path


# ---------------------------------------------------------------- --draw


@pytest.mark.parametrize("target", ["out.txt", "out", "no/such/dir/out.jpg", "."])
def test_draw_target_that_cannot_be_written_exit_2_before_reading(tmp_path, capsys, monkeypatch, target):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(vision, "read", lambda *a, **k: pytest.fail("read before --draw was checked"))
    assert main(["read", _img(tmp_path / "a.png"), "--json", "--model", TINY, "--draw", target]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith(f"error: --draw {target}: ")
    assert not (tmp_path / "no").exists()


def test_draw_that_fails_while_writing_still_prints_the_table(tmp_path, capsys, monkeypatch):
    import vision.__main__ as cli

    monkeypatch.setattr(cli.cv2, "imwrite", lambda *a: False)
    assert main(["read", _img(tmp_path / "a.png"), "--json", "--model", TINY,
                 "--draw", str(tmp_path / "o.jpg")]) == 2
    out = capsys.readouterr()
    assert json.loads(out.out)["rules"] == "taiwan" and "could not be written" in out.err


def test_draw_to_a_good_path_writes_it(tmp_path, capsys):
    out = tmp_path / "o.png"
    assert main(["read", _img(tmp_path / "a.png"), "--json", "--model", TINY, "--draw", str(out)]) == 0
    assert Image.open(out).size == (96, 64)


# ---------------------------------------------------------------- --model


@pytest.mark.parametrize("content", [b"hello, not a model\n", b""])
def test_model_that_is_not_onnx_exit_2(tmp_path, capsys, content):
    model = tmp_path / "m.onnx"
    model.write_bytes(content)
    for cmd in (["read", _img(tmp_path / "a.png")], ["detect", str(tmp_path / "a.png")]):
        assert main([*cmd, "--json", "--model", str(model)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {model} is not an ONNX model") and "Traceback" not in err


def test_model_that_is_a_folder_exit_2(tmp_path, capsys):
    assert main(["read", _img(tmp_path / "a.png"), "--json", "--model", str(tmp_path)]) == 2
    assert "is not an ONNX model" in capsys.readouterr().err


# ---------------------------------------------------------------- decompression bombs


def test_bomb_png_refused_from_its_header_before_decoding(tmp_path, monkeypatch):
    bomb = _png_header(tmp_path / "bomb.png", 13_300, 13_300)
    monkeypatch.setattr(ImageFile.ImageFile, "load", lambda self: pytest.fail("decoded a bomb"))
    with pytest.raises(ImageReadError, match=r"13300x13300 16-bit pixels would take 337 MB to decode"):
        open_photo(str(bomb), long_side=1600)
    with pytest.raises(ImageReadError, match="MB to decode"):
        open_photo(bomb.read_bytes())


def test_bomb_png_through_the_cli_exit_2(tmp_path, capsys):
    bomb = _png_header(tmp_path / "bomb.png", 13_300, 13_300)
    assert main(["read", str(bomb), "--json", "--model", TINY]) == 2
    assert "refused to protect memory" in capsys.readouterr().err


def test_decode_budget_counts_bit_depth_and_bands():
    assert decode_bytes("I;16", 13_300, 13_300) > MAX_DECODE_BYTES >= decode_bytes("L", 13_300, 13_300)
    assert decode_bytes("RGB", 8064, 6048) <= MAX_DECODE_BYTES  # a 48 MP phone HEIC is read
    assert decode_bytes("RGB", 9000, 9000) > MAX_DECODE_BYTES


def test_wide_png_decodes_straight_to_working_size(tmp_path):
    a = np.full((1500, 3000), 30_000, np.uint16)
    a[:, :1500] = 60_000
    path = tmp_path / "g16.png"
    Image.fromarray(a).save(path)
    assert Image.open(path).mode.startswith("I;16")
    photo = open_photo(str(path), long_side=600)
    assert photo.image.shape == (300, 600, 3) and (photo.width, photo.height) == (3000, 1500)
    assert photo.image[150, 100].tolist() == [233] * 3 and photo.image[150, 500].tolist() == [116] * 3
    assert photo.grey


def test_large_rgb_reduced_like_a_full_decode(tmp_path):
    rng = np.random.default_rng(1)
    a = np.repeat(np.repeat(rng.integers(0, 255, (60, 80, 3), dtype=np.uint8), 40, 0), 40, 1)
    path = tmp_path / "big.png"
    Image.fromarray(a).save(path)
    small = open_photo(str(path), long_side=400).image
    full = open_photo(str(path)).image
    import cv2
    ref = cv2.resize(full, (400, 300), interpolation=cv2.INTER_AREA)
    assert small.shape == ref.shape and np.abs(small.astype(int) - ref).mean() < 2.0


# ---------------------------------------------------------------- photos without colour


def test_grey_photos_are_known_as_grey(tmp_path):
    assert open_photo(_img(tmp_path / "l.png", grey=True)).grey
    rgb = np.repeat(np.random.default_rng(2).integers(0, 255, (80, 80, 1), dtype=np.uint8), 3, 2)
    Image.fromarray(rgb).save(tmp_path / "rgb_grey.jpg", quality=70)
    assert open_photo(str(tmp_path / "rgb_grey.jpg")).grey  # grey saved as colour JPEG
    assert open_photo(rgb[:, :, :1]).grey and open_photo(rgb[:, :, 0]).grey


def test_colour_photos_are_not_grey(tmp_path):
    assert not open_photo(str(SAMPLE), long_side=800).grey
    assert not open_photo(_img(tmp_path / "c.png")).grey
    cards = np.full((400, 400, 3), 235, np.uint8)
    cards[10:20, 10:30] = (30, 30, 200)  # one red index on white: 0.125% of the photo
    assert not looks_grey(cards)


def test_read_of_a_grey_photo_says_the_suits_cannot_be_told(tmp_path):
    grey = vision.read(_img(tmp_path / "g.png", grey=True), model=TINY)
    assert grey.problems[0].kind == "grey_photo" and "♥" in grey.problems[0].message
    assert grey.to_table()["problems"][0]["kind"] == "grey_photo"
    colour = vision.read(_img(tmp_path / "c.png"), model=TINY)
    assert all(p.kind != "grey_photo" for p in colour.problems)


def test_read_cli_prints_the_grey_problem(tmp_path, capsys):
    assert main(["read", _img(tmp_path / "g.png", grey=True), "--model", TINY]) == 0
    assert "! the photo has no colour" in capsys.readouterr().out


# ---------------------------------------------------------------- no joker suggested


def _misread_with_joker_second(seed: int = 7) -> tuple[list[Detection], str, str]:
    """A table where one index reads as a card held elsewhere, with a joker the second guess and
    the truth only third: the deck fix must rename it."""
    scene = build_table(2, seed=seed)
    dets = detections(scene, seed=3)
    victim = scene["cards"][4]
    other = scene["cards"][20]["card"]
    out = []
    for d in dets:
        if d.box == pytest.approx(tuple(victim["indices"][0]["box"])):
            p = np.full(54, 0.001, np.float32)
            p[CLASS_INDEX[other]], p[CLASS_INDEX["BJ"]], p[CLASS_INDEX[victim["card"]]] = 0.5, 0.3, 0.15
            d = Detection(other, d.box, 0.5, p)
        out.append(d)
    return out, other, victim["card"]


def test_deck_fix_may_offer_a_joker_when_the_table_might_have_one():
    dets, other, _ = _misread_with_joker_second()
    changed = [c for s in read_table(dets).seats for c in s.cards if c.changed_from]
    assert [(c.changed_from, c.card) for c in changed] == [(other, "BJ")]


def test_no_joker_offered_at_a_table_without():
    dets, other, truth = _misread_with_joker_second()
    tr = read_table(without_jokers(dets))
    changed = [c for s in tr.seats for c in s.cards if c.changed_from]
    assert [(c.changed_from, c.card) for c in changed] == [(other, truth)]
    assert not any(c.card in JOKERS for s in tr.seats for c in s.cards)
    assert not any(j in p.message for p in tr.problems for j in JOKERS)


def test_a_read_joker_keeps_its_read_but_not_the_other_joker():
    p = np.full(54, 0.01, np.float32)
    p[CLASS_INDEX["BJ"]], p[CLASS_INDEX["SJ"]] = 0.6, 0.3
    (d,) = without_jokers([Detection("BJ", (0, 0, 10, 10), 0.6, p)])
    assert d.card == "BJ" and d.scores[CLASS_INDEX["BJ"]] == pytest.approx(0.6)
    assert d.scores[CLASS_INDEX["SJ"]] == pytest.approx(JOKER_SCORE)
    assert d.scores.min() == pytest.approx(JOKER_SCORE)
    (plain,) = without_jokers([Detection("As", (0, 0, 10, 10), 0.9)])
    assert plain.scores is None


# ---------------------------------------------------------------- a reader that stops reading


def test_closed_pipe_through_head_is_quiet(tmp_path):
    import subprocess
    import sys

    img = _img(tmp_path / "a.png")
    cmd = f"{sys.executable} -m vision read {img} --json --model {TINY} | head -c 5"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=120)
    assert done.stdout == '{"rul' and done.stderr == "" and done.returncode == 0


# ---------------------------------------------------------------- any bytes as a photo


def _photo_bytes() -> list[bytes]:
    out = []
    for fmt in ("PNG", "JPEG", "GIF", "BMP", "TIFF", "WEBP"):
        buf = __import__("io").BytesIO()
        Image.fromarray(np.zeros((20, 30, 3), np.uint8)).save(buf, fmt)
        out.append(buf.getvalue())
    return out


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.sampled_from(_photo_bytes()), st.integers(0, 400), st.binary(max_size=64), st.integers(0, 2))
def test_any_damaged_photo_is_read_or_refused_by_name(data: bytes, cut: int, junk: bytes, where: int):
    """A photo cut short, with bytes replaced or appended: a photo or an `ImageReadError`, nothing else."""
    if where == 0:
        damaged = data[:cut] + junk
    elif where == 1:
        damaged = data[:cut] + junk + data[cut + len(junk):]
    else:
        damaged = data + junk
    try:
        photo = open_photo(damaged, long_side=16)
    except ImageReadError as e:
        assert str(e).startswith("<")
    else:
        assert photo.image.dtype == np.uint8 and photo.image.ndim == 3


def test_read_cli_tells_the_reader_how_many_jokers(tmp_path, capsys, monkeypatch):
    import vision.__main__ as cli

    seen = []
    monkeypatch.setattr(cli, "read", lambda *a, **k: seen.append(k["jokers"]) or vision.TableRead([]))
    img = _img(tmp_path / "a.png")
    assert main(["read", img, "--json", "--model", TINY]) == 0
    assert main(["read", img, "--json", "--model", TINY, "--jokers", "2"]) == 0
    assert seen == [0, 2]
