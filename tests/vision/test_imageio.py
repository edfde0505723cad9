"""Photo reading: every format and pixel layout a phone or a tool hands us, and clear errors."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.imageio import ImageReadError, open_photo, read_image


def _encode(img: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **kw)
    return buf.getvalue()


def _marked_rgb(w: int = 60, h: int = 40) -> Image.Image:
    """Red block top-left so rotations and channel order are visible."""
    a = np.full((h, w, 3), 255, np.uint8)
    a[:10, :10] = (255, 0, 0)
    return Image.fromarray(a)


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP", "BMP", "TIFF"])
def test_formats_decode_to_bgr(fmt):
    img = read_image(_encode(_marked_rgb(), fmt))
    assert img.shape == (40, 60, 3) and img.dtype == np.uint8
    b, g, r = img[3, 3].astype(int)
    assert r > 200 and b < 60 and g < 60  # red stays red: BGR order


def test_heic_when_supported():
    pillow_heif = pytest.importorskip("pillow_heif")
    try:
        data = _encode(_marked_rgb(64, 48), "HEIF")
    except (KeyError, OSError, ValueError) as e:  # encoder missing in this wheel
        pytest.skip(f"no HEIF encoder: {e}")
    assert pillow_heif is not None
    assert read_image(data).shape == (48, 64, 3)


@pytest.mark.parametrize("orientation,shape,marked", [(1, (40, 60), (3, 3)), (6, (60, 40), (3, 36)),
                                                     (3, (40, 60), (36, 56)), (8, (60, 40), (56, 3))])
def test_exif_orientation_applied(orientation, shape, marked):
    exif = Image.Exif()
    exif[0x0112] = orientation
    photo = open_photo(_encode(_marked_rgb(), "JPEG", exif=exif, quality=95))
    assert photo.image.shape[:2] == shape and (photo.height, photo.width) == shape
    assert photo.image[marked][2] > 200  # the red corner moved where the viewer shows it


@pytest.mark.parametrize("mode", ["L", "LA", "RGBA", "P", "1", "I;16", "I", "CMYK"])
def test_pixel_modes_become_bgr8(mode):
    base = _marked_rgb()
    if mode == "I;16":
        im = Image.fromarray(np.asarray(base.convert("L")).astype(np.uint16) * 257)
        assert im.mode.startswith("I;16")
    else:
        im = base.convert(mode)
    fmt = "TIFF" if mode in ("CMYK", "I") else "PNG"
    img = read_image(_encode(im, fmt))
    assert img.shape == (40, 60, 3) and img.dtype == np.uint8
    assert img[30, 50].min() > 200  # white stays white (16-bit scaled, not clipped)


def test_transparent_png_over_white():
    a = np.zeros((8, 8, 4), np.uint8)  # fully transparent black
    assert read_image(_encode(Image.fromarray(a, "RGBA"), "PNG")).min() == 255


def test_arrays_accepted():
    assert read_image(np.zeros((5, 7), np.uint16)).shape == (5, 7, 3)
    assert read_image(np.ones((5, 7, 3), np.float32))[0, 0, 0] == 255
    bgra = np.zeros((5, 7, 4), np.uint8)
    bgra[..., 3] = 255
    assert read_image(bgra).max() == 0
    with pytest.raises(ImageReadError, match="shape"):
        read_image(np.zeros((5, 7, 2), np.uint8))


def test_long_side_shrinks_never_enlarges(tmp_path):
    p = tmp_path / "big.jpg"
    _marked_rgb(800, 600).save(p, quality=90)
    small = open_photo(p, long_side=200)
    assert small.image.shape[:2] == (150, 200) and small.scale == pytest.approx(0.25)
    assert (small.width, small.height) == (800, 600)
    same = open_photo(p, long_side=2000)
    assert same.image.shape[:2] == (600, 800) and same.scale == 1.0


@pytest.mark.parametrize(("fmt", "long_side", "detail_hw"), [
    ("JPEG", 300, (300, 400)),  # 800 -> 300 decodes at 1/2 (DCT): that decode is the detail
    ("JPEG", 150, (150, 200)),  # ... at 1/4 for 150
    ("PNG", 300, (450, 600)),  # decoded whole, then shrunk to twice the 300 x 225 working size
    ("PNG", 100, (150, 200)),  # reduced by 2 to 400 x 300 (not by 8), then shrunk to twice 100 x 75
])
def test_a_shrunk_photo_keeps_a_sharper_view_at_up_to_twice_its_size(tmp_path, fmt, long_side, detail_hw):
    rgb = _marked_rgb(800, 600)
    photo = open_photo(_encode(rgb, fmt, quality=95) if fmt == "JPEG" else _encode(rgb, fmt),
                       long_side=long_side, detail=True)
    assert photo.detail is not None and photo.detail.shape[:2] == detail_hw
    small = cv2.resize(photo.detail, photo.image.shape[1::-1], interpolation=cv2.INTER_AREA)
    assert np.abs(small.astype(int) - photo.image.astype(int)).mean() < 3  # the same view
    assert open_photo(_encode(rgb, fmt), long_side=long_side).detail is None  # only when asked
    array = open_photo(np.asarray(rgb)[:, :, ::-1].copy(), long_side=100, detail=True)
    assert array.detail.shape[:2] == (150, 200)


def test_a_photo_not_shrunk_has_no_detail_view(tmp_path):
    assert open_photo(_encode(_marked_rgb(800, 600), "PNG"), long_side=2000, detail=True).detail is None


def test_max_pixels_downscales_and_hard_limit_refuses():
    data = _encode(_marked_rgb(400, 300), "PNG")
    photo = open_photo(data, max_pixels=30_000)
    assert photo.image.shape[0] * photo.image.shape[1] <= 30_000 * 1.02
    assert (photo.width, photo.height) == (400, 300)
    with pytest.raises(ImageReadError, match="MP"):
        open_photo(data, hard_limit=100_000)


def test_bad_inputs_name_the_file(tmp_path):
    txt = tmp_path / "notes.jpg"
    txt.write_text("this is not a picture")
    with pytest.raises(ImageReadError, match=r"notes\.jpg.*not an image"):
        read_image(txt)
    trunc = tmp_path / "cut.jpg"
    trunc.write_bytes(_encode(_marked_rgb(300, 200), "JPEG")[:400])
    with pytest.raises(ImageReadError, match=r"cut\.jpg.*corrupt"):
        read_image(trunc)
    with pytest.raises(ImageReadError, match="no such file"):
        read_image(tmp_path / "missing.png")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    with pytest.raises(ImageReadError, match="empty"):
        read_image(empty)
    with pytest.raises(ImageReadError, match="directory"):
        read_image(tmp_path)
    with pytest.raises(ImageReadError, match="bytes"):
        read_image(b"\x89PNG\r\n\x1a\n garbage")


@pytest.mark.parametrize("orientation", range(1, 9))
def test_jpeg_fast_path_matches_pillow_for_every_orientation(orientation):
    from PIL import ImageOps

    rng = np.random.default_rng(orientation)
    a = np.kron(rng.integers(0, 255, (6, 9, 3), dtype=np.uint8), np.ones((8, 8, 1), np.uint8))
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _encode(Image.fromarray(a), "JPEG", exif=exif, quality=95)
    want = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))[:, :, ::-1]
    got = read_image(data)
    assert got.shape == want.shape
    assert np.abs(got.astype(int) - want.astype(int)).mean() < 3
