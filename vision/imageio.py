"""Read any photo a phone produces into an 8-bit BGR array, or say clearly why not.

Why not just `cv2.imread`: it ignores EXIF orientation on some builds, cannot read HEIC, returns
None instead of an error, and always decodes at full size. Here Pillow (with pillow-heif) opens the
file, EXIF orientation is applied, every pixel format is brought to 8-bit BGR, and a JPEG that will
be shrunk anyway is decoded at a reduced DCT scale (`Image.draft`), which is several times faster for
a 12 MP photo than decoding it whole and resizing.

Memory is bounded before a pixel is decoded: the header gives the size and pixel format, so what
the decode would allocate is known (`decode_bytes`), and a file that would need more than
`MAX_DECODE_BYTES` is refused. A few hundred kilobytes of PNG can otherwise claim gigabytes
(13,300 x 13,300 16-bit pixels compress to 344 KB). What is decoded is shrunk to the working size
in its own pixel format before it becomes BGR, so the conversion never copies the full size twice.

`Photo.grey` says the photo has no colour: then hearts and diamonds look like spades and clubs.

>>> import numpy as np
>>> photo = open_photo(np.zeros((30, 40), np.uint8))
>>> photo.image.shape, photo.width, photo.height, photo.scale
((30, 40, 3), 40, 30, 1.0)
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

try:  # HEIC/HEIF (iPhone default); optional so a missing wheel only costs HEIC support
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover
    pillow_heif = None

#: Photos above this many pixels are downscaled while reading (a 48 MP phone photo has nothing
#: the detector needs that a 12 MP version lacks).
MAX_PIXELS = 40_000_000
#: Beyond this the file is refused: decoding would need gigabytes (decompression-bomb guard).
#: Kept just under Pillow's own hard limit so the error is ours and names the file.
HARD_LIMIT_PIXELS = 178_000_000
#: The most memory one decode may allocate for its pixels: a 48 MP phone HEIC (195 MB) fits, a
#: 13,300 x 13,300 16-bit PNG (354 MB) does not. JPEGs count at the DCT scale they are read at.
MAX_DECODE_BYTES = 256 * 2**20
#: A photo is grey when fewer than this share of its pixels have channels this far apart (0-255):
#: a colour photo of cards has red pips on far more, a grey one saved as RGB has JPEG noise below it.
GREY_SPREAD, GREY_SHARE = 24, 0.001
_GREY_MODES = frozenset({"1", "L", "LA", "La", "I", "F", "I;16", "I;16B", "I;16L", "I;16N"})
_WIDE_MODES = frozenset({"I", "F", "I;16", "I;16B", "I;16L", "I;16N"})

ImageSource = str | Path | bytes | bytearray | np.ndarray


class ImageReadError(ValueError):
    """The input is not a readable image; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Photo:
    """A decoded photo: `image` is BGR uint8, possibly smaller than the original.

    `width`/`height` are the original size after EXIF rotation; `scale` is image pixels per original
    pixel, so a box found in `image` maps back to the original photo by dividing by `scale`.
    `detail` (asked for with `open_photo(..., detail=True)`) is the same view at up to twice the
    size of `image`, when the photo was shrunk: the namer cuts its crops from it, because an index far
    from the camera is only ~14 px tall in a 1440 px image and far clearer in the decode before the
    last shrink (a JPEG's DCT-reduced decode, which costs nothing extra).
    """

    image: np.ndarray
    width: int
    height: int
    scale: float = 1.0
    name: str = "<array>"
    grey: bool = False
    detail: np.ndarray | None = field(default=None, compare=False, repr=False)


def _describe(src: ImageSource) -> str:
    if isinstance(src, str | Path):
        return str(src)
    if isinstance(src, bytes | bytearray):
        return f"<{len(src)} bytes>"
    return "<array>"


def _target_scale(w: int, h: int, long_side: int | None, max_pixels: int) -> float:
    """Scale (<= 1) that brings the image under `max_pixels` and, if given, to `long_side`."""
    scale = 1.0
    if w * h > max_pixels:
        scale = (max_pixels / (w * h)) ** 0.5
    if long_side is not None and max(w, h) * scale > long_side:
        scale = long_side / max(w, h)
    return scale


