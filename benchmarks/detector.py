"""How well the shipped ONNX detector reads real and held-out synthetic photos (slow; figures printed).

    python -m benchmarks.detector [--model models/cards.onnx] [--synth 100] [--regions on|off]

Real photos: ../shared/datasets/real/cardcounter, split by `datasets.real.split_of`. Only the `test`
half is a fair measure when the model was fine-tuned on the `finetune` half (see the model card);
both are printed, on the checked labels (`datasets.real_labels`: six rows that name another card than
the photo shows, renamed, and one stray box dropped; `--as-labelled` for the set as published).
Synthetic photos (`--synth N`) are of the held-out split (`datasets.synth.holdout`: designs and fonts
no training set renders), a mix of tables, seats and piles at 1280 px.
Card level: distinct cards per photo, jokers included, card backs ignored; with the checked labels a
read of a card the photo shows but its labels leave out (`datasets.real_labels.UNLABELLED`, a card cut
by the photo's edge) counts neither way.
Box mAP50 is computed with a low confidence threshold (as detectors are usually scored); card level
at the detector's operating threshold; "as read" is the cards a player is shown once the geometry
has placed them (seats and orphans), from the sure reads alone and with the unsure ones it may take,
told no jokers where the photo's labels show none, as the app's rules tell the reader.

The detector is the shipped one: the one-class index finder and the namer of its proposals
(`vision.detector`); `--classifier-model` measures another namer (a file, or a committee a.onnx+b.onnx).
`--regions off` reads every photo whole instead of only its parts with detail (`vision.regions`).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import cv2
from tqdm import tqdm

from benchmarks.holdout import render
from benchmarks.metrics import BoxMAP, CardScore, IndexScore, MissKinds
from datasets.boxes import yolo_to_xyxy
from datasets.crops import read_yolo
from datasets.real import items as real_photo_items
from datasets.synth.holdout import Split
from vision import table_of
from vision.classes import CLASS_NAMES, JOKERS
from vision.detector import DEFAULT_BOX_CONF, DEFAULT_CONF, DEFAULT_UNSURE_CONF, Detector, IndexReads
from vision.regions import RegionConfig
from vision.second_look import looking_again

#: A photo to measure: its file, its labelled (card, box) pairs, and the cards it shows that its labels
#: leave out (reads of them count neither way)
Item = tuple[Path, list[tuple[str, tuple]], tuple[str, ...]]


def measure(detector: Detector, items: list[Item], label: str, conf: float) -> dict:
    """One low-threshold pass per photo serves both figures: greedy NMS keeps the same boxes above
    `conf` whatever lower threshold it ran at, so card level filters the same detections."""
    cards, boxes, indices, misses = CardScore(), BoxMAP(), IndexScore(), MissKinds()
    tables = {"sure reads": CardScore(), "with unsure": CardScore()}
    t0 = time.perf_counter()
    for image, truth, unlabelled in tqdm(items, desc=label, leave=False):
        dets = detector.detect(image)
        # every dedupe keeps the surer read, so filtering the low-threshold reads gives the reads the
        # detector makes at its operating threshold, its unsure ones, and those under the unsure floor
        sure = [d for d in dets if d.confidence >= conf]
        unsure = [d for d in dets if DEFAULT_UNSURE_CONF <= d.confidence < conf]
        faint = [d for d in dets if d.confidence < DEFAULT_UNSURE_CONF]
        cards.add([d.card for d in sure], [c for c, _ in truth], unlabelled)
        boxes.add([(d.card, d.box, d.confidence) for d in dets], truth)
        sure_boxes = [(d.card, d.box) for d in sure]
        indices.add(sure_boxes, truth)
        misses.add(sure_boxes, [(d.card, d.box) for d in unsure], [(d.card, d.box) for d in faint], truth)
        # told no jokers where the photo shows none, as the app's rules tell it (every preset plays
        # without); a photo with a joker labelled is read free to read it
        jokers = None if any(c in JOKERS for c, _ in truth) else 0
        for name, extra in (("sure reads", []), ("with unsure", unsure)):
            # with the unsure reads, read as the app reads a photo: looked at again along a short row
            reads = IndexReads(sure, extra)
            t = table_of(reads, 0, 0, conf=conf, jokers=jokers,
                         second_look=looking_again(detector, image, reads) if extra else None)
            tables[name].add([c.card for s in t.seats for c in s.cards] + [c.card for c in t.unseated],
                             [c for c, _ in truth], unlabelled)
    ms = (time.perf_counter() - t0) / max(1, len(items)) * 1000
    head = f"{label:<48} {len(items):4d} photos"
    print(f"{head}  mAP50 {boxes.map50():.3f}  cards {cards.line()}  ({ms:.0f} ms/photo)")
    print(f"{'':<48} {indices.line()}")
    print(f"{'':<48} {misses.line()} (faint: under the unsure floor)")
    n = max(1, len(items))
    print(f"{'':<48} as read (vision.table_of): " + "; ".join(
        f"{name}: cards {sc.line()}, false cards {sc.fp / n:.2f} a photo" for name, sc in tables.items()))
    return {"map50": boxes.map50(), "f1": cards.f1, "precision": cards.precision, "recall": cards.recall,
            "named_right": indices.right / max(1, indices.labelled)}


def real_items(split: str | None, checked: bool = True) -> list[Item]:
    return [(it.image, it.cards, it.unlabelled) for it in real_photo_items(split, checked=checked)]


def synth_items(n: int, seed: int) -> list[Item]:
    """Generated photos of the held-out split (designs and fonts no training set renders, KDE's decks
    among them; a mix of tables, seats and piles, 1280 px), rendered once and cached."""
    out = render(Split.HELD_OUT, n, seed, 1280, min(2, os.cpu_count() or 1), kind=None)
    items = []
    for img, rows in read_yolo(out)[:n]:
        h, w = cv2.imread(str(img)).shape[:2]
        boxes = yolo_to_xyxy(rows, w, h)
        items.append((img, [(CLASS_NAMES[int(c)], tuple(float(v) for v in b))
                            for c, b in zip(rows[:, 0], boxes, strict=True)], ()))
    return items


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default=None)
    p.add_argument("--conf", type=float, default=None, help="operating threshold (default: the detector's)")
    p.add_argument("--synth", type=int, default=100,
                   help="generated photos of the held-out designs and fonts (0 to skip)")
    p.add_argument("--synth-seed", type=int, default=90210)
    p.add_argument("--real", default="test,finetune", help="real halves to measure ('' for none)")
    p.add_argument("--as-labelled", action="store_true",
                   help="score the real photos against the labels as published, not the checked ones")
    p.add_argument("--classifier-model", default="auto",
                   help="the namer: an ONNX file or a committee a.onnx+b.onnx (default: the model's own)")
    p.add_argument("--box-conf", type=float, default=DEFAULT_BOX_CONF,
                   help="the index finder's box threshold (vision.proposer)")
    p.add_argument("--bg-drop", type=float, default=0.5, help="drop boxes the classifier calls background")
    p.add_argument("--regions", choices=["on", "off"], default="on",
                   help="read only the parts of a photo with detail (vision.regions), or every photo whole")
    args = p.parse_args(argv)

    regions = RegionConfig(enabled=args.regions == "on")
    conf = args.conf if args.conf is not None else DEFAULT_CONF
    # read down to 0.01 so the box mAP sees the low-confidence reads; card level filters at `conf`
    det = Detector(args.model, conf=0.01, classifier=args.classifier_model, box_conf=args.box_conf,
                   bg_drop=args.bg_drop, regions=regions)
    namer = "+".join(str(p) for p in det.classifier.model_paths)
    print(f"model {det.model_path}  operating conf {conf}  classifier {namer}  "
          f"regions {args.regions}")
    sets: list[tuple[str, list[Item]]] = []
    try:
        for split in args.real.split(",") if args.real else []:
            labels = "as labelled" if args.as_labelled else "checked labels"
            sets.append((f"real ({split} half, {labels})", real_items(split, not args.as_labelled)))
    except FileNotFoundError as e:
        print(f"real photos skipped: {e}")
    if args.synth:
        sets.append(("synthetic (held out)", synth_items(args.synth, args.synth_seed)))
    for label, items in sets:
        measure(det, items, f"{label} yolo+cls", conf)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
