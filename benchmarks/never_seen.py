"""The figure that predicts what a player with their own deck sees: four-seat reveal photos dealt from
KDE's four designs that no shipped model has seen in any form, file to `TableRead`.

    python -m benchmarks.never_seen [--why]

Six seeds of `benchmarks.holdout`'s tables (`--designs kde`: `standard`, `penguins`, `jolly-royal`,
`ancient-egyptians`, held out of every training, calibration and tuning set; phone-sized, every seat
rotation, tilt), 220 tables in all: one line a seed, then their totals (seats and tables exact against
the targets, wrong seats flagged, the edits a table needs, seats exact by blur), each wrong seat left
unflagged named. The model card's never-seen row is this command's output; nothing is chosen on it
(`benchmarks.decide` is where choices are made). The reader's reads are kept beside the photos
(`benchmarks.reads_cache`): a first run renders and reads every photo (about half an hour on two
cores), later ones run the geometry alone (minutes).
"""

from __future__ import annotations

import argparse
import os

from benchmarks.holdout import Deal, SeatScore, designs_named, render, score_folder
from datasets.faces import first_use
from datasets.synth.holdout import Split
from vision.detector import get_detector

#: (seed, tables) of the never-seen sets: seeds no training or tuning set uses
NEVER_SEEN = ((8080, 30), (9191, 30), (4242, 40), (5151, 40), (6161, 40), (7171, 40))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=4032, help="long side of the photos (a phone's 12 Mpx)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--why", action="store_true",
                    help="for every wrong seat, what differs and what lies on each index of a card it lacks")
    args = ap.parse_args(argv)
    first_use(fetch=True)
    deal = Deal(designs=designs_named(Split.HELD_OUT, "kde"))
    det = get_detector()
    total = SeatScore()
    for seed, tables in NEVER_SEEN:
        folder = render(Split.HELD_OUT, tables, seed, args.size, args.workers, deal=deal)
        out = score_folder(folder, det, tables, f"never seen {seed}", explain=args.why, reuse=True)
        score = out.seats
        if out.reused:
            print(f"never seen {seed}: reads reused for {out.reused} of {score.tables} photos (their time is "
                  "the geometry's alone)")
        print(f"never seen {seed}: {score.line()}; {score.edits_line()}")
        total.merge(score)
    print(f"never seen: {total.line()}")
    print(f"never seen: {total.edits_line()}")
    print(f"never seen: {total.alarm_line()}")
    print(f"never seen: {total.blur_line()}")
    for line in total.silent:
        print(f"never seen: wrong and not flagged: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
