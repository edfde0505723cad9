"""`python -m vision detect IMG... --json` and `python -m vision read IMG --json [--seats N] [--rules P]`.

The JSON forms are contracts: `detect` prints {path as given: [{"card", "box", "confidence"}]} and
`read` prints the table `python -m scoring settle -` takes, so a photo scores in one pipe.
Exit status: 0 ok, 2 a bad input (unreadable image, missing model), with the reason on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import detect, get_detector, read
from .detector import ModelMismatchError, ModelMissingError
from .imageio import ImageReadError, read_image
from .int8 import Int8WeightsError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m vision", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("detect", help="corner indices found in each photo")
    d.add_argument("images", nargs="+")
    r = sub.add_parser("read", help="seats and rows of one photo, as a table for scoring")
    r.add_argument("image")
    r.add_argument("--seats", type=int, choices=range(1, 6), help="how many seats (default: infer)")
    r.add_argument("--deck", type=int, choices=(52, 65), help="deck size (default: 65 for 5 seats)")
    r.add_argument("--rules", default="taiwan", help="rule preset written into the table")
    r.add_argument("--draw", metavar="OUT", help="also write the photo with labelled boxes here")
    for q in (d, r):
        q.add_argument("--json", action="store_true", help="machine-readable output")
        q.add_argument("--model", help="ONNX model (default models/cards.onnx or $CARDS_MODEL)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        det = get_detector(args.model)
        if args.cmd == "detect":
            out = {path: [d.to_json() for d in detect(path, model=det)] for path in args.images}
            if args.json:
                print(json.dumps(out))
            else:
                for path, dets in out.items():
                    print(f"{path}: {len(dets)} corner(s)")
                    for d in dets:
                        print(f"  {d['card']:>3}  {d['confidence']:.2f}  {d['box']}")
            return 0
        table = read(args.image, seats=args.seats, deck=args.deck, model=det)
        if args.draw:
            import cv2

            from .draw import draw_table

            cv2.imwrite(args.draw, draw_table(read_image(args.image), table))
        if args.json:
            print(json.dumps(table.to_table(args.rules)))
        else:
            for s in table.seats:
                print(f"{s.name} (facing {s.orientation_deg:.0f} deg)")
                for row, cards in s.rows().items():
                    print(f"  {row:<6} " + " ".join(c.card for c in cards))
            for p in table.problems:
                print(f"! {p.message}")
        return 0
    except (ImageReadError, ModelMissingError, ModelMismatchError, Int8WeightsError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
