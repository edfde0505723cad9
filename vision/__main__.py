"""`python -m vision detect IMG... --json` and `python -m vision read IMG --json [--seats N] [--rules P]
[--extra-suit S]`.

The JSON forms are contracts: `detect` prints {path as given: [{"card", "box", "confidence"}]} and
`read` prints the table `python -m scoring settle -` takes, so a photo scores in one pipe.
Exit status: 0 ok, 2 a bad input (unreadable or oversized image, a missing model or a file that is
not one, a `--draw` path that cannot be written), with the reason on stderr and never a traceback.
`--draw` is checked before the photo is read, and the answer is printed before the drawing is made.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import cv2
import onnxruntime.capi.onnxruntime_pybind11_state as ort_errors

from . import detect, get_detector, read
from .classes import SUITS
from .detector import Detector, ModelMismatchError, ModelMissingError
from .draw import draw_table
from .imageio import ImageReadError, read_image
from .int8 import Int8WeightsError

ORT_ERRORS = tuple(v for v in vars(ort_errors).values() if isinstance(v, type) and issubclass(v, Exception))
"""What onnxruntime raises for a file it cannot load (not ONNX, a folder, an unsupported graph)."""
BAD_INPUT = (ImageReadError, ModelMissingError, ModelMismatchError, Int8WeightsError)


class DrawError(ValueError):
    """`--draw` names a place no picture can be written."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m vision", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("detect", help="corner indices found in each photo")
    d.add_argument("images", nargs="+")
    r = sub.add_parser("read", help="seats and rows of one photo, as a table for scoring")
    r.add_argument("image")
    r.add_argument("--seats", type=int, choices=range(1, 6), help="how many seats (default: infer)")
    r.add_argument("--deck", type=int, choices=(52, 65), help="deck size (default: 65 for 5 seats)")
    r.add_argument("--extra-suit", choices=tuple(SUITS),
                   help="the five-player game's added suit (the 65-card deck; default: the suit the "
                   "table shows twice)")
    r.add_argument("--jokers", type=int, choices=(0, 1, 2), default=0,
                   help="jokers the table plays with (default 0, as every preset); at a table without, "
                        "no read is a joker and none is suggested for a misread card")
    r.add_argument("--rules", default="taiwan", help="rule preset written into the table")
    r.add_argument("--draw", metavar="OUT", help="also write the photo with labelled boxes here (.jpg, .png)")
    for q in (d, r):
        q.add_argument("--json", action="store_true", help="machine-readable output")
        q.add_argument("--model", help="ONNX model (default models/cards.onnx or $CARDS_MODEL)")
    return p


def check_draw_target(path: str) -> None:
    """Refuse, before any reading, a `--draw` path that could not be written: a folder, a folder
    that does not exist or cannot be written, or an extension opencv has no writer for."""
    target = Path(path)
    if target.is_dir():
        raise DrawError(f"--draw {path}: is a folder; give a file name such as {target / 'table.jpg'}")
    folder = target.parent
    if not folder.is_dir():
        raise DrawError(f"--draw {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise DrawError(f"--draw {path}: the folder {folder} cannot be written")
    if not target.suffix or not cv2.haveImageWriter(str(target)):
        raise DrawError(f"--draw {path}: {target.suffix or 'no extension'} is not an image format "
                        "that can be written; use .jpg or .png")


def _load(model: str | None) -> Detector:
    try:
        return get_detector(model)
    except ORT_ERRORS as e:
        where = model or "the default model"
        raise ModelMismatchError(f"{where} is not an ONNX model onnxruntime can load "
                                 f"({str(e).splitlines()[0][:200]})") from None


def _write_drawing(path: str, image: str, table) -> None:
    try:
        ok = cv2.imwrite(path, draw_table(read_image(image), table))
    except cv2.error as e:
        raise DrawError(f"--draw {path}: could not be written ({str(e).strip().splitlines()[-1]})") from None
    if not ok:
        raise DrawError(f"--draw {path}: could not be written")


def _flush() -> None:
    """Flush standard output; a reader that stopped reading (`| head`) is not an error: what is
    still buffered, and the flush at exit, go to the null device instead."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        try:
            fd = sys.stdout.fileno()
        except (AttributeError, OSError, ValueError):
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)


def _say(text: str) -> None:
    """A line on standard output that always encodes (a file name from the command line may hold
    bytes that are not UTF-8)."""
    print(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def _run(args: argparse.Namespace) -> int:
    if args.cmd == "read" and args.draw:
        check_draw_target(args.draw)
    det = _load(args.model)
    if args.cmd == "detect":
        out = {path: [d.to_json() for d in detect(path, model=det)] for path in args.images}
        if args.json:
            print(json.dumps(out))
        else:
            for path, dets in out.items():
                _say(f"{path}: {len(dets)} corner(s)")
                for d in dets:
                    print(f"  {d['card']:>3}  {d['confidence']:.2f}  {d['box']}")
        _flush()
        return 0
    table = read(args.image, seats=args.seats, deck=args.deck, jokers=args.jokers, extra_suit=args.extra_suit,
                 model=det)
    if args.json:
        print(json.dumps(table.to_table(args.rules)))
    else:
        for s in table.seats:
            print(f"{s.name} (facing {s.orientation_deg:.0f} deg)")
            for row, cards in s.rows().items():
                print(f"  {row:<6} " + " ".join(c.card for c in cards))
        for p in table.problems:
            print(f"! {p.message}")
    _flush()
    if args.draw:
        _write_drawing(args.draw, args.image, table)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Exit 0 with the answer; 2 with `error: ...` on standard error for any bad input (the image,
    the model, the `--draw` target); a reader that stops reading ends the output quietly."""
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except (*BAD_INPUT, DrawError) as e:
        print(f"error: {str(e).encode('utf-8', 'backslashreplace').decode('utf-8')}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # mid-answer, before the flush
        _flush()
        return 0


if __name__ == "__main__":
    sys.exit(main())
