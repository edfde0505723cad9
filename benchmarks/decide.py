"""The decision sets: the rendered tables readers and geometry are chosen on, never in a reported figure.

    python -m benchmarks.decide [--groups gm-paris,four-corners] [--why]

Nineteen sets of reveal photos (`benchmarks.holdout`'s tables): the decision design (KDE's
`gm-paris`, `Split.DECIDE`: no model trains on it) at four seats and at five, phone-sized, and at four
seats as a chat app sends a photo on (1600 px), and the training split's designs and fonts at four
seats, and, dealt from its procedural faces that print all four corners, at four seats and at five.
The report rows (`models/MODEL_CARD.md`) deal the held-out split and other seeds; a choice is made
here and reported there. The real photos' decision half is
`python -m benchmarks.detector --synth 0 --real finetune`.

Prints one line a set and each group's totals: seats exact, wrong seats flagged, exact seats carrying
a problem that names them, and the edits a table needs (`benchmarks.corrections`); then each group's
wrong seats by what lost the cards they lack (`benchmarks.wrong_seats`), and with ``--why``, as each
is found, what every wrong seat lacks and what lies on those cards' indices: which stage to work on.
The reader's reads are kept beside the photos and reused (`benchmarks.reads_cache`): a first run
renders and reads every photo (minutes a set on two cores), later ones run the geometry alone
(seconds).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from benchmarks.holdout import Deal, SeatScore, deal_for, render, score_folder
from benchmarks.wrong_seats import WrongSeats
from datasets.faces import first_use
from datasets.synth.holdout import Split
from vision.detector import get_detector


@dataclass(frozen=True)
class DecisionSet:
    """One decision set: `tables` photos of `seats` seats from `split`, rendered from `seed`, `size`
    pixels on their long side (None: `main`'s `--size`, a phone's photo)."""

    group: str
    split: Split
    tables: int
    seed: int
    seats: int = 4
    four_corners: bool = False
    size: int | None = None

    @property
    def name(self) -> str:
        return f"{self.group} {self.seed}"


DECISION_SETS = (
    *(DecisionSet("gm-paris", Split.DECIDE, 40, s) for s in (5151, 6161, 7171)),
    *(DecisionSet("training", Split.TRAIN, 20, s) for s in (5151, 6161, 7171)),
    DecisionSet("training", Split.TRAIN, 40, 5353),
    *(DecisionSet("gm-paris-five", Split.DECIDE, 20, s, seats=5) for s in (5151, 6161)),
    *(DecisionSet("gm-paris-1600", Split.DECIDE, 40, s, size=1600) for s in (5151, 6161, 7171)),
    *(DecisionSet("four-corners", Split.TRAIN, 20, s, four_corners=True) for s in (5151, 6161, 7171, 5353)),
    *(DecisionSet("four-corners-five", Split.TRAIN, 20, s, seats=5, four_corners=True)
      for s in (5151, 6161, 7171)),
)


def summary(scores: list[SeatScore]) -> str:
    """One line for a set's scores, or a group's summed.

    >>> summary([SeatScore(seats=8, exact=6, wrong_flagged=2, exact_flagged=1, edits=[0, 4])])
    'seats exact 6/8 (75.0%), wrong seats flagged 2/2, exact seats carrying a problem 1, edits a table 2.00'
    """
    t = SeatScore()
    for s in scores:
        t.merge(s)
    return (f"seats exact {t.exact}/{t.seats} ({100 * t.exact / max(1, t.seats):.1f}%), wrong seats flagged "
            f"{t.wrong_flagged}/{t.seats - t.exact}, exact seats carrying a problem {t.exact_flagged}, "
            f"edits a table {sum(t.edits) / max(1, len(t.edits)):.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    groups = sorted({d.group for d in DECISION_SETS})
    ap.add_argument("--groups", default=",".join(groups), help=f"comma-separated, of {', '.join(groups)}")
    ap.add_argument("--size", type=int, default=4032, help="long side of the photos of the sets that do "
                    "not set their own")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--why", action="store_true",
                    help="for every wrong seat, what it lacks and what lies on those cards' indices")
    args = ap.parse_args(argv)
    wanted = [g for g in args.groups.split(",") if g]
    unknown = sorted(set(wanted) - set(groups))
    if unknown:
        ap.error(f"--groups: no group {', '.join(unknown)} (there are {', '.join(groups)})")
    first_use(fetch=True)
    det = get_detector()
    scores: dict[str, list[SeatScore]] = {}
    causes: dict[str, WrongSeats] = {}
    for d in (d for d in DECISION_SETS if d.group in wanted):
        deal = deal_for(d.split, Deal(d.seats, d.four_corners))
        folder = render(d.split, d.tables, d.seed, d.size or args.size, args.workers, deal=deal)
        out = score_folder(folder, det, d.tables, d.name, explain=args.why, reuse=True)
        scores.setdefault(d.group, []).append(out.seats)
        causes.setdefault(d.group, WrongSeats()).merge(out.causes)
        print(f"{d.name}: {summary([out.seats])}")
    for group, group_scores in scores.items():
        print(f"{group}: {summary(group_scores)}")
    for group, wrong in causes.items():
        print(f"{group}: {wrong.line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
