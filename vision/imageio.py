"""Read any photo a phone produces into an 8-bit BGR array, or say clearly why not.

Why not just `cv2.imread`: it ignores EXIF orientation on some builds, cannot read HEIC, returns
None instead of an error, and always decodes at full size. Here Pillow (with pillow-heif) opens the
file, EXIF orientation is applied, every pixel format is brought to 8-bit BGR, and a JPEG that will
be shrunk anyway is decoded at a reduced DCT scale (`Image.draft`), which is several times faster for
a 12 MP photo than decoding it whole and resizing.

>>> import numpy as np
>>> photo = open_photo(np.zeros((30, 40), np.uint8))
>>> photo.image.shape, photo.width, photo.height, photo.scale
((30, 40, 3), 40, 30, 1.0)
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
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

ImageSource = str | Path | bytes | bytearray | np.ndarray


class ImageReadError(ValueError):
    """The input is not a readable image; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Photo:
    """A decoded photo: `image` is BGR uint8, possibly smaller than the original.

    `width`/`height` are the original size after EXIF rotation; `scale` is image pixels per original
    pixel, so a box found in `image` maps back to the original photo by dividing by `scale`.
    """

    image: np.ndarray
    width: int
    height: int
    scale: float = 1.0
    name: str = "<array>"


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


def _to_bgr8(img: Image.Image) -> np.ndarray:
    """Any Pillow mode (1, L, LA, P, RGBA, I;16, I, F, CMYK, YCbCr...) to contiguous BGR uint8."""
    mode = img.mode
    if mode in ("I;16", "I;16B", "I;16L", "I;16N", "I", "F"):
        a = np.asarray(img, dtype=np.float64)
        hi = 65535.0 if mode.startswith("I;16") or a.max(initial=0) > 255 else 255.0
        if mode == "F" and a.max(initial=0) <= 1.0:
            hi = 1.0
        gray = np.clip(a * (255.0 / hi), 0, 255).astype(np.uint8)
        return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    if mode == "P" and "transparency" in img.info:
        img = img.convert("RGBA")
        mode = "RGBA"
    if mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        # Transparent pixels over white, like a viewer shows them, not over black.
        rgba = img.convert("RGBA")
        bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        img = Image.alpha_composite(bg, rgba).convert("RGB")
    elif mode != "RGB":
        img = img.convert("RGB")
    return np.ascontiguousarray(np.asarray(img)[:, :, ::-1])


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
) -> Photo:
    """Decode `src` (a path, the file's bytes, or a numpy array) to BGR uint8.

    With `long_side`, the image is shrunk (never enlarged) so its longer side is at most that; the
    caller reads `Photo.scale` to map results back to the original pixels.
    Raises `ImageReadError` for a missing, non-image, corrupt, empty or oversized input.
    """
    name = _describe(src)
    if isinstance(src, np.ndarray):
        img = _array_to_bgr8(src)
        h, w = img.shape[:2]
        scale = _target_scale(w, h, long_side, max_pixels)
        if scale < 1.0:
            size = (max(1, round(w * scale)), max(1, round(h * scale)))
            img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        return Photo(img, w, h, scale, name)

    if isinstance(src, str | Path):
        path = Path(src)
        if not path.exists():
            raise ImageReadError(f"{name}: no such file")
        if path.is_dir():
            raise ImageReadError(f"{name}: is a directory, not an image")
        if path.stat().st_size == 0:
            raise ImageReadError(f"{name}: empty file")
        fp: io.IOBase | Path = path
    elif isinstance(src, bytes | bytearray):
        if not src:
            raise ImageReadError(f"{name}: empty input")
        fp = io.BytesIO(bytes(src))
    else:
        raise ImageReadError(f"{name}: cannot read an image from {type(src).__name__}")

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
                orientation = im.getexif().get(0x0112, 1)
                swapped = orientation in (5, 6, 7, 8)
                w, h = (h0, w0) if swapped else (w0, h0)
                scale = _target_scale(w, h, long_side, max_pixels)
                img = _jpeg_fast(src, im, scale, orientation) if im.format == "JPEG" else None
                if img is None:
                    if scale < 1.0 and im.format == "JPEG":
                        # DCT-domain reduction: 1/2, 1/4 or 1/8 but never below the request.
                        im.draft("RGB", (max(1, int(w0 * scale)), max(1, int(h0 * scale))))
                    im.load()
                    im = ImageOps.exif_transpose(im) or im
                    img = _to_bgr8(im)
    except ImageReadError:
        raise
    except UnidentifiedImageError:
        raise ImageReadError(f"{name}: not an image (format not recognised)") from None
    except Image.DecompressionBombError as e:
        raise ImageReadError(f"{name}: image too large ({e})") from None
    except (OSError, SyntaxError, ValueError, EOFError) as e:
        raise ImageReadError(f"{name}: corrupt or truncated image ({e})") from None

    hi, wi = img.shape[:2]
    want = (max(1, round(w * scale)), max(1, round(h * scale)))
    if (wi, hi) != want:
        # What is left after a DCT reduction is under 2x: linear is ~10x faster than area there.
        interp = cv2.INTER_AREA if want[0] < wi / 2 else cv2.INTER_LINEAR
        img = cv2.resize(img, want, interpolation=interp)
    return Photo(img, w, h, scale, name)


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
    r = 1
    while r < 8 and 1 / (r * 2) >= scale:
        r *= 2
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