def decode_bytes(mode: str, w: int, h: int) -> int:
    """What Pillow allocates for `w` x `h` pixels of `mode`: a byte a pixel for 1-bit and 8-bit grey,
    two for 16-bit, four for the rest (Pillow keeps every multi-band mode, and a palette image once
    it becomes RGB, in four bytes a pixel)."""
    per = 1 if mode in ("1", "L") else 2 if mode.startswith("I;16") else 4
    return w * h * per


def _dct_factor(scale: float) -> int:
    """The JPEG DCT reduction (1, 2, 4 or 8) that stays at or above `scale`."""
    r = 1
    while r < 8 and 1 / (r * 2) >= scale:
        r *= 2
    return r


def _to_bgr8(img: Image.Image, want: tuple[int, int] | None = None) -> np.ndarray:
    """Any Pillow mode (1, L, LA, P, RGBA, I;16, I, F, CMYK, YCbCr...) to contiguous BGR uint8.

    With `want` (width, height), a larger image is first shrunk towards it in its own pixel format
    (whole factors for 8-bit modes, area resampling for 16/32-bit ones), so only the small image is
    ever converted; the caller resizes what is left to exactly `want`."""
    mode = img.mode
    if mode in _WIDE_MODES:
        return _wide_to_bgr8(img, want)
    if mode == "P" and "transparency" in img.info:
        img = img.convert("RGBA")
    elif mode in ("1", "P"):
        img = img.convert("L" if mode == "1" else "RGB")
    if want is not None:
        factor = int(min(img.width / want[0], img.height / want[1]))
        if factor >= 2 and img.mode in ("L", "LA", "La", "RGB", "RGBA", "RGBa", "CMYK", "YCbCr"):
            img = img.reduce(factor)
    mode = img.mode
    if mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        # Transparent pixels over white, like a viewer shows them, not over black.
        rgba = img.convert("RGBA")
        bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        img = Image.alpha_composite(bg, rgba).convert("RGB")
    elif mode == "L":
        return cv2.cvtColor(np.asarray(img), cv2.COLOR_GRAY2BGR)
    elif mode != "RGB":
        img = img.convert("RGB")
    return np.ascontiguousarray(np.asarray(img)[:, :, ::-1])


def _wide_to_bgr8(img: Image.Image, want: tuple[int, int] | None) -> np.ndarray:
    """16-bit and 32-bit grey to BGR uint8: 16-bit spans 0..65535; 32-bit integers 0..255 unless
    larger values show it spans 0..65535; floats 0..1 when none is above 1."""
    a = np.asarray(img)
    if img.mode.startswith("I;16"):
        a, hi = a.astype(np.uint16, copy=False), 65535.0  # native byte order for opencv
    else:
        a = a.astype(np.float32, copy=False)
        top = float(a.max(initial=0))
        hi = 1.0 if img.mode == "F" and top <= 1.0 else 65535.0 if top > 255 else 255.0
    if want is not None and want[0] < a.shape[1]:
        a = cv2.resize(a, want, interpolation=cv2.INTER_AREA)
    gray = np.clip(a.astype(np.float32) * np.float32(255.0 / hi), 0, 255).astype(np.uint8)
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)


def looks_grey(bgr: np.ndarray) -> bool:
    """Whether a BGR photo has no colour to speak of (see `GREY_SPREAD`), from a sample of its pixels."""
    step = max(1, int((bgr.shape[0] * bgr.shape[1] / 250_000) ** 0.5))
    sample = np.ascontiguousarray(bgr[::step, ::step])
    b, g, r = sample[..., 0], sample[..., 1], sample[..., 2]  # channel by channel: no int16 copy
    spread = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)
    return np.count_nonzero(spread > GREY_SPREAD) < GREY_SHARE * spread.size


