"""Generalisation: four-seat phone photos of decks the reader never trained on, file to `TableRead` (slow).

    python -m benchmarks.holdout [--tables 30] [--seed 8080] [--size 4032] [--splits held_out,train]
        [--classifier a.onnx,b.onnx] [--conf 0.6,0.5] [--unsure 0.25,0.6] [--why] [--reuse-reads]
        [--four-corners] [--seats 4] [--designs kde]

For each split of `datasets.synth.holdout` (held-out designs and fonts; the designs trained on), it
renders ``--tables`` four-seat (``--seats``) reveal photos (long side ``--size``, every seat facing its
own side of the table, camera tilt and roll as the generator draws them; ``--four-corners``: dealt from
decks that print all four corners; ``--designs``: dealt from those held-out designs only, e.g. ``kde``
for the four that no shipped model has seen in any form), reads each from its JPEG file with the
shipped reader (`vision.read`), and prints:

- seats exact (head, middle and tail hold exactly the true cards) and tables exact (the reads told
  what the table's rules tell the app: a five-seat table's added suit, as the app's five-player
  setting tells it, `added_suit_of`; no jokers where none is dealt, as every preset plays,
  `jokers_of`);
- wrong seats flagged: a wrong seat must carry a problem naming it, or the table one naming no seat
  (a true seat not read at all: any problem on the table, or fewer seats read than the table has,
  which the app, knowing the table's seats, says);
- exact seats carrying a problem that names them: a check the player makes for nothing;
- the same exact-seat share among the seats whose every card shows an index (the rest have a card
  under a chip, paper or another card, or out of the photo: no reader names those but by elimination),
  and by how blurred each seat's indices are (the photo's blur over the seat's index height: a far
  seat of a blurred photo can be illegible to anyone);
- labelled indices named right (the read kept on a labelled corner carries its card), found, and
  false boxes a photo (kept reads on no labelled corner: pips, figures, backs, chips);
- what lies on the indices not named right (`benchmarks.metrics.MissKinds`), the wrong seats by which
  stage lost the cards they lack (`benchmarks.wrong_seats`), and with ``--why``, for every wrong seat,
  what differs and what the reader has on each index of each card it lacks.

The held-out figure is the one that predicts what a player with their own deck sees; the train
split's figure beside it shows how much of the reader's accuracy is memory of the designs.
``--splits decide`` deals the decision design (`datasets.synth.holdout.DECISION_DESIGNS`: never trained
on, never in a reported figure) alone: the set to choose between readers on.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, fields, replace
from itertools import pairwise
from pathlib import Path

from tqdm import tqdm

import vision
from benchmarks.corrections import corrections
from benchmarks.metrics import IndexScore, MissKinds
from benchmarks.pipeline import added_suit_of, jokers_of, match_seats, rows_of, seat_right, truth_of
from benchmarks.reads_cache import ReadsCache
from benchmarks.wrong_seats import WrongSeats, difference, why
from datasets.faces import first_use, load, stored_names
from datasets.fingerprint import benchmark_fingerprint
from datasets.synth.batch import POOL
from datasets.synth.holdout import Split, designs_for
from datasets.synth.scene import generate
from datasets.synth.writer import write_scene
from vision.classes import CLASS_NAMES
from vision.classifier import namer_paths
from vision.detector import Detector, get_detector
from vision.geometry.problems import CLOSE_UP_KINDS
from vision.second_look import looking_again
from vision.types import Box, Detection, SeatRead, TableRead

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "cache" / "bench"


@dataclass(frozen=True)
class Deal:
    """What the benchmark's tables are dealt as: how many seats, whether from procedural decks that
    print their index in all four corners, and from which fetched designs only (none named: the
    split's designs and procedural faces)."""

    seats: int = 4
    four_corners: bool = False
    designs: tuple[str, ...] = ()

    @property
    def suffix(self) -> str:
        """The render folder's name part for a deal other than the default."""
        return ("-4corners" if self.four_corners else "") \
            + (f"-{self.seats}seats" if self.seats != 4 else "") \
            + ("-" + "+".join(self.designs) if self.designs else "")


def _fetched(split: Split, four_corners: bool) -> tuple[str, ...]:
    """The fetched designs of `split` that print all four corners (`four_corners`), or the others."""
    return tuple(n for n in designs_for(split, stored_names()) if load(n).four_corners == four_corners)


def designs_named(split: Split, prefixes: str, four_corners: bool = False) -> tuple[str, ...]:
    """The fetched designs of `split` whose names start with one of the comma-separated `prefixes`
    ("kde" names KDE's decks), those printing all four corners with `four_corners` and the others
    without; a `ValueError` naming the split's designs when none does."""
    wanted = [p for p in prefixes.split(",") if p]
    have = _fetched(split, four_corners)
    found = tuple(n for n in have if any(n.startswith(p) for p in wanted))
    if not found:
        raise ValueError(f"no {split.value} design starts with {', '.join(wanted)}: the split has "
                         f"{', '.join(have) or 'none'} (`python -m datasets.faces` fetches the designs "
                         "this checkout names that the cache lacks)")
    return found


def deal_for(split: Split, deal: Deal) -> Deal:
    """The decision split has no fonts of its own: unless designs are named, its tables are dealt from
    its designs alone (those that print all four corners with `deal.four_corners`, else the others)."""
    if split is not Split.DECIDE or deal.designs:
        return deal
    designs = _fetched(split, deal.four_corners)
    if not designs:
        raise ValueError("no decision design is fetched (`python -m datasets.faces` fetches them)")
    return replace(deal, designs=designs)


def _render(job: tuple[str, int, int, int, str, str | None, Deal]) -> None:
    out, seed, index, size, split, kind, deal = job
    name = f"{index:06d}"
    if (Path(out) / "meta" / f"{name}.json").exists():
        return
    only = {"designs": deal.designs, "p_procedural": 0.0} if deal.designs else {}
    scene = generate(seed, index, size=size, kind=kind, split=Split(split), **only,
                     n_seats=deal.seats if kind == "table" else None, four_corners=deal.four_corners)
    write_scene(Path(out), name, scene)


def render(split: Split, n: int, seed: int, size: int, workers: int, kind: str | None = "table",
           deal: Deal = Deal()) -> Path:
    """The split's photos, rendered once into ``cache/bench`` (named by the generator's fingerprint):
    tables dealt as `deal` says (four seats, two-corner decks by default), or scenes of another
    `datasets.synth.scene` kind (None: the generator's mix of kinds)."""
    prefix = ("holdout" if kind == "table" else kind or "mix") + deal.suffix
    out = BENCH / f"{prefix}-{split.value}-{seed}-{n}-{size}-g{benchmark_fingerprint()}"
    jobs = [(str(out), seed, i, size, split.value, kind, deal) for i in range(n)]
    with POOL.Pool(workers) as pool:
        list(tqdm(pool.imap(_render, jobs), total=n, desc=f"render {prefix} {split.value}", unit="photo"))
    return out


def truth_boxes(meta: dict) -> list[tuple[str, tuple[float, float, float, float]]]:
    return [(c["card"], tuple(i["box"])) for c in meta["cards"] for i in c["indices"] if i["visible"]]


@dataclass
class SeatScore:
    seats: int = 0
    exact: int = 0
    wrong_flagged: int = 0
    tables: int = 0
    tables_exact: int = 0
    shown: int = 0  # seats whose every card shows at least one index (`all_shown`)
    shown_exact: int = 0
    exact_flagged: int = 0  # exact seats that carry a problem naming them: a check the player did not need
    wrong_close_up: int = 0  # wrong seats whose problems say their indices are small or blurred
    by_blur: dict[int, list[int]] = field(default_factory=dict)  # `BLUR_EDGES` bucket -> [exact, seats]
    seconds: list[float] = field(default_factory=list)
    edits: list[int] = field(default_factory=list)  # per table, the player's `corrections`

    silent: list[str] = field(default_factory=list)  # "photo seat N: what differs" of unflagged wrong seats
    wrong: list[tuple[int, SeatRead | None]] = field(default_factory=list)  # (true seat, seat read)

    def add(self, meta: dict, table: TableRead) -> None:
        """Match true seats to read seats by shared cards, then compare each seat's three rows."""
        truth = truth_of(meta)
        ts = sorted(truth)
        self.tables += 1
        self.seats += len(ts)
        read = table.seats
        flagged_all = any(p.seat is None for p in table.problems)
        all_right = len(read) == len(ts)
        shown = all_shown(meta)
        blur = blur_over_index(meta)
        matched = match_seats(truth, read)
        self.edits.append(corrections(
            [truth[t] for t in ts], [rows_of(s) for s in read],
            matched, Counter(c.card for c in table.unseated)))
        for t, j in zip(ts, matched, strict=True):
            self.shown += shown[t]
            bucket = self.by_blur.setdefault(blur_bucket(blur[t]), [0, 0]) if t in blur else [0, 0]
            bucket[1] += 1
            if j is not None and seat_right(truth[t], read[j]):
                self.exact += 1
                self.shown_exact += shown[t]
                self.exact_flagged += any(p.seat == read[j].seat for p in table.problems)
                bucket[0] += 1
                continue
            all_right = False
            self.wrong.append((t, None if j is None else read[j]))
            # a seat read wrong must carry a problem naming it; a seat not read at all has no name,
            # so any problem on the table flags it (the table cannot be settled as read), and so do
            # fewer seats read than the table has: the app, which knows the table's seats (4 unless
            # the players set another count), says how many of them the photo lacks
            flagged = flagged_all or (bool(table.problems) or len(read) < len(ts) if j is None
                                      else any(p.seat == read[j].seat for p in table.problems))
            self.wrong_flagged += flagged
            self.wrong_close_up += j is not None and any(
                p.seat == read[j].seat and p.kind in CLOSE_UP_KINDS for p in table.problems)
            if not flagged:
                what = difference(truth[t], None if j is None else read[j])
                self.silent.append(f"{meta['image']} true seat {t}: {what}")
        self.tables_exact += all_right

    def merge(self, other: SeatScore) -> None:
        """Add `other`'s counts to these: several sets' figures as one. Every field takes part by its
        kind (counts add, lists extend, the blur buckets add bucket by bucket), so a field added to
        the score is merged without a line here."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, dict):
                for k, (e, n) in theirs.items():
                    bucket = mine.setdefault(k, [0, 0])
                    bucket[0], bucket[1] = bucket[0] + e, bucket[1] + n
            elif isinstance(mine, list):
                mine.extend(theirs)
            else:
                setattr(self, f.name, mine + theirs)

    def line(self) -> str:
        wrong = self.seats - self.exact
        return (f"seats exact {self.exact}/{self.seats} ({100 * self.exact / max(1, self.seats):.1f}%, "
                f"target >= 95%), tables exact {self.tables_exact}/{self.tables} "
                f"({100 * self.tables_exact / max(1, self.tables):.1f}%, target >= 85%), wrong seats flagged "
                f"{self.wrong_flagged}/{wrong}; median {1000 * statistics.median(self.seconds or [0]):.0f} "
                f"ms a photo")

    def shown_line(self) -> str:
        return (f"seats whose 13 cards all show an index: {self.shown_exact}/{self.shown} exact "
                f"({100 * self.shown_exact / max(1, self.shown):.1f}%; the others have a card covered or "
                f"out of the photo)")

    def alarm_line(self) -> str:
        """How many exact seats still carry a problem naming them: checks a player makes for nothing."""
        return (f"exact seats carrying a problem: {self.exact_flagged}/{self.exact} "
                f"({100 * self.exact_flagged / max(1, self.exact):.1f}%); wrong seats that say their "
                f"indices are small or blurred: {self.wrong_close_up}/{self.seats - self.exact}")

    def edits_line(self) -> str:
        """The edits a player makes to a table as read (`corrections`): what a misread costs."""
        e = self.edits or [0]
        return (f"edits a table needs (a card moved, renamed, added or removed): mean "
                f"{statistics.mean(e):.2f}, none on {e.count(0)}/{len(self.edits)} tables, at most {max(e)}")

    def blur_line(self) -> str:
        """Seats exact by how blurred their indices are (`blur_over_index`), in `BLUR_EDGES` buckets."""
        names = [f"< {BLUR_EDGES[0]}", *(f"{a}-{b}" for a, b in pairwise(BLUR_EDGES)), f">= {BLUR_EDGES[-1]}"]
        parts = [f"{names[k]} {e}/{n}" for k, (e, n) in sorted(self.by_blur.items())]
        return "seats exact by blur over their index height: " + (", ".join(parts) or "no blur recorded")


# Buckets of `blur_over_index`: a Gaussian of sigma 0.1 index heights smears a rank glyph (about half
# the index) past what a person reads with confidence.
BLUR_EDGES = (0.03, 0.06, 0.09)


def blur_over_index(meta: dict) -> dict[int, float]:
    """For each true seat, the photo's blur (`datasets.synth.effects.Blur`: a defocus's sigma, or a
    shake's length over sqrt(12), the spread of a uniform line) over the seat's median shown index
    height (the box's longer side), both in photo pixels. A far seat of a blurred photo can be
    illegible to anyone; this tells those seats from the reader's misses. Empty without a recorded blur."""
    blur = meta.get("blur")
    if blur is None:
        return {}
    sigma = blur["px"] / 12 ** 0.5 if blur["kind"] == "shake" else blur["px"]
    sides: dict[int, list[float]] = {}
    for c in meta["cards"]:
        for i in c.get("indices", []):
            if c["seat"] is not None and i["visible"]:
                b = i["box"]
                sides.setdefault(c["seat"], []).append(max(b[2] - b[0], b[3] - b[1]))
    return {s: sigma / statistics.median(v) for s, v in sides.items()}


def blur_bucket(ratio: float) -> int:
    """Which `BLUR_EDGES` bucket a `blur_over_index` ratio falls in (0: under the first edge)."""
    return sum(ratio >= e for e in BLUR_EDGES)


def all_shown(meta: dict) -> dict[int, bool]:
    """For each true seat, whether every one of its cards shows at least one index (`visible` in the
    scene's labels; a card listed without its indices counts as shown). A seat with a card under a chip
    or out of the frame can be exact only by elimination (`vision.geometry.deck`): this tells reader
    errors from scenes no reader could read whole."""
    out: dict[int, bool] = {}
    for c in meta["cards"]:
        if c["seat"] is not None and c["row"]:
            seen = "indices" not in c or any(i["visible"] for i in c["indices"])
            out[c["seat"]] = out.get(c["seat"], True) and seen
    return out


def _card_boxes(reads: list[Detection]) -> list[tuple[str, Box]]:
    """(card, box) of the reads that name a card, as the index metrics take them."""
    return [(d.card, d.box) for d in reads if d.card in CLASS_NAMES]


def rendered(folder: Path, n: int, label: str) -> Iterator[tuple[dict, Path]]:
    """The first `n` scenes `render` wrote to `folder`: each one's meta and its photo file (a progress
    bar named `label`)."""
    for meta_path in tqdm(sorted((folder / "meta").glob("*.json"))[:n], desc=label, unit="photo"):
        meta = json.loads(meta_path.read_text())
        yield meta, folder / "images" / meta["image"]


@dataclass
class FolderScore:
    """Every figure `measure` prints for one folder of rendered tables."""

    seats: SeatScore = field(default_factory=SeatScore)
    indices: IndexScore = field(default_factory=IndexScore)
    misses: MissKinds = field(default_factory=MissKinds)
    causes: WrongSeats = field(default_factory=WrongSeats)
    designs: Counter = field(default_factory=Counter)
    reused: int = 0  # photos whose reads came from the cache


def score_folder(folder: Path, det: Detector, n: int, label: str,
                 explain: bool = False, reuse: bool = False) -> FolderScore:
    """Read the first `n` photos of `folder` file to `TableRead` and score them. With `reuse`, the
    reader's reads are kept beside the photos (`benchmarks.reads_cache`) and reused while the models,
    settings and reading code are the same: only the geometry runs again. With `explain`, every wrong
    seat's `why` is written as it is found."""
    out = FolderScore()
    cache = ReadsCache.for_detector(folder, det) if reuse else ReadsCache(None)
    for meta, image in rendered(folder, n, label):
        out.designs.update({c["design"] for c in meta["cards"]})
        t = time.perf_counter()
        reads = cache.get(meta["image"], lambda image=image: det.read_indices(
            vision.open_photo(image, long_side=det.scale.long_side, detail=True)))
        dets = reads.sure
        table = vision.table_of(reads, meta["width"], meta["height"], conf=det.conf,
                                unsure_conf=det.unsure_conf, jokers=jokers_of(meta),
                                extra_suit=added_suit_of(meta), second_look=looking_again(det, image, reads))
        out.seats.seconds.append(time.perf_counter() - t)
        before = len(out.seats.wrong)
        out.seats.add(meta, table)
        out.causes.add(meta, out.seats.wrong[before:], reads)
        if explain:
            for line in why(meta, out.seats.wrong[before:], reads):
                tqdm.write(f"{label}: {line}")
        truth, sure = truth_boxes(meta), _card_boxes(dets)
        out.indices.add(sure, truth)
        out.misses.add(sure, _card_boxes(reads.unsure), _card_boxes(reads.faint), truth)
    out.reused = out.seats.tables - cache.made
    cache.save()
    return out


def measure(folder: Path, det: Detector, n: int, label: str,
            explain: bool = False, reuse: bool = False) -> tuple[SeatScore, IndexScore]:
    """`score_folder`, its figures printed."""
    s = score_folder(folder, det, n, label, explain, reuse)
    if reuse and s.reused:
        print(f"{label}: reads reused for {s.reused} of {s.seats.tables} photos (their time is the "
              "geometry's alone)")
    print(f"{label}: {s.seats.line()}")
    print(f"{label}: {s.seats.shown_line()}")
    print(f"{label}: {s.seats.alarm_line()}")
    print(f"{label}: {s.seats.edits_line()}")
    print(f"{label}: {s.seats.blur_line()}")
    print(f"{label}: {s.indices.line()}")
    print(f"{label}: {s.misses.line()}")
    print(f"{label}: {s.causes.line()}")
    for line in s.seats.silent:
        print(f"{label}: wrong and not flagged: {line}")
    print(f"{label}: decks {', '.join(f'{k} {v}' for k, v in sorted(s.designs.items()))}")
    return s.seats, s.indices


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--seed", type=int, default=8080, help="a seed no training or tuning set uses")
    ap.add_argument("--size", type=int, default=4032, help="long side of the photos (a phone's 12 Mpx)")
    ap.add_argument("--splits", default="held_out,train",
                    help="comma-separated: held_out, train, decide (the decision design, never reported)")
    ap.add_argument("--model", default=None, help="ONNX detector (default: the shipped one)")
    ap.add_argument("--conf", default="", help="the second stage's P(card) thresholds to compare, e.g. "
                    "0.6,0.4 (default: the detector's)")
    ap.add_argument("--unsure", default="", help="the floors of the unsure reads to compare, e.g. 0.25,0.6 "
                    "(0.6, the threshold itself: none; default: the detector's)")
    ap.add_argument("--classifier", default="", help="namers to compare, comma-separated, each an ONNX "
                    "file or a committee a.onnx+b.onnx (default: the detector's own)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--reuse-reads", action="store_true",
                    help="keep the reader's reads beside the photos and reuse them while the models, "
                    "settings and reading code are unchanged: a geometry change is measured in seconds")
    ap.add_argument("--seats", type=int, default=4, choices=range(2, 6),
                    help="seats a table (five: 65 cards, the spades twice)")
    ap.add_argument("--four-corners", action="store_true",
                    help="deal every table from a procedural deck that prints its index in all four "
                    "corners (each card of a fanned row then shows two indices along its edge)")
    ap.add_argument("--designs", default="",
                    help="deal only these fetched designs (comma-separated name prefixes, e.g. kde), no "
                    "procedural faces; measures the held-out split alone")
    ap.add_argument("--why", action="store_true",
                    help="for every wrong seat, what differs and what lies on each index of a card it lacks")
    return ap


def _readers(args: argparse.Namespace, base: Detector) -> dict[str, Detector]:
    """The shipped reader, or one a namer, threshold and unsure floor compared (`--classifier`,
    `--conf`, `--unsure`), by the label its lines carry."""
    if not (args.classifier or args.conf or args.unsure):
        return {"": base}
    namers = [c for c in args.classifier.split(",") if c] or [base.classifier]
    confs = [float(c) for c in args.conf.split(",") if c] or [base.conf]
    floors = [float(u) for u in args.unsure.split(",") if u] or [base.unsure_conf]

    def label(n) -> str:
        return "+".join(f.stem for f in namer_paths(n)) if args.classifier else ""

    return {f" {label(n)} conf {c} unsure {u}": Detector(
        session=base.proposer.session, classifier=n, conf=c, unsure_conf=u)
        for n in namers for c in confs for u in floors}


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    splits = [Split(s) for s in args.splits.split(",") if s]
    if args.designs:
        splits = [Split.HELD_OUT]
    # Render first: the workers are spawned (`datasets.synth.batch.POOL`), but rendering after the
    # reader starts would share the two cores with its threads.
    first_use(fetch=True)  # a fresh checkout fetches the designs before any is named
    try:
        only = designs_named(Split.HELD_OUT, args.designs, args.four_corners) if args.designs else ()
    except ValueError as e:
        ap.error(f"--designs: {e}")
    deal = Deal(args.seats, args.four_corners, only)
    try:
        deals = {s: deal_for(s, deal) for s in splits}
    except ValueError as e:
        ap.error(f"--splits: {e}")
    folders = {s: render(s, args.tables, args.seed, args.size, args.workers, deal=deals[s]) for s in splits}
    readers = _readers(args, get_detector(args.model))
    for s in splits:
        for name, det in readers.items():
            measure(folders[s], det, args.tables, f"{s.value:>8}{name}", args.why, args.reuse_reads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