def _array_to_bgr8(a: np.ndarray) -> np.ndarray:
    """An array is taken as OpenCV would hand it over: gray, BGR or BGRA; 16-bit or float scaled."""
    if a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] not in (1, 3, 4)) or a.size == 0:
        raise ImageReadError(f"<array>: expected HxW, HxWx3 or HxWx4 pixels, got shape {a.shape}")
    if a.dtype == np.uint16:
        a = (a >> 8).astype(np.uint8)
    elif a.dtype.kind == "f":
        a = np.nan_to_num(a)
        a = np.clip(a * (255.0 if a.max(initial=0) <= 1.0 else 1.0), 0, 255).astype(np.uint8)
    elif a.dtype != np.uint8:
        a = np.clip(a, 0, 255).astype(np.uint8)
    if a.ndim == 2 or a.shape[2] == 1:
        return cv2.cvtColor(a.reshape(a.shape[0], a.shape[1]), cv2.COLOR_GRAY2BGR)
    if a.shape[2] == 4:
        alpha = a[:, :, 3:4].astype(np.float32) / 255.0
        return (a[:, :, :3] * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    return np.ascontiguousarray(a)


def open_photo(
    src: ImageSource,
    *,
    long_side: int | None = None,
    max_pixels: int = MAX_PIXELS,
    hard_limit: int = HARD_LIMIT_PIXELS,
    detail: bool = False,
) -> Photo:
    """Decode `src` (a path, the file's bytes, or a numpy array) to BGR uint8.

    With `long_side`, the image is shrunk (never enlarged) so its longer side is at most that; the
    caller reads `Photo.scale` to map results back to the original pixels. With `detail`, a shrunk
    photo also keeps `Photo.detail` (see there).
    Raises `ImageReadError` for a missing, non-image, corrupt, empty or oversized input.
    """
    name = _describe(src)
    if isinstance(src, np.ndarray):
        return _open_array(src, name, long_side, max_pixels, detail)
    img, w, h, scale, grey_mode = _decode(src, _file_of(src, name), name, long_side, max_pixels, hard_limit,
                                          detail)
    want = (max(1, round(w * scale)), max(1, round(h * scale)))
    hi, wi = img.shape[:2]
    sharp = _detail_of(img, want) if detail and wi > want[0] else None
    if (wi, hi) != want:
        # What is left after a DCT reduction is under 2x: linear is ~10x faster than area there.
        interp = cv2.INTER_AREA if want[0] < wi / 2 else cv2.INTER_LINEAR
        img = cv2.resize(img, want, interpolation=interp)
    return Photo(img, w, h, scale, name, grey_mode or looks_grey(img), sharp)


def _open_array(src: np.ndarray, name: str, long_side: int | None, max_pixels: int, detail: bool) -> Photo:
    """`open_photo` of an image already in memory."""
    img = _array_to_bgr8(src)
    h, w = img.shape[:2]
    scale = _target_scale(w, h, long_side, max_pixels)
    sharp = None
    if scale < 1.0:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        if detail:
            sharp = _detail_of(img, size)
        img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
    grey = src.ndim == 2 or src.shape[2] == 1 or looks_grey(img)
    return Photo(img, w, h, scale, name, grey, sharp)


def _file_of(src: ImageSource, name: str) -> io.IOBase | Path:
    """What Pillow opens for a path or bytes, once the input is known not to be empty or missing."""
    if isinstance(src, str | Path):
        path = Path(src)
        if not path.exists():
            raise ImageReadError(f"{name}: no such file")
        if path.is_dir():
            raise ImageReadError(f"{name}: is a directory, not an image")
        if path.stat().st_size == 0:
            raise ImageReadError(f"{name}: empty file")
        return path
    if isinstance(src, bytes | bytearray):
        if not src:
            raise ImageReadError(f"{name}: empty input")
        return io.BytesIO(bytes(src))
    raise ImageReadError(f"{name}: cannot read an image from {type(src).__name__}")


def _decode(
    src: ImageSource, fp: io.IOBase | Path, name: str, long_side: int | None, max_pixels: int,
    hard_limit: int, detail: bool,
) -> tuple[np.ndarray, int, int, float, bool]:
    """The decoded BGR image (upright, at the scale or up to twice it, as cheaply as the format
    allows), the upright original width and height, the scale asked for, and whether the file is
    grey. Every decoding failure becomes an `ImageReadError` naming the input."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(fp) as im:
                w0, h0 = im.size
                if w0 * h0 > hard_limit:
                    raise ImageReadError(
                        f"{name}: {w0}x{h0} is {w0 * h0 / 1e6:.0f} MP, over the {hard_limit / 1e6:.0f} MP "
                        "limit (refused to protect memory)"
                    )
                scale = _target_scale(w0, h0, long_side, max_pixels)  # the same either way up
                _check_budget(name, im, scale)  # before getexif, which decodes a PNG to find its EXIF
                orientation = im.getexif().get(0x0112, 1)
                w, h = (h0, w0) if orientation in (5, 6, 7, 8) else (w0, h0)
                grey_mode = im.mode in _GREY_MODES
                want = (max(1, round(w * scale)), max(1, round(h * scale)))
                img = _jpeg_fast(src, im, scale, orientation) if im.format == "JPEG" else None
                if img is None:
                    if scale < 1.0 and im.format == "JPEG":
                        # DCT-domain reduction: 1/2, 1/4 or 1/8 but never below the request.
                        im.draft("RGB", (max(1, int(w0 * scale)), max(1, int(h0 * scale))))
                    im.load()
                    if orientation != 1:  # exif_transpose copies even an upright image
                        im = ImageOps.exif_transpose(im) or im
                    reduce_to = (2 * want[0], 2 * want[1]) if detail else want
                    img = _to_bgr8(im, reduce_to if scale < 1.0 else None)
    except ImageReadError:
        raise
    except UnidentifiedImageError:
        raise ImageReadError(f"{name}: not an image (format not recognised)") from None
    except Image.DecompressionBombError as e:
        raise ImageReadError(f"{name}: image too large ({e})") from None
    except (OSError, SyntaxError, ValueError, EOFError) as e:
        raise ImageReadError(f"{name}: corrupt or truncated image ({e})") from None
    return img, w, h, scale, grey_mode


def _detail_of(img: np.ndarray, want: tuple[int, int]) -> np.ndarray:
    """`img` as it is when at most twice `want` (a DCT-reduced or whole-factor-reduced decode), else
    shrunk to twice `want` (an array or a format decoded at full size)."""
    if img.shape[1] <= 2 * want[0]:
        return img
    return cv2.resize(img, (2 * want[0], 2 * want[1]), interpolation=cv2.INTER_AREA)


def _check_budget(name: str, im: Image.Image, scale: float) -> None:
    """Refuse, before decoding, a file whose pixels would take more than `MAX_DECODE_BYTES`."""
    w0, h0 = im.size
    r = _dct_factor(scale) if im.format == "JPEG" else 1
    need = decode_bytes(im.mode, -(-w0 // r), -(-h0 // r))
    if need > MAX_DECODE_BYTES:
        depth = "16-bit " if im.mode.startswith("I;16") else ""
        raise ImageReadError(
            f"{name}: {w0}x{h0} {depth}pixels would take {need / 2**20:,.0f} MB to decode, over the "
            f"{MAX_DECODE_BYTES / 2**20:.0f} MB limit (refused to protect memory): send a JPEG, "
            "or a smaller image"
        )


_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}
_ORIENT = {  # EXIF orientation -> the opencv operations that show the image as a viewer does
    2: [("flip", 1)], 3: [("rotate", cv2.ROTATE_180)], 4: [("flip", 0)],
    5: [("transpose", None)], 6: [("rotate", cv2.ROTATE_90_CLOCKWISE)],
    7: [("transpose", None), ("rotate", cv2.ROTATE_180)], 8: [("rotate", cv2.ROTATE_90_COUNTERCLOCKWISE)],
}


def _jpeg_fast(src: ImageSource, im: Image.Image, scale: float, orientation: int) -> np.ndarray | None:
    """8-bit JPEGs through opencv's libjpeg-turbo with DCT reduction (2-3x faster than Pillow for a
    12 MP photo); None when this path does not apply, so Pillow decodes it (and names any error)."""
    if im.mode not in ("RGB", "L") or isinstance(src, np.ndarray):
        return None
    r = _dct_factor(scale)
    if isinstance(src, str | Path):
        buf = np.fromfile(str(src), np.uint8)
    else:
        buf = np.frombuffer(bytes(src), np.uint8)
    img = cv2.imdecode(buf, _REDUCED[r] | cv2.IMREAD_IGNORE_ORIENTATION)
    if img is None:
        return None
    for op, arg in _ORIENT.get(orientation, []):
        if op == "flip":
            img = cv2.flip(img, arg)
        elif op == "transpose":
            img = cv2.transpose(img)
        else:
            img = cv2.rotate(img, arg)
    return img


def read_image(src: ImageSource, **kw) -> np.ndarray:
    """The photo as BGR uint8 at full size (only > `MAX_PIXELS` photos are shrunk)."""
    return open_photo(src, **kw).image
